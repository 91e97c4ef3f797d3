// Paired differences over shared sample ids (reports/paired.ts) and the compare rule (reports/compare.ts).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { SampleRecord } from '../../harness/types.js';
import { formatCompare, judgeRows } from '../../reports/compare.js';
import { applyHolm, pairMethods, pairRuns, pairSeries } from '../../reports/paired.js';
import { holmSentence } from '../../reports/paired-report.js';
import { record } from './fixtures.js';

const at14k = { lengthLabel: '14k', length: 14336 };

/** One record per score, sample i scoring scores[i]. */
function side(method: string, scores: number[], over: Partial<SampleRecord> = {}): SampleRecord[] {
  return scores.map((s, i) => {
    const r = record({ method, index: i, score: s, scores: { sub_em: s }, ...over });
    return { ...r, id: `${r.task}/${r.lengthLabel}/${i}` };
  });
}

const ones = (k: number) => new Array<number>(k).fill(1);
const zeros = (k: number) => new Array<number>(k).fill(0);

test('report pairs: B − A over shared ids, McNemar p, Holm across the rows, and the plain sentence', () => {
  // 7k: full-context right on ids 0–9; memagent right on ids 0–17. Discordant pairs: 8, all for memagent (b = 0,
  // c = 8): McNemar p = 2·(1/2)^8 = 1/128 = 0.0078125; diff = 8/20 = +0.40. 14k: identical answers → p = 1.
  // Holm over the two: sorted 0.0078125·2 = 0.015625 ≤ 0.05 (significant), then max(0.015625, 1·1) = 1.
  const records = [
    ...side('full-context', [...ones(10), ...zeros(10)]),
    ...side('memagent', [...ones(18), ...zeros(2)]),
    ...side('full-context', [...ones(5), ...zeros(5)], at14k),
    ...side('memagent', [...ones(5), ...zeros(5)], at14k),
  ];
  const rows = applyHolm(pairSeries(records));
  assert.deepEqual(
    rows.map((r) => [r.lengthLabel, r.a.label, r.b.label, r.shared]),
    [
      ['7k', 'full-context', 'memagent', 20],
      ['14k', 'full-context', 'memagent', 10],
    ],
  );
  const [r7, r14] = rows;
  assert.ok(Math.abs(r7.diff - 0.4) < 1e-12);
  assert.equal(r7.test, 'mcnemar-exact');
  assert.deepEqual([r7.onlyA, r7.onlyB], [0, 8]);
  assert.equal(r7.p, 1 / 128);
  assert.equal(r7.pHolm, 1 / 64);
  assert.equal(r7.significant, true);
  assert.ok(r7.ci95_low! > 0 && r7.ci95_high! <= 0.65, `${r7.ci95_low} ${r7.ci95_high}`);
  assert.deepEqual([r14.diff, r14.p, r14.pHolm, r14.significant], [0, 1, 1, false]);
  assert.deepEqual([r14.ci95_low, r14.ci95_high], [0, 0]);
  const sentence = holmSentence(rows);
  assert.match(
    sentence,
    /Holm correction across the 2 paired comparisons shown \(family-wise α = 0\.05\): 1 significant — ruler-hqa 7K: memagent − full-context = \+40\.00 points \[\+\d+\.\d\d, \+\d+\.\d\d\], p = 0\.0078, Holm p = 0\.0156\. The other 1 difference is not significant\./,
  );
});

test('errored samples count as 0 on both sides, as in the summary; scores that are not 0/1 use the sign-flip test', () => {
  const a = side('full-context', [1, 1, 1, 1]);
  const b = side('memagent', [1, 1, 1, 1]).map((r, i) => (i < 2 ? { ...r, status: 'error' as const } : r));
  const [row] = pairSeries([...a, ...b]);
  assert.equal(row.scoreB, 0.5);
  assert.deepEqual([row.onlyA, row.onlyB], [2, 0]);
  // F1-like scores: differences [0.5, 0.25, −0.25] plus a zero; the exact sign-flip p is 6/8 (hand count in
  // tests/reports/stats/mcnemar.test.ts).
  const [f1] = pairSeries([...side('full-context', [0, 0.5, 0.5, 0.2]), ...side('memagent', [0.5, 0.75, 0.25, 0.2])]);
  assert.equal(f1.test, 'sign-flip');
  assert.equal(f1.p, 0.75);
});

test('report pairs compare methods within a model and models within a method, never both at once', () => {
  const X = 'http://h/v1#model-x';
  const Y = 'http://h/v1#model-y';
  const records = [
    ...side('memagent', [1, 0], { model: X }),
    ...side('memagent', [1, 1], { model: Y }),
    ...side('rag', [0, 0], { model: X }),
  ];
  const rows = pairSeries(records);
  assert.deepEqual(rows.map((r) => `${r.b.label} − ${r.a.label}`).sort(), [
    'memagent · model-y − memagent · model-x',
    'rag · model-x − memagent · model-x',
  ]);
});

