// `bench gate` through the built binary (run `npm run build` first): the --exact flag must reach the gate rule,
// and its verdict must reach the exit code.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../../harness/types.js';
import { record, runDir } from '../../reports/fixtures.js';

const BIN = join(process.cwd(), 'bin', 'bench.js');

function bench(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** n samples at one length, `correct` of them scoring 1. */
function samples(correct: number, n: number, over: Partial<SampleRecord> = {}): SampleRecord[] {
  return Array.from({ length: n }, (_, i) => record({ index: i, score: i < correct ? 1 : 0, ...over }));
}

test('bench gate --exact exits 1 when only n changes or a baseline key is missing; without --exact a changed n passes and a missing key needs --allow-missing', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-cli-'));
  const at14k = { lengthLabel: '14k', length: 14336 };
  const baseline = join(dir, 'baseline.json');
  const made = bench(['baseline', runDir([...samples(16, 16), ...samples(8, 16, at14k)]), '--out', baseline]);
  assert.equal(made.code, 0, made.stderr);

  const same = bench([
    'gate',
    runDir([...samples(16, 16), ...samples(8, 16, at14k)]),
    '--baseline',
    baseline,
    '--exact',
  ]);
  assert.equal(same.code, 0, same.stdout + same.stderr);
  assert.match(same.stdout, /gate: PASS \(2 keys compared\)/);

  // Same scores (100% and 50%), different sample counts.
  for (const [full, half] of [
    [15, 14],
    [17, 18],
  ]) {
    const run = runDir([...samples(full, full), ...samples(half / 2, half, at14k)]);
    const exact = bench(['gate', run, '--baseline', baseline, '--exact']);
    assert.equal(exact.code, 1, exact.stdout + exact.stderr);
    assert.match(exact.stdout, /gate: FAIL \(2 of 2 keys changed\)/);
    const loose = bench(['gate', run, '--baseline', baseline]);
    assert.equal(loose.code, 0, loose.stdout + loose.stderr);
  }

  // The 14k key is in the baseline but not in the run.
  const partial = runDir(samples(16, 16));
  const exact = bench(['gate', partial, '--baseline', baseline, '--exact']);
  assert.equal(exact.code, 1, exact.stdout + exact.stderr);
  assert.match(exact.stdout, /14k .*CHANGED/);
  const loose = bench(['gate', partial, '--baseline', baseline]);
  assert.equal(loose.code, 1, 'a missing key fails unless --allow-missing');
  assert.match(loose.stdout, /14k .*MISSING/);
  const allowed = bench(['gate', partial, '--baseline', baseline, '--allow-missing']);
  assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
});
