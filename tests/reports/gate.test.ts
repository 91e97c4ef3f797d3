import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { baselineCommand, gateCommand } from '../../cli/commands/gate.js';
import { allowedDrop, writeBaseline } from '../../reports/regression.js';
import { summarize } from '../../reports/summary.js';
import { manifestFixture } from '../helpers/manifest.js';
import { record, runDir, FACETS } from './fixtures.js';

/** n samples at one length, `correct` of them scoring 1. */
function samples(correct: number, n: number, over: Partial<SampleRecord> = {}): SampleRecord[] {
  return Array.from({ length: n }, (_, i) => record({ index: i, score: i < correct ? 1 : 0, ...over }));
}

function baselineFile(records: SampleRecord[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'bench-gate-')), 'baseline.json');
  writeBaseline(summarize(records, FACETS), file);
  return file;
}

async function gate(opts: Partial<Parameters<typeof gateCommand>[0]> & { runDir: string; baseline: string }) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await gateCommand({ ...opts, print: (t) => out.push(t), printError: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('allowed drop is max(maxDrop, z·sqrt(p(1-p)/n))', () => {
  assert.equal(allowedDrop(0.5, 100), 2 * 0.05);
  assert.equal(allowedDrop(0.5, 100, 15), 0.15);
  assert.equal(allowedDrop(1, 50, 0), 0);
  assert.equal(allowedDrop(0.5, 100, 0, 3), 3 * 0.05);
});

test('gate passes within the tolerance and fails beyond it', async () => {
  // Baseline 80/100: SE = 0.04, z = 2 → 8 points allowed.
  const baseline = baselineFile(samples(80, 100));
  const within = await gate({ runDir: runDir(samples(73, 100)), baseline });
  assert.equal(within.code, 0, within.out);
  assert.match(within.out, /gate: PASS/);
  const beyond = await gate({ runDir: runDir(samples(71, 100)), baseline });
  assert.equal(beyond.code, 1, beyond.out);
  assert.match(beyond.out, /REGRESSION/);
  assert.match(beyond.out, /gate: FAIL/);
  // A flat --max-drop widens the tolerance; --z 0 leaves only the flat one.
  assert.equal((await gate({ runDir: runDir(samples(71, 100)), baseline, maxDrop: 10 })).code, 0);
  assert.equal((await gate({ runDir: runDir(samples(79, 100)), baseline, z: 0 })).code, 1);
  // Improvements never fail.
  assert.equal((await gate({ runDir: runDir(samples(100, 100)), baseline })).code, 0);
});

test('the tolerance shrinks with more samples', async () => {
  // Same 6-point drop: within 2·SE at n = 50 (SE≈5.7), beyond at n = 400 (SE = 2).
  assert.equal((await gate({ runDir: runDir(samples(37, 50)), baseline: baselineFile(samples(40, 50)) })).code, 0);
  assert.equal((await gate({ runDir: runDir(samples(296, 400)), baseline: baselineFile(samples(320, 400)) })).code, 1);
});

test('usage and harness errors exit 2', async () => {
  const baseline = baselineFile(samples(5, 10));
  const run = runDir(samples(5, 10));
  const missing = await gate({ runDir: run, baseline: '/no/such/baseline.json' });
  assert.equal(missing.code, 2);
  assert.match(missing.err, /baseline file not found/);
  assert.equal((await gate({ runDir: '/no/such/run', baseline })).code, 2);
  const bad = join(mkdtempSync(join(tmpdir(), 'bench-gate-')), 'bad.json');
  writeFileSync(bad, '{"kind": "something-else"}');
  assert.equal((await gate({ runDir: run, baseline: bad })).code, 2);
  writeFileSync(bad, 'not json');
  assert.equal((await gate({ runDir: run, baseline: bad })).code, 2);
  const otherTask = baselineFile(samples(5, 10, { task: 'niah_single_1' }));
  const noOverlap = await gate({ runDir: run, baseline: otherTask });
  assert.equal(noOverlap.code, 2);
  assert.match(noOverlap.err, /share no/);
  assert.equal((await gate({ runDir: run, baseline, maxDrop: -1 })).code, 2);
});

test('too many errored samples fail the gate', async () => {
  const baseline = baselineFile(samples(5, 10));
  const recs = samples(5, 10);
  recs[9] = { ...recs[9], status: 'error', error: 'boom' };
  const run = runDir(recs);
  assert.equal((await gate({ runDir: run, baseline, maxErrors: 1 })).code, 0);
  const r = await gate({ runDir: run, baseline, maxErrors: 0 });
  assert.equal(r.code, 1);
  assert.match(r.out, /TOO MANY/);
});

test('exact mode fails on any change, up or down, and on missing keys', async () => {
  const base = [...samples(5, 10), ...samples(3, 10, { lengthLabel: '14k', length: 14336 })];
  const baseline = baselineFile(base);
  assert.equal((await gate({ runDir: runDir(base), baseline, exact: true })).code, 0);
  assert.equal(
    (
      await gate({
        runDir: runDir([...samples(6, 10), ...samples(3, 10, { lengthLabel: '14k', length: 14336 })]),
        baseline,
        exact: true,
      })
    ).code,
    1,
  );
  assert.equal((await gate({ runDir: runDir(samples(5, 10)), baseline, exact: true })).code, 1);
  assert.equal(
    (await gate({ runDir: runDir(samples(5, 10)), baseline, allowMissing: true })).code,
    0,
    'a missing key is skipped with allowMissing',
  );
  const extra = runDir([...base, ...samples(4, 10, { lengthLabel: '28k', length: 28672 })]);
  assert.equal((await gate({ runDir: extra, baseline, exact: true })).code, 1, 'a key the baseline lacks is a change');
  assert.equal(
    (await gate({ runDir: extra, baseline })).code,
    0,
    'outside exact mode a new key is reported, not failed',
  );
});

test('exact mode fails when only the sample count changes (same score, different n)', async () => {
  // Baseline 16/16 = 100%: a run of 15/15 or 17/17 has the same score but a different n.
  const baseline = baselineFile(samples(16, 16));
  assert.equal((await gate({ runDir: runDir(samples(16, 16)), baseline, exact: true })).code, 0);
  for (const n of [15, 17]) {
    const r = await gate({ runDir: runDir(samples(n, n)), baseline, exact: true });
    assert.equal(r.code, 1, `n=${n}: ${r.out}`);
    assert.match(r.out, new RegExp(`100\\.00 \\(n=16\\) +100\\.00 \\(n=${n}\\) +0\\.00 .*CHANGED$`, 'm'));
    assert.match(r.out, /gate: FAIL \(1 of 1 key changed\)/);
    // Outside exact mode the same run passes: the score did not move.
    assert.equal((await gate({ runDir: runDir(samples(n, n)), baseline })).code, 0);
  }
  // The same at a score strictly between 0 and 1: 8/16 → 9/18 (both 50%).
  const half = baselineFile(samples(8, 16));
  const r = await gate({ runDir: runDir(samples(9, 18)), baseline: half, exact: true });
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /50\.00 \(n=16\) +50\.00 \(n=18\) +0\.00 .*CHANGED$/m);
});

test('exact mode fails on a baseline key missing from the run, even when every shared key is unchanged', async () => {
  const at14k = { lengthLabel: '14k', length: 14336 };
  const baseline = baselineFile([...samples(5, 10), ...samples(3, 10, at14k)]);
  const run = runDir(samples(5, 10));
  const r = await gate({ runDir: run, baseline, exact: true });
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /ruler-hqa \/ memagent \/ 14k .*CHANGED/);
  assert.match(r.out, /gate: FAIL/);
  // The printed line for the shared key still says ok: only the missing key fails.
  assert.match(r.out, /ruler-hqa \/ memagent \/ 7k .* ok$/m);
  const skipped = await gate({ runDir: run, baseline, allowMissing: true });
  assert.equal(skipped.code, 0, 'outside exact mode --allow-missing skips a missing key');
  assert.match(skipped.out, /MISSING/);
});

