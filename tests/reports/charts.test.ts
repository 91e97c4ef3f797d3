import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SampleRecord } from '../../harness/types.js';
import { renderAccuracyChart, xPosition } from '../../reports/charts/accuracy.js';
import { CHART_SIZES, wrapText } from '../../reports/charts/canvas.js';
import { categoryTicks, groupedBarSizing } from '../../reports/charts/bars.js';
import { depthOf, heatColor, heatmapGrid, renderHeatmap } from '../../generators/ruler/heatmap-chart.js';
import { heatTextColour, luminance } from '../../reports/charts/heatmap-draw.js';
import { writeCharts } from '../../reports/charts/index.js';
import { placementLabel, probeTable, renderProbeChart } from '../../generators/ruler-hqa/probe-chart.js';
import { renderRougeChart, rougeRecalls } from '../../generators/longbench/rouge-chart.js';
import { memagentRulerHqaTable } from '../../generators/ruler-hqa/report-facet.js';
import { summarize } from '../../reports/summary.js';
import { record, FACETS } from './fixtures.js';
import { pngSize, assertPrintSize } from './png.js';

const paper = memagentRulerHqaTable();

function hqaRecords(shift: number): SampleRecord[] {
  const out: SampleRecord[] = [];
  [50, 100, 200, 400].forEach((docs, i) => {
    for (let k = 0; k < 4; k++)
      out.push(
        record({
          lengthKind: 'docs',
          length: docs,
          lengthLabel: `docs:${docs}`,
          index: k,
          score: k < 4 - i - shift ? 1 : 0,
        }),
      );
  });
  return out;
}

function niahRecords(flip: boolean): SampleRecord[] {
  const out: SampleRecord[] = [];
  [8192, 16384].forEach((len, i) =>
    [0, 50, 100].forEach((depth, j) =>
      out.push(
        record({
          task: 'niah_single_1',
          lengthLabel: `${len / 1024}k`,
          length: len,
          index: j,
          score: (i + j + (flip ? 1 : 0)) % 2,
          metadata: j === 1 ? { depth } : { needles: [{ depth, key: 'k' }] },
        }),
      ),
    ),
  );
  return out;
}

test('every chart kind renders valid PNGs at both sizes, inches × ppi', () => {
  const rows = summarize(hqaRecords(0), FACETS);
  for (const size of Object.values(CHART_SIZES)) {
    const pngs = [
      renderAccuracyChart({ task: 'ruler-hqa', rows, paper: [paper], lengthTable: paper.lengths, size }),
      renderHeatmap({
        task: 'niah_single_1',
        method: 'memagent',
        model: 'local:reference-reader',
        records: niahRecords(false),
        size,
      }),
      renderProbeChart({
        task: 'probe',
        method: 'memagent',
        model: 'm',
        records: [record({ metadata: { placement: [0, 1] } }), record({ index: 1, metadata: { placement: 'random' } })],
        size,
      }),
      renderRougeChart({
        method: 'memagent',
        model: 'm',
        rows: summarize(
          [record({ model: 'm', task: 'qmsum', scores: { rouge1_r: 0.4, rouge2_r: 0.1, rougeL_r: 0.3 } })],
          FACETS,
        ),
        size,
      }),
    ];
    for (const png of pngs) assertPrintSize(png, size);
  }
});

test('charts differ when the data differ', () => {
  const size = CHART_SIZES.single;
  const a = renderAccuracyChart({
    task: 'ruler-hqa',
    rows: summarize(hqaRecords(0), FACETS),
    lengthTable: paper.lengths,
    size,
  });
  const a2 = renderAccuracyChart({
    task: 'ruler-hqa',
    rows: summarize(hqaRecords(0), FACETS),
    lengthTable: paper.lengths,
    size,
  });
  const b = renderAccuracyChart({
    task: 'ruler-hqa',
    rows: summarize(hqaRecords(1), FACETS),
    lengthTable: paper.lengths,
    size,
  });
  assert.ok(a.equals(a2), 'same data, same bytes');
  assert.ok(!a.equals(b), 'different data, different image');
  const h1 = renderHeatmap({ task: 't', method: 'm', model: 'x', records: niahRecords(false), size });
  const h2 = renderHeatmap({ task: 't', method: 'm', model: 'x', records: niahRecords(true), size });
  assert.ok(!h1.equals(h2));
});

