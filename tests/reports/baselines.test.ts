import { test } from 'vitest';
import assert from 'node:assert/strict';
import { paperCurves, paperBaselinesFor, loadPaperBaselines } from '../../reports/baselines.js';
import { memagentRulerHqaTable } from '../../generators/ruler-hqa/report-facet.js';
import { FACETS } from './fixtures.js';
import { fmtPct } from '../../reports/format.js';

test('the MemAgent RULER-HQA table is complete and consistent', () => {
  const b = memagentRulerHqaTable();
  assert.equal(b.source.arxiv, '2507.02259');
  assert.equal(b.source.location, 'Table 2');
  assert.deepEqual(
    b.lengths.map((l) => l.label),
    ['7K', '14K', '28K', '56K', '112K', '224K', '448K', '896K', '1.75M', '3.5M'],
  );
  assert.deepEqual(
    b.lengths.map((l) => l.docs),
    [50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600],
  );
  assert.equal(b.lengths[0].approxTokens, 6999.6);
  assert.equal(b.lengths[9].approxTokens, null);
  assert.equal(b.series.length, 8);
  for (const s of b.series) {
    for (const v of s.scores) {
      if (v === null) continue;
      // 128 questions: every value is k/128 shown ×100 with 2 decimals.
      const k = Math.round((v * 128) / 100);
      assert.equal(fmtPct(k / 128), v.toFixed(2), `${s.model} ${v}`);
    }
  }
  const mem14 = b.series.find((s) => s.model === 'RL-MemAgent-14B');
  assert.deepEqual(mem14?.scores, [83.59, 82.03, 84.38, 80.47, 76.56, 81.25, 75.0, 77.34, 76.56, 78.12]);
  const qwenlong = b.series.find((s) => s.model === 'QwenLong-L1-32B');
  assert.deepEqual(qwenlong?.scores.slice(8), [null, null]);
  assert.equal(paperCurves(b).find((c) => c.model === 'QwenLong-L1-32B')?.points.length, 8);
  const niah = b.figures.find((f) => f.id === 'niah-512k');
  assert.equal(niah?.readFromFigure, true);
  assert.deepEqual(
    niah?.values.map((v) => v.score),
    [95.4, 81.91],
  );
});

test('paper baselines are found by task name', () => {
  const all = loadPaperBaselines();
  assert.equal(paperBaselinesFor('ruler-hqa', all, FACETS).length, 1);
  assert.equal(paperBaselinesFor('ruler_hqa', all, FACETS).length, 1);
  assert.equal(paperBaselinesFor('niah_single_1', all, FACETS).length, 0);
});
