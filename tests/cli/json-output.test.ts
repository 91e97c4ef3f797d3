// --json on run, report, compare, gate and tasks, through the real binary: stdout is exactly one JSON document of
// the shape `--help` and the README describe; what a person reads goes to stderr (run) or is left out.
import { beforeAll, test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bench-json-'));
const A = join(dir, 'a');
const B = join(dir, 'b');
const runArgs = (out: string, samples: string) => [
  'run',
  'niah_single_1',
  '--lengths',
  '8k,16k',
  '--samples',
  samples,
  '--method',
  'memagent,full-context',
  '--max-context',
  '6000',
  '--no-progress',
  '--out',
  out,
];

/** stdout parsed as one JSON document (JSON.parse refuses anything around it). */
function doc(stdout: string): Record<string, any> {
  return JSON.parse(stdout) as Record<string, any>;
}

let runA: Awaited<ReturnType<typeof runBench>>;

beforeAll(async () => {
  runA = await runBench([...runArgs(A, '4'), '--json']);
  const b = await runBench(runArgs(B, '4'));
  assert.equal(b.code, 0, b.stderr);
}, 300_000);

test('run --json: one document with status, counts, calls and summary.json; the grid and table on stderr', () => {
  assert.equal(runA.code, 0, runA.stderr);
  const d = doc(runA.stdout);
  assert.equal(d.command, 'run');
  assert.equal(d.dryRun, false);
  assert.equal(d.exitCode, 0);
  assert.equal(d.status, 'ok');
  assert.equal(d.outDir, A);
  assert.deepEqual(d.samples, { finished: 16, planned: 16, errors: 0 });
  assert.equal(typeof d.calls.calls, 'number');
  assert.equal(d.referenceReader, true);
  assert.deepEqual(d.summary, JSON.parse(readFileSync(join(A, 'summary.json'), 'utf8')));
  assert.equal(d.next, `bench report ${A}`);
  assert.match(runA.stderr, /^niah_single_1: lengths 8k, 16k \(2 points\)$/m);
  assert.match(runA.stderr, /^length +n +memagent_niah ×100/m);
  assert.match(runA.stderr, /^next: bench report /m);
});

test('run --dry-run --json: the rows and their totals', async () => {
  const r = await runBench([...runArgs(join(dir, 'dry'), '2'), '--dry-run', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const d = doc(r.stdout);
  assert.equal(d.dryRun, true);
  assert.equal(d.rows.length, 4);
  assert.equal(
    d.total.calls,
    d.rows.reduce((n: number, row: { calls: number }) => n + row.calls, 0),
  );
  assert.ok(d.total.calls > 0);
});

test('report --json: files, summary, warnings, paired differences and the html path', async () => {
  const r = await runBench(['report', A, '--out', join(dir, 'report'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const d = doc(r.stdout);
  assert.equal(d.command, 'report');
  assert.ok(d.files.includes(join(dir, 'report', 'summary.json')));
  assert.equal(d.html, join(dir, 'report', 'report.html'));
  assert.deepEqual(d.summary, JSON.parse(readFileSync(join(dir, 'report', 'summary.json'), 'utf8')));
  assert.deepEqual(d.warnings, []);
  // Two methods over the same samples: paired differences, Holm-marked.
  assert.equal(d.paired.rows.length, 2);
  assert.equal(typeof d.paired.alpha, 'number');
});

test("compare --json: compare.json's document, exit code as without --json", async () => {
  const out = join(dir, 'cmp');
  const r = await runBench(['compare', A, '--methods', 'memagent,full-context', '--out', out, '--json']);
  const plain = await runBench(['compare', A, '--methods', 'memagent,full-context']);
  assert.equal(r.code, plain.code, r.stderr);
  const d = doc(r.stdout);
  assert.equal(d.command, 'compare');
  assert.equal(d.exitCode, r.code);
  assert.equal(d.rows.length, 2);
  for (const row of d.rows) assert.ok(['paired', 'unpaired'].includes(row.rule));
  const { command: _c, files, ...rest } = d;
  assert.deepEqual(rest, JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')));
  assert.ok(files.includes(join(out, 'compare.json')));
});

test('gate --json: pass and fail as documents; a usage error leaves stdout empty', async () => {
  const pass = await runBench(['gate', B, '--baseline', A, '--exact', '--json']);
  assert.equal(pass.code, 0, pass.stdout + pass.stderr);
  const p = doc(pass.stdout);
  assert.equal(p.command, 'gate');
  assert.equal(p.verdict, 'pass');
  assert.deepEqual(p.baseline, { path: A, kind: 'run' });
  assert.equal(p.keys.compared, 4);
  assert.equal(p.checks.length, 4);

  const narrow = join(dir, 'narrow');
  assert.equal((await runBench([...runArgs(narrow, '4'), '--lengths', '8k'])).code, 0);
  const fail = await runBench(['gate', narrow, '--baseline', A, '--paired', '--json']);
  assert.equal(fail.code, 1, fail.stdout + fail.stderr);
  const f = doc(fail.stdout);
  assert.equal(f.verdict, 'fail');
  assert.equal(f.exitCode, 1);
  assert.equal(f.paired, true);
  assert.equal(f.keys.missing, 2);
  assert.match(f.missingNote, /^2 baseline keys missing from the run/);
  assert.equal(f.pairedRows.length, 2);

  const bad = await runBench(['gate', B, '--baseline', join(dir, 'none.json'), '--json']);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, '');
});

test('tasks --json: every task with its lengths, samples, metric and decoding', async () => {
  const r = await runBench(['tasks', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const d = doc(r.stdout);
  assert.equal(d.command, 'tasks');
  const hqa = d.tasks.find((t: { name: string }) => t.name === 'ruler-hqa');
  assert.equal(hqa.lengths, '32k..3.5m');
  assert.equal(hqa.metric, 'sub_em');
  assert.equal(typeof hqa.temperature, 'number');
  const plain = await runBench(['tasks']);
  // One line per task, then the groups after a blank line.
  assert.equal(plain.stdout.trim().split('\n\n')[0].split('\n').length, d.tasks.length);
  assert.ok(d.groups.some((g: { name: string; tasks: string[] }) => g.name === 'ruler' && g.tasks.includes('vt')));
  assert.deepEqual(d.tasks.find((t: { name: string }) => t.name === 'vt').groups, ['ruler', 'ruler-all']);
  const jsonl = d.tasks.find((t: { name: string }) => t.name === 'jsonl');
  assert.equal(jsonl.samples, null);
});