test('a baseline key missing from the run fails the gate unless allowMissing skips it', async () => {
  // The baseline has 8 lengths; the run (interrupted) has only the first.
  const lengths = ['7k', '14k', '28k', '56k', '112k', '224k', '448k', '896k'];
  const base = lengths.flatMap((label, i) => samples(5, 10, { lengthLabel: label, length: 7168 * 2 ** i }));
  const baseline = baselineFile(base);
  const run = runDir(samples(5, 10));
  const refused = await gate({ runDir: run, baseline });
  assert.equal(refused.code, 1, refused.out);
  assert.match(refused.out, /a missing key fails/);
  assert.match(refused.out, /ruler-hqa \/ memagent \/ 14k .*MISSING$/m);
  assert.match(refused.out, /ruler-hqa \/ memagent \/ 7k .* ok$/m);
  assert.match(
    refused.out,
    /gate: FAIL \(0 of 1 key regressed, 7 baseline keys missing from the run \(--allow-missing skips them\)\)/,
  );

  const allowed = await gate({ runDir: run, baseline, allowMissing: true });
  assert.equal(allowed.code, 0, allowed.out);
  assert.match(allowed.out, /missing keys skipped \(--allow-missing\)/);
  assert.match(allowed.out, /gate: PASS \(1 key compared, 7 missing keys skipped\)/);

  // JUnit: a failure per missing key without the flag, skipped with it.
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-junit-'));
  await gate({ runDir: run, baseline, junit: join(dir, 'a.xml') });
  assert.match(readFileSync(join(dir, 'a.xml'), 'utf8'), /failures="7" errors="0" skipped="0"/);
  assert.match(
    readFileSync(join(dir, 'a.xml'), 'utf8'),
    /<failure message="in the baseline but not in the run" type="missing">/,
  );
  await gate({ runDir: run, baseline, junit: join(dir, 'b.xml'), allowMissing: true });
  assert.match(readFileSync(join(dir, 'b.xml'), 'utf8'), /failures="0" errors="0" skipped="7"/);

  // Exact mode keeps its verdict (CHANGED) for a missing key, and allowMissing skips it there too.
  assert.match((await gate({ runDir: run, baseline, exact: true })).out, /14k .*CHANGED$/m);
  assert.equal((await gate({ runDir: run, baseline, exact: true, allowMissing: true })).code, 0);
});

