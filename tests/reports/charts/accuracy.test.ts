// The accuracy-vs-length chart draws a cell with fewer samples than planned as a hollow point, with a legend entry.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  accuracyChartConfig,
  accuracyChartFrame,
  HOLLOW_LEGEND,
  renderAccuracyChart,
} from '../../../reports/charts/accuracy.js';
import { CHART_SIZES } from '../../../reports/charts/canvas.js';
import { markCompleteness } from '../../../reports/completeness.js';
import { summarize } from '../../../reports/summary.js';
import { record, FACETS } from '../fixtures.js';
import { pngSize } from '../png.js';

const LENGTHS = [
  ['7k', 7168],
  ['14k', 14336],
  ['28k', 28672],
] as const;

/** memagent and rag at three lengths, 8 planned each; memagent's 28k has 3 of 8 finished, rag's 14k 5 of 8. */
function rows(planned = true) {
  const recs = LENGTHS.flatMap(([lengthLabel, length]) =>
    ['memagent', 'rag'].flatMap((method) => {
      const n = method === 'memagent' && lengthLabel === '28k' ? 3 : method === 'rag' && lengthLabel === '14k' ? 5 : 8;
      return Array.from({ length: n }, (_, index) => record({ method, lengthLabel, length, index, score: index % 2 }));
    }),
  );
  const expected = Object.fromEntries(LENGTHS.map(([label]) => [`ruler-hqa/${label}`, 8]));
  return markCompleteness(
    summarize(recs, FACETS),
    planned ? [{ expected, methods: ['memagent', 'rag'], model: 'local:reference-reader', shard: 'all' }] : [null],
  );
}

type PointStyle = {
  label?: string;
  data: Array<{ x: number; y: number }>;
  pointBackgroundColor?: unknown;
  borderColor?: unknown;
};

test('incomplete cells are hollow points (white fill in the series colour); a legend entry says so', () => {
  const { config } = accuracyChartConfig({ task: 'ruler-hqa', rows: rows(), size: CHART_SIZES.paper });
  const datasets = config.data.datasets as unknown as PointStyle[];
  const byLabel = new Map(datasets.map((d) => [d.label, d]));
  const memagent = byLabel.get('memagent')!;
  const rag = byLabel.get('rag')!;
  // Points are in length order: 7k, 14k, 28k.
  assert.deepEqual(
    memagent.data.map((p) => p.x),
    [7168, 14336, 28672],
  );
  assert.deepEqual(memagent.pointBackgroundColor, [memagent.borderColor, memagent.borderColor, '#ffffff']);
  assert.deepEqual(rag.pointBackgroundColor, [rag.borderColor, '#ffffff', rag.borderColor]);
  // The legend says what a hollow marker means, with a hollow marker; no dataset stands in for it.
  const keys = accuracyChartFrame({ task: 'ruler-hqa', rows: rows(), size: CHART_SIZES.paper }).legend.flat();
  const hollow = keys.find((e) => e.label === HOLLOW_LEGEND);
  assert.equal(hollow?.marker?.hollow, true);
  assert.equal(HOLLOW_LEGEND, 'incomplete (n < planned)');
  assert.ok(!datasets.some((d) => d.label === HOLLOW_LEGEND));
  pngSize(renderAccuracyChart({ task: 'ruler-hqa', rows: rows(), size: CHART_SIZES.paper }));
});

test('complete or unknown cells are filled, and there is no hollow legend entry', () => {
  for (const planned of [false, true]) {
    const all = rows(planned).filter((r) => (planned ? r.complete : true));
    const { config } = accuracyChartConfig({ task: 'ruler-hqa', rows: all, size: CHART_SIZES.paper });
    const datasets = config.data.datasets as unknown as PointStyle[];
    const legend = accuracyChartFrame({ task: 'ruler-hqa', rows: all, size: CHART_SIZES.paper }).legend.flat();
    assert.ok(!legend.some((d) => d.label === HOLLOW_LEGEND));
    for (const d of datasets)
      assert.ok(
        (d.pointBackgroundColor as unknown[]).every((c) => c === d.borderColor),
        String(d.label),
      );
  }
});
