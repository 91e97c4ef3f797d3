// Bad input, what the model sent back (issue 17 part 7): answers cut at the length limit, usage left out, usage that is
// not a count. Real `bench run` child processes against a real local server answering that way. Each call's
// finishReason and checked usage land in calls.jsonl; bad counts are counted with the tokenizer and flagged, never
// stored or summed as sent; each sample's cutCalls and the summary's cut_calls column count the cut answers.
import { afterAll, expect, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../../helpers/cli.js';
import { completion, fakeEndpoint, json, type FakeEndpoint } from '../../helpers/fake-endpoint.js';

const root = mkdtempSync(join(tmpdir(), 'bench-usage-'));
let seq = 0;
const freshDir = () => join(root, `run${seq++}`);
const servers: FakeEndpoint[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function runArgs(url: string, out: string, samples: number, method: string): string[] {
  return [
    'run',
    'ruler-hqa',
    '--lengths',
    '8k',
    '--samples',
    String(samples),
    '--method',
    method,
    '--model',
    url,
    '--model-name',
    'm',
    '--no-progress',
    '--no-cache',
    '--retry-base-ms',
    '1',
    '--out',
    out,
  ];
}

const lines = (file: string): Array<Record<string, any>> =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** A server answering every chat call with `answer` (a completion body, changed as the case needs). */
async function serve(answer: () => Record<string, unknown>): Promise<FakeEndpoint> {
  const server = await fakeEndpoint((_body, _n, res) => json(res, 200, answer()));
  servers.push(server);
  return server;
}

const isCount = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

async function runAgainst(answer: () => Record<string, unknown>, method = 'full-context', samples = 3) {
  const server = await serve(answer);
  const out = freshDir();
  const r = await runBench(runArgs(server.url, out, samples, method));
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return { r, out, calls: lines(join(out, 'calls.jsonl')), samples: lines(join(out, 'samples.jsonl')) };
}

test('every MemAgent call cut at the length limit: recorded per call, counted per sample, shown as cut calls', async () => {
  const { r, out, calls, samples } = await runAgainst(
    () => {
      const c = completion('<memory>cut off mid-sent') as any;
      c.choices[0].finish_reason = 'length';
      c.usage = { prompt_tokens: 100, completion_tokens: 1024, total_tokens: 1124 };
      return c;
    },
    'memagent',
    2,
  );
  assert.ok(calls.length >= 2);
  for (const c of calls) assert.equal(c.finishReason, 'length');
  for (const s of samples) {
    assert.ok(s.calls >= 1);
    assert.equal(s.cutCalls, s.calls, JSON.stringify(s));
  }
  const total = samples.reduce((n, s) => n + s.cutCalls, 0);
  const csv = readFileSync(join(out, 'summary.csv'), 'utf8').trim().split('\n');
  const header = csv[0].split(',');
  const col = header.indexOf('cut_calls');
  assert.ok(col >= 0, csv[0]);
  assert.equal(Number(csv[1].split(',')[col]), total);
  const json = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
  assert.equal(json.rows[0].cutCalls, total);
  // The terminal table grows a "cut calls" column (only when some call was cut) and a note saying what it counts.
  expect(r.stdout).toMatch(/errors {2}truncated {2}cut calls/);
  expect(r.stdout).toMatch(/^cut calls: model calls whose answer ended on the length limit/m);
});

test('answers that stop normally: finishReason "stop" in calls.jsonl, cutCalls 0, no cut calls column', async () => {
  const { r, calls, samples } = await runAgainst(() => completion());
  for (const c of calls) {
    assert.equal(c.finishReason, 'stop');
    assert.equal(c.usageFlag, undefined);
    assert.deepEqual(c.usage, { promptTokens: 0, completionTokens: 5 });
  }
  for (const s of samples) assert.equal(s.cutCalls, 0);
  assert.ok(!/cut calls/.test(r.stdout), r.stdout);
});

test('no usage in the answer: counted with the tokenizer and flagged, not 0', async () => {
  const { calls, samples } = await runAgainst(() => {
    const c = completion('Therefore, the answer is a fairly long answer of several words') as any;
    delete c.usage;
    return c;
  });
  for (const c of calls) {
    expect(c.usageFlag).toMatch(/^the server sent no usage; counted with the \S+ tokenizer$/);
    assert.ok(c.usage.completionTokens > 5, JSON.stringify(c.usage));
    assert.ok(c.usage.promptTokens > 1000, JSON.stringify(c.usage));
  }
  for (const s of samples)
    assert.ok(s.usage.completionTokens > 5 && s.usage.promptTokens > 1000, JSON.stringify(s.usage));
});

test('completion_tokens "many": flagged and counted, never stored or summed as text', async () => {
  const { out, calls, samples } = await runAgainst(() => {
    const c = completion() as any;
    c.usage = { prompt_tokens: 10, completion_tokens: 'many', total_tokens: 'many' };
    return c;
  });
  for (const c of calls) {
    expect(c.usageFlag).toMatch(/usage\.completion_tokens "many" is not a count; counted with the \S+ tokenizer/);
    assert.equal(c.usage.promptTokens, 10);
    assert.ok(isCount(c.usage.completionTokens), JSON.stringify(c.usage));
  }
  for (const s of samples) assert.ok(isCount(s.usage.completionTokens), JSON.stringify(s.usage));
  assert.ok(!readFileSync(join(out, 'samples.jsonl'), 'utf8').includes('many'));
  const row = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).rows[0];
  assert.ok(isCount(row.completionTokens), JSON.stringify(row));
});

test('negative counts: flagged and counted, never summed', async () => {
  const { calls, samples } = await runAgainst(() => {
    const c = completion() as any;
    c.usage = { prompt_tokens: -500, completion_tokens: -7, total_tokens: -507 };
    return c;
  });
  for (const c of calls) {
    expect(c.usageFlag).toMatch(/usage\.prompt_tokens -500 is not a count; usage\.completion_tokens -7 is not a count/);
    assert.ok(c.usage.promptTokens > 0 && c.usage.completionTokens > 0, JSON.stringify(c.usage));
  }
  for (const s of samples) assert.ok(s.usage.promptTokens > 0 && s.usage.completionTokens > 0, JSON.stringify(s.usage));
});
