// `bench compare` and `bench gate --baseline RUN-DIR [--paired]` through the built binary (run `npm run build` first):
// exit codes, one-line usage errors, and a small real run whose report states which differences are significant.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../../harness/types.js';
import { assertOneLine, runBench } from '../../helpers/cli.js';
import { record, runDir } from '../../reports/fixtures.js';

/** n samples at 7k, sample i scoring 1 when right(i). */
function samples(n: number, right: (i: number) => boolean, over: Partial<SampleRecord> = {}): SampleRecord[] {
  return Array.from({ length: n }, (_, i) => record({ index: i, score: right(i) ? 1 : 0, ...over }));
}

test('bench compare A B: exit 1 when B is significantly worse, 0 when not, 2 on bad input', async () => {
  const a = runDir(samples(40, (i) => i < 30));
  // 12 of A's right answers lost, none gained: McNemar p = 2/2^12 → WORSE.
  const worse = await runBench(['compare', a, runDir(samples(40, (i) => i < 18))]);
  assert.equal(worse.code, 1, worse.stdout + worse.stderr);
  assert.match(worse.stdout, /significant \(Holm, α=0\.05\)/);
  assert.match(
    worse.stdout,
    /ruler-hqa +7K +memagent +memagent +40 +75\.00 +45\.00 +-30\.00 .* McNemar exact .* yes .* yes +WORSE/,
  );
  assert.match(
    worse.stdout,
    /Holm correction across the 1 paired comparison shown \(family-wise α = 0\.05\): 1 significant/,
  );
  assert.match(worse.stdout, /^compare: FAIL \(B worse than A at 1 of 1 row/m);
  // Two lost: p = 0.5 → PASS.
  const same = await runBench(['compare', a, runDir(samples(40, (i) => i < 28)), '--alpha', '0.01']);
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /no significant difference/);
  assert.match(same.stdout, /^compare: PASS/m);
  // Usage and input errors: one line, exit 2.
  assertOneLine(await runBench(['compare', a]), 2, /needs --methods A,B/);
  assertOneLine(await runBench(['compare', a, '/no/such/run']), 2, /run directory not found/);
  assertOneLine(
    await runBench(['compare', a, a, '--alpha', '2']),
    2,
    /--alpha must be a number strictly between 0 and 1/,
  );
  assertOneLine(
    await runBench(['compare', a, runDir(samples(4, () => true, { task: 'other', id: 'x' }))]),
    2,
    /nothing to compare/,
  );
}, 120_000);

test('bench gate --baseline RUN-DIR works (no EISDIR); --paired fails a significant drop inside the unpaired tolerance', async () => {
  const base = runDir(samples(100, (i) => i < 80));
  const run = runDir(samples(100, (i) => i < 73));
  const plain = await runBench(['gate', run, '--baseline', base]);
  assert.equal(plain.code, 0, plain.stdout + plain.stderr);
  assert.ok(!/EISDIR/.test(plain.stderr));
  const paired = await runBench(['gate', run, '--baseline', base, '--paired']);
  assert.equal(paired.code, 1, paired.stdout + paired.stderr);
  assert.match(paired.stdout, /paired \(McNemar, 100 ids\) +REGRESSION/);
}, 120_000);

test('a small real run: bench report states which differences are significant; bench compare agrees with its exit code', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-compare-run-')), 'run');
  const run = await runBench(
    [
      'run',
      'ruler-hqa',
      '--lengths',
      '8k',
      '--samples',
      '16',
      '--method',
      'memagent,full-context',
      '--out',
      dir,
      '--no-progress',
    ],
    { timeoutMs: 300_000 },
  );
  assert.equal(run.code, 0, run.stderr);
  const report = await runBench(['report', dir]);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stdout, /paired differences \(B − A over shared sample ids\)/);
  assert.match(report.stdout, /ruler-hqa +8K +full-context +memagent +16 /);
  assert.match(
    report.stdout,
    /Holm correction across the 1 paired comparison shown \(family-wise α = 0\.05\): (no difference is significant|1 significant)/,
  );
  const compare = await runBench(['compare', dir, '--methods', 'full-context,memagent']);
  assert.ok(compare.code === 0 || compare.code === 1, compare.stderr);
  assert.equal(compare.code, /^compare: FAIL/m.test(compare.stdout) ? 1 : 0);
}, 400_000);
