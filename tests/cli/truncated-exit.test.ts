// `bench run`'s exit code when samples end 'truncated' (the server rejected the prompt as longer than its context):
// truncation is by design, not a sample error, so a run whose only non-ok samples are truncated exits 0, not 3
// (cli/commands/run.ts EXIT, describeOutcome). Real child processes against a local server; then describeOutcome on
// that run's own records, to show the same records with one error do exit 3.
import { afterAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { runBench } from '../helpers/cli.js';
import { completion, fakeEndpoint, json, type FakeEndpoint } from '../helpers/fake-endpoint.js';
import { describeOutcome, EXIT } from '../../cli/commands/run.js';
import type { SampleRecord } from '../../harness/types.js';

const root = mkdtempSync(join(tmpdir(), 'bench-truncated-'));
const servers: FakeEndpoint[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** A completion cut off at the length limit (finish_reason "length"). */
function cutOff(res: ServerResponse): void {
  const body = completion('Therefore, the answer is');
  body.choices[0].finish_reason = 'length';
  json(res, 200, body);
}

/** What vLLM answers for a prompt beyond the model's window. */
function tooLong(res: ServerResponse): void {
  json(res, 400, {
    object: 'error',
    message:
      "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens (8990 in the messages, 10 in the completion). Please reduce the length of the messages or completion.",
    type: 'BadRequestError',
    param: null,
    code: 400,
  });
}

function runArgs(url: string, out: string, samples: number): string[] {
  return [
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    String(samples),
    '--method',
    'full-context',
    '--model',
    url,
    '--model-name',
    'm',
    '--workers',
    '1',
    '--no-progress',
    '--no-cache',
    '--retry-base-ms',
    '1',
    '--out',
    out,
  ];
}

function records(dir: string): SampleRecord[] {
  const file = join(dir, 'samples.jsonl');
  assert.ok(existsSync(file), `no ${file}`);
  const latest = new Map<string, SampleRecord>();
  for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(l) as SampleRecord;
    latest.set(`${r.id}#${r.method}`, r);
  }
  return [...latest.values()];
}

const finished = (recs: SampleRecord[], outDir: string) => ({
  kind: 'finished' as const,
  outDir,
  records: recs,
  summaryTable: '',
  units: recs.length,
  interrupted: false,
  calls: { calls: recs.length, retries: 0, cached: 0, failed: 0 },
  referenceReader: false,
});

test('samples that are only truncated (prompt over the window) or cut off (finish_reason length) exit 0, not 3', async () => {
  // Every other call is rejected as too long; the others answer, cut off at the length limit. No call is an error.
  const server = await fakeEndpoint((_body, n, res) => (n % 2 === 0 ? tooLong(res) : cutOff(res)));
  servers.push(server);
  const out = join(root, 'mixed');
  const r = await runBench(runArgs(server.url, out, 4));
  const recs = records(out);
  const statuses = recs.map((x) => x.status).sort();
  assert.equal(recs.length, 4, r.stderr);
  assert.ok(statuses.includes('truncated') && statuses.includes('ok'), JSON.stringify(statuses));
  assert.ok(!statuses.includes('error'), JSON.stringify(statuses));
  assert.equal(r.code, EXIT.ok, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /ended as errors|--retry-errors/);
  assert.ok(!/\n\s+at .+:\d+:\d+/.test(r.stderr), r.stderr);

  // The same records through describeOutcome: 0; with one of them an error instead: 3 and the closing line.
  assert.equal(describeOutcome(finished(recs, out)).exitCode, EXIT.ok);
  const truncatedOnly = recs.map((x) => ({ ...x, status: 'truncated' as const }));
  assert.equal(describeOutcome(finished(truncatedOnly, out)).exitCode, EXIT.ok);
  const oneError = recs.map((x, i) => (i === 0 ? { ...x, status: 'error' as const, error: 'boom' } : x));
  const d = describeOutcome(finished(oneError, out));
  assert.equal(d.exitCode, EXIT.sampleErrors);
  assert.match(d.errorLine ?? '', /^1 of 4 samples ended as errors \(first: boom\)/);
});

test('a run whose every call is cut off at the length limit exits 0', async () => {
  const server = await fakeEndpoint((_body, _n, res) => cutOff(res));
  servers.push(server);
  const out = join(root, 'cut');
  const r = await runBench(runArgs(server.url, out, 3));
  assert.equal(r.code, EXIT.ok, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /ended as errors/);
  const recs = records(out);
  assert.equal(recs.length, 3);
  assert.ok(
    recs.every((x) => x.status !== 'error'),
    JSON.stringify(recs.map((x) => x.status)),
  );
});