/** A small well-formedness check: balanced tags, quoted attributes, known entities, one root. */
function assertWellFormedXml(text: string): void {
  assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
  const body = text.replace(/^<\?xml[^>]*\?>/, '');
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const m of body.matchAll(token)) {
    if (m[6]) assert.fail(`stray "<" at ${m.index}`);
    if (m[5] !== undefined) {
      assert.ok(
        !/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(m[5]),
        `bad entity in text: ${m[5].slice(0, 40)}`,
      );
      if (stack.length === 0) assert.equal(m[5].trim(), '', 'text outside the root');
      continue;
    }
    for (const attr of m[3].matchAll(/="([^"]*)"/g))
      assert.ok(!/&(?!(amp|lt|gt|quot|apos);)/.test(attr[1]), `bad entity in attribute ${attr[1]}`);
    if (m[1]) assert.equal(stack.pop(), m[2], `mismatched </${m[2]}>`);
    else if (!m[4]) {
      if (stack.length === 0) roots++;
      stack.push(m[2]);
    } else if (stack.length === 0) roots++;
  }
  assert.deepEqual(stack, [], 'unclosed tags');
  assert.equal(roots, 1);
}

test('--junit writes well-formed JUnit XML with one testcase per key', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  const junit = join(dir, 'junit.xml');
  const base = [...samples(8, 10), ...samples(8, 10, { lengthLabel: '14k & <more>', length: 14336 })];
  const baseline = baselineFile(base);
  const run = runDir([...samples(8, 10), ...samples(0, 10, { lengthLabel: '14k & <more>', length: 14336 })]);
  const r = await gate({ runDir: run, baseline, junit, maxErrors: 5 });
  assert.equal(r.code, 1);
  const xml = readFileSync(junit, 'utf8');
  assertWellFormedXml(xml);
  assert.equal((xml.match(/<testcase /g) ?? []).length, 3, 'two keys and the error budget');
  assert.match(xml, /<testsuites name="bench gate" tests="3" failures="1" errors="0"/);
  assert.match(xml, /name="14k &amp; &lt;more&gt;"/);
  // A harness error still leaves a JUnit file saying so.
  const r2 = await gate({ runDir: run, baseline: join(dir, 'missing.json'), junit });
  assert.equal(r2.code, 2);
  const xml2 = readFileSync(junit, 'utf8');
  assertWellFormedXml(xml2);
  assert.match(xml2, /<error message="baseline file not found/);
});

test('bench baseline freezes a run for the gate', async () => {
  const run = runDir(samples(7, 10), {
    manifest: manifestFixture({
      command: 'bench run',
      seed: 3,
      model: { id: 'local:reference-reader', isReferenceReader: true },
    }),
  });
  const out = join(mkdtempSync(join(tmpdir(), 'bench-gate-')), 'sub', 'b.json');
  const { entries } = await baselineCommand({ runDir: run, out });
  assert.equal(entries, 1);
  const b = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(b.kind, 'bench-baseline');
  assert.equal(b.entries[0].score, 0.7);
  assert.equal(b.entries[0].n, 10);
  assert.equal(b.source.seed, 3);
  assert.equal((await gate({ runDir: run, baseline: out, exact: true })).code, 0);
});