test('heatmap grid: depth from needles[0] or metadata.depth, 0% first, means per cell', () => {
  const grid = heatmapGrid(niahRecords(false));
  assert.deepEqual(grid.depths, [0, 50, 100]);
  assert.deepEqual(
    grid.lengths.map((l) => l.label),
    ['8k', '16k'],
  );
  assert.deepEqual(
    grid.cells.map((row) => row.map((c) => c?.mean)),
    [
      [0, 1],
      [1, 0],
      [0, 1],
    ],
  );
  assert.equal(depthOf(record({ metadata: {} })), null);
  assert.equal(depthOf(record({ metadata: { needles: [{ depth: 37 }, { depth: 90 }] } })), 37);
  // Binning rounds to the nearest multiple.
  const binned = heatmapGrid([record({ metadata: { depth: 3 } }), record({ index: 1, metadata: { depth: 8 } })], 10);
  assert.deepEqual(binned.depths, [0, 10]);
});

test('heat colours run on viridis, dark violet → yellow, lighter with every step; cell text always contrasts', () => {
  assert.equal(heatColor(0), 'rgb(68, 1, 84)');
  assert.equal(heatColor(0.5), 'rgb(33, 145, 140)');
  assert.equal(heatColor(1), 'rgb(253, 231, 37)');
  assert.equal(heatColor(2), heatColor(1));
  assert.equal(heatColor(-1), heatColor(0));
  const rgb = (c: string) => (/\d+, \d+, \d+/.exec(c)?.[0] ?? '').split(', ').map(Number) as [number, number, number];
  // Lightness that only grows is what lets a colour-blind (or greyscale) reader order the cells; red → green fails.
  let previous = -1;
  for (let i = 0; i <= 100; i++) {
    const l = luminance(rgb(heatColor(i / 100)));
    assert.ok(l > previous, `luminance falls at ${i}%`);
    previous = l;
    const text = luminance(rgb(heatTextColour(i / 100) === '#ffffff' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)'));
    const ratio = (Math.max(l, text) + 0.05) / (Math.min(l, text) + 0.05);
    assert.ok(ratio >= 4.5, `text contrast ${ratio.toFixed(2)} at ${i}%`);
  }
  assert.equal(heatTextColour(0), '#ffffff');
  assert.equal(heatTextColour(1), '#000000');
});

test('probe placements: labels, order with random last, means', () => {
  assert.equal(placementLabel([0, 1]), '(0%, 100%)');
  assert.equal(placementLabel([20, 80]), '(20%, 80%)');
  assert.equal(placementLabel('0,20'), '(0%, 20%)');
  assert.equal(placementLabel({ p1: 0.4, p2: 0.6 }), '(40%, 60%)');
  assert.equal(placementLabel('RANDOM'), 'random');
  assert.equal(placementLabel(undefined), null);
  const t = probeTable([
    record({ metadata: { placement: 'random' }, score: 0 }),
    record({ index: 1, metadata: { placement: [0.8, 1] }, score: 1 }),
    record({ index: 2, metadata: { placement: [0, 1] }, score: 1 }),
    record({ index: 3, metadata: { placement: [0, 1] }, score: 0 }),
  ]);
  assert.deepEqual(t.placements, ['(0%, 100%)', '(80%, 100%)', 'random']);
  assert.equal(t.cells.get(`(0%, 100%)|tokens:7168`)?.mean, 0.5);
});

test('rouge recall keys are found under common spellings', () => {
  const [row] = summarize([record({ scores: { rouge1_r: 0.5, 'rouge-2-r': 0.25, rougel_recall: 0.4 } })], FACETS);
  assert.deepEqual(rougeRecalls(row), [0.5, 0.25, 0.4]);
});

test('docs lengths sit at the paper length, with its label; token lengths at their token count', () => {
  const [row] = summarize([record({ lengthKind: 'docs', length: 3200, lengthLabel: 'docs:3200' })], FACETS);
  // At the paper's measured mean tokens for 3200 documents (451,415.8), with its label.
  assert.deepEqual(xPosition(row, paper.lengths), { x: 451415.8, label: '448K' });
  const [tok] = summarize([record({ lengthKind: 'tokens', length: 32768, lengthLabel: '32k' })], FACETS);
  assert.deepEqual(xPosition(tok, paper.lengths), { x: 32768, label: '32k' });
});

test('writeCharts picks the charts the data supports and writes both sizes by default', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-charts-'));
  const records = [...hqaRecords(0), ...niahRecords(false)];
  const files = writeCharts(out, {
    facets: FACETS,
    rows: summarize(records, FACETS),
    records,
    paper: [paper],
    lengthTable: paper.lengths,
  });
  const kinds = files.map((f) => `${f.kind}/${f.size}`).sort();
  assert.deepEqual(kinds, [
    'accuracy/double',
    'accuracy/double',
    'accuracy/single',
    'accuracy/single',
    'niah-heatmap/double',
    'niah-heatmap/single',
  ]);
  for (const f of files) pngSize(readFileSync(f.file));
});

