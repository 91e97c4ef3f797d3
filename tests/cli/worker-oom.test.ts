// A worker thread that outgrows its heap (--worker-heap-mb), through the real binary: one line naming the cause and
// the fixes, exit 3, the samples already finished kept byte for byte, and the same command with a heap large enough
// resumes the directory to the scores of an uninterrupted run.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertOneLine, runBench, type BenchResult } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'bench-worker-oom-'));
const env = { ...process.env, BENCH_CACHE_DIR: join(root, 'cache') };
const bench = (args: string[]): Promise<BenchResult> => runBench(args, { cwd: root, env });

/** niah_single_1 at 1k on the embedded model in two worker threads. */
const runArgs = (out: string, samples: number, ...more: string[]) => [
  'run',
  'niah_single_1',
  '--lengths',
  '1k',
  '--samples',
  String(samples),
  '--workers',
  '2',
  '--no-progress',
  '--out',
  out,
  ...more,
];
const samplesFile = (dir: string) => readFileSync(join(dir, 'samples.jsonl'), 'utf8');
/** Each sample's outcome by id and method; a resumed directory must hold each once. */
const outcomes = (dir: string) => {
  const rows = samplesFile(dir)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; method: string; status: string; score: number; prediction: unknown });
  const byKey = new Map(rows.map((r) => [`${r.id}#${r.method}`, [r.status, r.score, r.prediction]]));
  assert.equal(byKey.size, rows.length, 'a sample written twice');
  return Object.fromEntries([...byKey].sort(([a], [b]) => a.localeCompare(b)));
};

test('W1 a worker out of its heap stops the run with one line and exit 3; a larger heap resumes it to the same scores', async () => {
  const whole = join(root, 'whole');
  const uninterrupted = await bench(runArgs(whole, 4));
  assert.equal(uninterrupted.code, 0, uninterrupted.stderr);

  const dir = join(root, 'tripped');
  const firstHalf = await bench(runArgs(dir, 2));
  assert.equal(firstHalf.code, 0, firstHalf.stderr);
  const saved = samplesFile(dir);

  // 8 MB cannot hold a worker's modules, tokenizer and tasks: both workers are stopped at their limit.
  const tripped = await bench(runArgs(dir, 4, '--worker-heap-mb', '8'));
  assertOneLine(
    tripped,
    3,
    /^bench: a worker thread ran out of memory \(its 8 MB heap\) while loading the tokenizer, the tasks and the model; run stopped: 2 of 4 samples finished and saved in \S+tripped; rerun with fewer methods per run, --workers 1, or a larger --worker-heap-mb \(e\.g\. 16\) to resume$/,
  );
  assert.equal(samplesFile(dir), saved, 'the finished samples changed');

  const resumed = await bench(runArgs(dir, 4, '--worker-heap-mb', '512'));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stdout, /resuming: 2 of 4 samples already finished/);
  assert.ok(samplesFile(dir).startsWith(saved), 'the finished samples were rewritten');
  const scores = outcomes(dir);
  assert.equal(Object.keys(scores).length, 4);
  assert.deepEqual(scores, outcomes(whole));
});

test('W2 --worker-heap-mb below 8 is refused before anything runs', async () => {
  const r = await bench(runArgs(join(root, 'tiny'), 2, '--worker-heap-mb', '4'));
  assertOneLine(r, 2, /^bench: --worker-heap-mb must be at least 8, got 4$/);
});
