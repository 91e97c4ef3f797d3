// `bench gate` with a run directory as the baseline, and --paired (reports/paired-gate.ts).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { gateCommand } from '../../cli/commands/gate.js';
import { writeBaseline } from '../../reports/regression.js';
import { summarize } from '../../reports/summary.js';
import { record, runDir, FACETS } from './fixtures.js';

/** Sample i scores 1 when right(i). */
function samples(n: number, right: (i: number) => boolean, over: Partial<SampleRecord> = {}): SampleRecord[] {
  return Array.from({ length: n }, (_, i) => record({ index: i, score: right(i) ? 1 : 0, ...over }));
}

async function gate(opts: Partial<Parameters<typeof gateCommand>[0]> & { runDir: string; baseline: string }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await gateCommand({ ...opts, print: (t) => out.push(t), printError: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('a run directory is a valid --baseline (it was "not valid JSON: EISDIR")', async () => {
  const base = runDir(samples(100, (i) => i < 80));
  const r = await gate({ runDir: runDir(samples(100, (i) => i < 75)), baseline: base });
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /baseline: run directory .* --paired tests the differences/);
  assert.match(r.out, /rule: regression if drop > max/);
  assert.match(r.out, /gate: PASS/);
});

test('--paired: a drop the unpaired tolerance allows fails when it is significant over shared ids', async () => {
  // Baseline 80/100. The run loses ids 70–79 and gains none: 75 → 70/100, drop 10 points. Unpaired: allowed drop
  // 2·√(0.8·0.2/100) = 8 points → 10 > 8 would fail; make it 7 lost (drop 7 < 8) so the unpaired rule passes:
  // McNemar b = 7, c = 0 → p = 2/2^7 = 0.015625 ≤ 0.05 (one key, Holm = raw) → the paired rule fails.
  const base = runDir(samples(100, (i) => i < 80));
  const run = runDir(samples(100, (i) => i < 73));
  const unpaired = await gate({ runDir: run, baseline: base });
  assert.equal(unpaired.code, 0, unpaired.out);
  const paired = await gate({ runDir: run, baseline: base, paired: true });
  assert.equal(paired.code, 1, paired.out + paired.err);
  assert.match(
    paired.out,
    /^rule \(--paired\): a key REGRESSES where run − baseline < 0 over shared sample ids is significant after Holm across the 1 paired rows/,
  );
  assert.match(
    paired.out,
    /ruler-hqa \/ memagent \/ 7k .* -7\.00 .*0\.0156 .*0\.0156 .*paired \(McNemar, 100 ids\) .*REGRESSION/,
  );
  assert.match(paired.out, /gate: FAIL \(1 of 1 key regressed; 1 key compared: 1 paired, 0 unpaired\)/);
  // --max-drop is a floor, as in the unpaired rule: 7 points ≤ 8 → pass.
  const floor = await gate({ runDir: run, baseline: base, paired: true, maxDrop: 8 });
  assert.equal(floor.code, 0, floor.out);
  assert.match(floor.out, /worse, within --max-drop/);
  assert.match(floor.out, /gate: PASS/);
  // JUnit carries the paired message.
  const junit = join(mkdtempSync(join(tmpdir(), 'bench-junit-')), 'gate.xml');
  await gate({ runDir: run, baseline: base, paired: true, junit });
  assert.match(readFileSync(junit, 'utf8'), /<failure message="paired: -7\.00 points \[/);
});

test('--paired: a large but not significant change passes; Holm runs across the paired keys', async () => {
  // Two lengths. 7k: 5 lost, 0 gained → p = 2/32 = 0.0625 > 0.05: not significant even alone. 14k: 6 lost → p = 2/64
  // = 0.03125 (printed 0.0313) alone, but Holm across 2 keys: min(1, 2·0.03125) = 0.0625 > 0.05 → not significant either.
  const at14k = { lengthLabel: '14k', length: 14336 };
  const base = runDir([...samples(20, (i) => i < 10), ...samples(20, (i) => i < 10, at14k)]);
  const run = runDir([...samples(20, (i) => i < 5), ...samples(20, (i) => i < 4, at14k)]);
  const r = await gate({ runDir: run, baseline: base, paired: true });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /7k .* 0\.0625 +0\.0625 .*paired/);
  assert.match(r.out, /14k .* 0\.0313 +0\.0625 .*paired/);
  assert.match(r.out, /gate: PASS \(2 keys compared: 2 paired, 0 unpaired\)/);
});

test('--paired falls back to the unpaired rule, and says so, for a baseline file or a run with other ids', async () => {
  const records = samples(100, (i) => i < 80);
  const file = join(mkdtempSync(join(tmpdir(), 'bench-gate-')), 'baseline.json');
  writeBaseline(summarize(records, FACETS), file);
  const r = await gate({ runDir: runDir(samples(100, (i) => i < 73)), baseline: file, paired: true });
  assert.equal(r.code, 0, r.out);
  assert.match(
    r.out,
    /note: the baseline .* is a file: it holds scores, not sample ids, so every key uses the unpaired rule/,
  );
  assert.match(r.out, /unpaired \(allowed drop 8\.00\)/);
  const other = runDir(samples(100, (i) => i < 73).map((x) => ({ ...x, id: `${x.id}-b` })));
  const o = await gate({ runDir: other, baseline: runDir(records), paired: true });
  assert.match(o.out, /share no sample ids: every key uses the unpaired rule/);
});

test('--paired with --exact, or a bad --alpha, is a usage error (exit 2)', async () => {
  const dir = runDir(samples(10, () => true));
  const both = await gate({ runDir: dir, baseline: dir, paired: true, exact: true });
  assert.equal(both.code, 2);
  assert.match(both.err, /--paired and --exact exclude each other/);
  const alpha = await gate({ runDir: dir, baseline: dir, paired: true, alpha: 1.5 });
  assert.equal(alpha.code, 2);
});