test('two runs: paired per task × method × length across models; keys on one side only are listed', () => {
  const a = [
    ...side('memagent', [1, 0, 1], { model: 'm1' }),
    ...side('rag', [1, 1, 1], { model: 'm1' }),
    ...side('memagent', [1], { model: 'm1', ...at14k }),
  ];
  const b = [
    ...side('memagent', [1, 1, 1], { model: 'm2' }),
    ...side('memagent', [0], { model: 'm2', lengthLabel: '28k', length: 28672 }),
  ];
  const p = pairRuns(a, b);
  assert.deepEqual(
    p.rows.map((r) => [r.a.method, r.lengthLabel, r.shared, r.diff.toFixed(6)]),
    [['memagent', '7k', 3, (1 / 3).toFixed(6)]],
  );
  assert.deepEqual(p.onlyA, ['ruler-hqa / memagent / 14k', 'ruler-hqa / rag / 7k']);
  assert.deepEqual(p.onlyB, ['ruler-hqa / memagent / 28k']);
  assert.deepEqual(pairRuns(a, b, { methods: ['rag'] }).rows, []);
  assert.throws(() => pairRuns([...a, ...side('memagent', [1], { model: 'other', index: 9 })], b), /two models/);
});

test('compare within a run: --methods A,B; an unknown method is a UserError', () => {
  const records = [...side('full-context', [1, 0, 0, 0]), ...side('memagent', [1, 1, 1, 0])];
  const rows = pairMethods(records, 'memagent', 'full-context');
  assert.equal(rows[0].a.label, 'memagent');
  assert.ok(Math.abs(rows[0].diff - -0.5) < 1e-12);
  assert.throws(
    () => pairMethods(records, 'memagent', 'rag'),
    (e: Error) => e.name === 'UserError' && /rag/.test(e.message),
  );
  assert.throws(() => pairMethods(records, 'memagent', 'memagent'), /two different methods/);
});

test('the compare rule: paired rows fail only when significantly worse beyond --max-drop; unpaired rows use the gate tolerance', () => {
  // B loses 12 of 40 ids A got right and gains none: McNemar p = 2/2^12 ≈ 0.00049 → significant; diff = −0.30.
  const a = side('memagent', [...ones(30), ...zeros(10)]);
  const worse = side('memagent', [...ones(18), ...zeros(22)]);
  const better = side('memagent', [...ones(40)]);
  const [w] = judgeRows(pairRuns(a, worse).rows);
  assert.deepEqual([w.rule, w.significant, w.worse, w.verdict], ['paired', true, true, 'WORSE']);
  const [w30] = judgeRows(pairRuns(a, worse).rows, { maxDrop: 30 });
  assert.deepEqual([w30.worse, w30.verdict], [false, 'worse, within --max-drop']);
  const [b] = judgeRows(pairRuns(a, better).rows);
  assert.deepEqual([b.worse, b.verdict], [false, 'better']);
  // Not significant: 2 of 40 lost → McNemar p = 0.5.
  const [n] = judgeRows(pairRuns(a, side('memagent', [...ones(28), ...zeros(12)])).rows);
  assert.deepEqual([n.p, n.worse, n.verdict], [0.5, false, 'no significant difference']);
  // Unpaired (the ids differ): A 30/40 = 0.75, tolerance 2·√(0.75·0.25/40) = 0.1369; B 18/40 = 0.45: drop 0.30 > tolerance.
  const relabel = (rs: SampleRecord[]) => rs.map((r) => ({ ...r, id: `${r.id}-other` }));
  const [u] = judgeRows(pairRuns(a, relabel(worse)).rows);
  assert.deepEqual([u.rule, u.p, u.worse, u.verdict], ['unpaired', null, true, 'WORSE (beyond tolerance)']);
  assert.ok(Math.abs(u.tolerance - 2 * Math.sqrt((0.75 * 0.25) / 40)) < 1e-12);
});

