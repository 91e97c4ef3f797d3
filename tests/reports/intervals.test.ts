// The 95% interval on every summary row, and where it shows (CSV, JSON, markdown, HTML, the accuracy chart).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../cli/commands/report.js';
import { accuracyChartConfig, accuracyChartFrame } from '../../reports/charts/accuracy.js';
import { CHART_SIZES } from '../../reports/charts/canvas.js';
import { summarize, summaryCsv, summaryJson } from '../../reports/summary.js';
import { bootstrapMeanInterval } from '../../reports/stats/bootstrap.js';
import { wilsonInterval } from '../../reports/stats/wilson.js';
import { record, runDir, FACETS } from './fixtures.js';

test('a 0/1 row gets the Wilson interval of its count; errored samples count as 0', () => {
  // 3 right of 5 (one of the 4 scored-1 records errored): Wilson 3/5.
  const rows = summarize(
    [1, 1, 1, 0, 1].map((s, i) => record({ index: i, score: s, ...(i === 4 ? { status: 'error' as const } : {}) })),
    FACETS,
  );
  const w = wilsonInterval(3, 5);
  assert.deepEqual([rows[0].ci95_low, rows[0].ci95_high, rows[0].ci_method], [w.low, w.high, 'wilson']);
});

test('a row with partial credit gets the seeded bootstrap, the same on every call and in any record order', () => {
  // samples.jsonl is written in completion order, so the same samples come in any order. These scores resampled in
  // record order give a different interval reversed (and shuffled): the interval must put them in sample order first.
  const recs = [0.2, 1, 0, 0.6, 0.4, 1, 0, 0.8, 0.3, 0.5].map((s, i) =>
    record({ index: i, metric: 'f1', score: s, scores: { f1: s } }),
  );
  const shuffled = [3, 7, 0, 9, 5, 1, 8, 2, 6, 4].map((i) => recs[i]);
  const [a] = summarize(recs, FACETS);
  const [again] = summarize(recs, FACETS);
  const [b] = summarize([...recs].reverse(), FACETS);
  const [c] = summarize(shuffled, FACETS);
  assert.equal(a.ci_method, 'bootstrap');
  assert.deepEqual([again.ci95_low, again.ci95_high], [a.ci95_low, a.ci95_high]);
  assert.deepEqual([b.ci95_low, b.ci95_high], [a.ci95_low, a.ci95_high]);
  assert.deepEqual([c.ci95_low, c.ci95_high], [a.ci95_low, a.ci95_high]);
  assert.ok(a.ci95_low < a.score && a.score < a.ci95_high);
  assert.ok(a.ci95_low >= 0 && a.ci95_high <= 1);
});

test('the interval is the seeded bootstrap of the scores in sample order (index, then id), whatever the record order', () => {
  // Two runs of the same samples finished in different orders: the interval equals the one computed from the scores
  // in index order, with the row's seed.
  const scores = [0.9, 0.1, 0.55, 0, 1, 0.35, 0.7, 0.2, 0.45, 0.8, 0.05, 0.6];
  const recs = scores.map((s, i) => record({ index: i, metric: 'f1', score: s, scores: { f1: s } }));
  const byCompletion = [...recs].sort((x, y) => (x.score - y.score) * (x.index % 2 ? 1 : -1) || x.index - y.index);
  const [row] = summarize(byCompletion, FACETS);
  const want = bootstrapMeanInterval(scores, {
    seed: ['bench-ci', row.task, row.method, row.model, row.lengthKind, row.length, row.lengthLabel],
  });
  assert.deepEqual([row.ci95_low, row.ci95_high, row.ci_method], [want.low, want.high, 'bootstrap']);
});

test('summary.csv and summary.json carry ci95_low, ci95_high and ci_method', () => {
  const rows = summarize(
    [record({ index: 0, score: 1 }), record({ index: 1, score: 0, scores: { sub_em: 0 } })],
    FACETS,
  );
  const [head, line] = summaryCsv(rows)
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const cell = (name: string) => line[head.indexOf(name)];
  // Wilson 1/2: centre 0.5, half = 1.96/(1 + 1.96²/2)·√(0.25/2 + 1.96²/16) = 0.4056 → 9.45–90.55.
  assert.deepEqual(
    [cell('score_x100'), cell('ci95_low_x100'), cell('ci95_high_x100'), cell('ci_method')],
    ['50.00', '9.45', '90.55', 'wilson'],
  );
  assert.equal(head.indexOf('ci95_low_x100'), head.indexOf('score_x100') + 1);
  const json = summaryJson(rows).rows[0];
  assert.ok(Math.abs(json.ci95_low - 0.0945) < 1e-4 && Math.abs(json.ci95_high - 0.9055) < 1e-4);
  assert.equal(json.ci_method, 'wilson');
});

test('markdown and HTML name the interval and its method; the accuracy chart draws bands and says so', async () => {
  const dir = runDir(
    [7168, 14336].flatMap((len, k) =>
      [0, 1, 2, 3].map((i) => record({ lengthLabel: `${len / 1024}k`, length: len, index: i + 4 * k, score: i % 2 })),
    ),
  );
  const out = mkdtempSync(join(tmpdir(), 'bench-ci-'));
  const { rows } = await reportCommand({ runDirs: [dir], out, onWarning: () => {} });
  const md = readFileSync(join(out, 'summary.md'), 'utf8');
  assert.match(md, /\| score ×100 \| ci95 ×100 \| ci_method \| n \|/);
  assert.match(
    md,
    /ci95: 95% interval of the score: Wilson score interval when every sample scored 0 or 1, else a seeded percentile bootstrap/,
  );
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<th>ci95 ×100<\/th><th>ci_method<\/th>/);
  const { config } = accuracyChartConfig({ task: 'ruler-hqa', rows, size: CHART_SIZES.paper });
  assert.ok(config.plugins?.some((p) => p.id === 'intervalBands'));
  // The caption file says what the bands are (notes are not drawn in the image).
  const { caption } = accuracyChartFrame({ task: 'ruler-hqa', rows, size: CHART_SIZES.paper });
  assert.ok(
    caption.notes.some((n) => /^Bands: 95% intervals \((Wilson|bootstrap)/.test(n)),
    caption.notes.join('\n'),
  );
});