test('the probe chart needs two placements; plain RULER-HQA (placement "random") gets the accuracy chart only', () => {
  const out = mkdtempSync(join(tmpdir(), 'bench-charts-'));
  const plain = hqaRecords(0).map((r) => ({ ...r, metadata: { placement: 'random' } }));
  const files = writeCharts(out, {
    facets: FACETS,
    rows: summarize(plain, FACETS),
    records: plain,
    paper: [],
    lengthTable: paper.lengths,
    sizes: [CHART_SIZES.single],
  });
  assert.deepEqual(
    files.map((f) => f.kind),
    ['accuracy'],
  );
  const probe = ['0-100', '20-80', 'random'].flatMap((pl, i) =>
    [0, 1].map((k) => record({ task: 'ctx-dist', index: i * 2 + k, metadata: { placement: pl } })),
  );
  const files2 = writeCharts(out, {
    facets: FACETS,
    rows: summarize(probe, FACETS),
    records: probe,
    paper: [],
    lengthTable: paper.lengths,
    sizes: [CHART_SIZES.single],
  });
  assert.deepEqual(
    files2.map((f) => f.kind),
    ['probe'],
  );
});

test('titles wrap at words to the chart width; crowded category labels shrink, then rotate', () => {
  const text = 'first part of the title second part';
  assert.deepEqual(wrapText(text, 8, 10000), [text]);
  assert.deepEqual(wrapText(text, 8, 1), ['first', 'part', 'of', 'the', 'title', 'second', 'part']);
  const roomy = categoryTicks([['hotpotqa', 'qa_f1']], 1000, 16, 12);
  assert.deepEqual(roomy, { size: 16, maxRotation: 0 });
  const crowded = categoryTicks(
    Array.from({ length: 30 }, () => ['multifieldqa_en', 'qa_f1']),
    1000,
    16,
    12,
  );
  assert.deepEqual(crowded, { size: 12, maxRotation: 45 });
});

test('grouped bars touch within a group and never exceed the cap', () => {
  const few = groupedBarSizing(2, 2, 1000, 70);
  // slot = 500 px; two 70 px bars need 140/0.92 px of it.
  assert.ok(Math.abs(few.categoryPercentage - 140 / 0.92 / 500) < 1e-9);
  const many = groupedBarSizing(20, 4, 1000, 70);
  assert.equal(many.categoryPercentage, 0.8);
});