test('unpaired rows (no shared ids): diff is B − A of the two scores, negative and printed with a minus beside WORSE', () => {
  // A 30/40 = 0.75, B 18/40 = 0.45 over different ids: diff = −0.30; the table shows -30.00 beside the verdict.
  const a = side('memagent', [...ones(30), ...zeros(10)]);
  const b = side('memagent', [...ones(18), ...zeros(22)]).map((r) => ({ ...r, id: `${r.id}-other` }));
  const [u] = judgeRows(pairRuns(a, b).rows);
  assert.deepEqual([u.paired, u.shared, u.rule, u.worse], [false, 0, 'unpaired', true]);
  assert.deepEqual([u.scoreA, u.scoreB], [0.75, 0.45]);
  assert.ok(Math.abs(u.diff - (0.45 - 0.75)) < 1e-12, `diff ${u.diff}`);
  const text = formatCompare([u], { aName: 'A', bName: 'B' });
  const row = text.split('\n').find((l) => l.includes('WORSE (beyond tolerance)'));
  assert.ok(row, text);
  assert.match(row, /(^|\s)-30\.00(\s|$)/);
  assert.doesNotMatch(row, /\+30\.00/);
  // The other way round B is better: +30.00 and within tolerance.
  const [v] = judgeRows(pairRuns(b, a).rows);
  assert.ok(Math.abs(v.diff - 0.3) < 1e-12, `diff ${v.diff}`);
  assert.deepEqual([v.worse, v.verdict], [false, 'within tolerance']);
  // Within a run (--methods), the same sign: B's score minus A's.
  const [m] = pairMethods([...a, ...b.map((r) => ({ ...r, method: 'rag' }))], 'memagent', 'rag');
  assert.equal(m.paired, false);
  assert.ok(Math.abs(m.diff - -0.3) < 1e-12, `diff ${m.diff}`);
});

test('a duplicated id (a sample rerun, e.g. --retry-errors) counts once, with its LAST record, on either side', () => {
  // ids 0–3; id 0 appears twice on each side: first as an error (0), last as right (1) under B; the reverse under A.
  const a = side('full-context', [1, 1, 0, 0]);
  const b = side('memagent', [0, 1, 0, 1]);
  const aRerun = { ...a[0], score: 0, scores: { sub_em: 0 } };
  const bRerun = { ...b[0], score: 1, scores: { sub_em: 1 } };
  const records = [...a, ...b, aRerun, bRerun];
  // Last records: A = [0, 1, 0, 0], B = [1, 1, 0, 1]: diff +0.50 over 4 ids (first records would give 0).
  for (const [name, rows] of [
    ['pairSeries', pairSeries(records)],
    ['pairMethods', pairMethods(records, 'full-context', 'memagent')],
  ] as const) {
    assert.equal(rows.length, 1, name);
    const [r] = rows;
    assert.equal(r.shared, 4, name);
    assert.deepEqual([r.a.n, r.b.n], [4, 4], name);
    assert.deepEqual([r.scoreA, r.scoreB, r.a.score, r.b.score], [0.25, 0.75, 0.25, 0.75], name);
    assert.ok(Math.abs(r.diff - 0.5) < 1e-12, `${name}: diff ${r.diff}`);
    assert.deepEqual([r.onlyA, r.onlyB], [0, 2], name);
  }
  // Two runs: A's records, then B's run with id 0 rerun at the end.
  const runB = [...b.map((r) => ({ ...r, method: 'full-context' })), { ...bRerun, method: 'full-context' }];
  const [r] = pairRuns(a, runB).rows;
  assert.deepEqual([r.shared, r.b.n, r.scoreB], [4, 4, 0.75]);
});

test('pairRuns pairs an id only when both runs hold the same sample under it (answers, question, seed, data)', () => {
  const a = side('memagent', [1, 1, 1, 0]);
  // B's samples 0 and 1 are other samples under the same ids (another needle, another question).
  const b = side('memagent', [0, 0, 1, 0]).map((r, i) =>
    i === 0 ? { ...r, answers: ['Bob'] } : i === 1 ? { ...r, question: 'Who read it?' } : r,
  );
  const p = pairRuns(a, b);
  assert.equal(p.otherContent, 2);
  assert.equal(p.rows[0].shared, 2);
  assert.equal(p.rows[0].otherContent, 2);
  assert.equal(p.rows[0].diff, 0); // ids 2 and 3 only: 1 vs 1, 0 vs 0
  // Another seed: nothing pairs, the row is compared unpaired; the same seed pairs all four.
  const seeds = pairRuns(a, a, { content: { a: { seed: 1 }, b: { seed: 2 } } });
  assert.equal(seeds.rows[0].paired, false);
  assert.equal(seeds.otherContent, 4);
  assert.equal(pairRuns(a, a, { content: { a: { seed: 1 }, b: { seed: 1 } } }).rows[0].shared, 4);
  // Another --data file for the task: not paired; a task that read no --data on either side is unaffected.
  const data = pairRuns(a, a, { content: { a: { data: { 'ruler-hqa': 'aa' } }, b: { data: { 'ruler-hqa': 'bb' } } } });
  assert.equal(data.rows[0].paired, false);
  assert.equal(pairRuns(a, a, { content: { a: { data: {} }, b: { data: {} } } }).rows[0].shared, 4);
});
