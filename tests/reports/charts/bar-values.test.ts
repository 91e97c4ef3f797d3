// Value labels of bar charts at print size: never over one another, never through a whisker, upright where they
// fit, turned 90° where bars are too narrow, none where even that does not fit.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import type { SampleRecord } from '../../../harness/types.js';
import { placeBarValues, type ValueBar } from '../../../reports/charts/bar-values.js';
import { CHART_SIZES, textWidth } from '../../../reports/charts/canvas.js';
import { overlap, type Box } from '../../../reports/charts/point-labels.js';
import { longbenchFigure } from '../../../generators/longbench/scores-chart.js';
import { eFigure } from '../../../generators/longbench/e-chart.js';
import { summarize } from '../../../reports/summary.js';
import { FACETS, record } from '../fixtures.js';

const F = 8;
const measure = (t: string) => textWidth(t, F);
const AREA: Box = { left: 0, top: 0, right: 300, bottom: 150 };

/** Bars `width` wide side by side from x = 20, each `value` of 150 pt = 100. */
function bars(values: number[], width: number, whisker?: (v: number) => [number, number]): ValueBar[] {
  const y = (v: number) => 150 - v * 1.5;
  return values.map((v, i) => ({
    x: 20 + width * (i + 0.5),
    width,
    top: y(v),
    bottom: 150,
    text: String(v),
    ...(whisker ? { whisker: { top: y(whisker(v)[1]), bottom: y(whisker(v)[0]), cap: 2 } } : {}),
  }));
}

function assertApart(boxes: Box[], what: string) {
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) assert.equal(overlap(a, b), 0, `${what}: ${JSON.stringify([a, b])}`);
}

test('equal values on touching bars narrower than their text: turned 90°, apart, each over its own bar', () => {
  const bs = bars([30.87, 30.87, 30.87], 20);
  assert.ok(measure('30.87') > 20, 'the upright text is wider than its bar');
  const { rotated, labels } = placeBarValues(bs, { area: AREA, height: F, measure });
  assert.equal(rotated, true);
  assert.equal(labels.length, 3);
  assertApart(
    labels.map((l) => l.box),
    'labels',
  );
  for (const [i, l] of labels.entries()) {
    assert.ok(l.box.left >= bs[i].x - 10 && l.box.right <= bs[i].x + 10, 'within its bar');
    assert.ok(l.box.bottom <= bs[i].top, 'above its bar');
  }
});

test('labels sit above their whisker caps, clear of every bar and whisker, upright where wide bars allow', () => {
  const bs = bars([28.57, 9.52, 33.33], 30, (v) => [Math.max(0, v - 20), v + 25]);
  const { rotated, labels } = placeBarValues(bs, { area: AREA, height: F, measure });
  assert.equal(rotated, false);
  assert.equal(labels.length, 3);
  const marks = bs.flatMap((b) => [
    { left: b.x - b.width / 2, right: b.x + b.width / 2, top: b.top, bottom: b.bottom },
    { left: b.x - 2, right: b.x + 2, top: b.whisker!.top, bottom: b.whisker!.bottom },
  ]);
  for (const [i, l] of labels.entries()) {
    assert.ok(l.box.bottom < bs[i].whisker!.top, `${l.text} above its whisker`);
    for (const m of marks) assert.equal(overlap(l.box, m), 0, `${l.text} clear of ${JSON.stringify(m)}`);
  }
  assertApart(
    labels.map((l) => l.box),
    'labels',
  );
});

test('bars too narrow even for turned labels, or labels above the plot: none at all', () => {
  assert.deepEqual(placeBarValues(bars([30, 31, 32, 33], 6), { area: AREA, height: F, measure }).labels, []);
  assert.deepEqual(placeBarValues(bars([98, 40], 40), { area: AREA, height: F, measure }).labels, []);
});

/** Each value text of an SVG (those equal to one of `values`) with the box it covers, from its transform. */
function valueBoxes(svg: string, values: string[]): Array<{ text: string; box: Box }> {
  const out: Array<{ text: string; box: Box }> = [];
  for (const m of svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)) {
    const [attrs, text] = [m[1], m[2]];
    if (!values.includes(text)) continue;
    const t = attrs.match(/transform="translate\(([-\d.]+) ([-\d.]+)\)"/);
    const mx = attrs.match(/transform="matrix\(([-\d. ]+)\)"/);
    const [a, b, c, d, e, f] = mx
      ? mx[1].split(' ').map(Number)
      : [1, 0, 0, 1, Number(t?.[1] ?? 0), Number(t?.[2] ?? 0)];
    const x0 = Number(attrs.match(/ x="([-\d.]+)/)![1]);
    const y0 = Number(attrs.match(/ y="([-\d.]+)/)![1]);
    const w = textWidth(text, F);
    // Glyphs from 0.76 of a line above the baseline to 0.24 below.
    const corners = [
      [x0, y0 - 0.76 * F],
      [x0 + w, y0 - 0.76 * F],
      [x0, y0 + 0.24 * F],
      [x0 + w, y0 + 0.24 * F],
    ].map(([x, y]) => [a * x + c * y + e, b * x + d * y + f]);
    const xs = corners.map((p) => p[0]);
    const ys = corners.map((p) => p[1]);
    out.push({
      text,
      box: { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) },
    });
  }
  return out;
}

/** The value axis of an SVG bar chart, from its ticks (numbers drawn at the leftmost x): value -> y. */
function valueAxis(svg: string): (v: number) => number {
  const ticks = [...svg.matchAll(/<text [^>]*transform="translate\(([-\d.]+) ([-\d.]+)\)"[^>]*>(\d+)<\/text>/g)].map(
    (m) => ({ x: Number(m[1]), y: Number(m[2]), v: Number(m[3]) }),
  );
  const left = Math.min(...ticks.map((t) => t.x));
  const axis = ticks.filter((t) => t.x === left).sort((a, b) => a.v - b.v);
  const [lo, hi] = [axis[0], axis[axis.length - 1]];
  return (v) => lo.y + ((hi.y - lo.y) * (v - lo.v)) / (hi.v - lo.v);
}

/** Native LongBench records: `n` per method of `task`, each scoring `score`. */
function native(task: string, methods: string[], scores: number[], bucket = '0-4k'): SampleRecord[] {
  return methods.flatMap((method, m) =>
    Array.from({ length: 4 }, (_, index) =>
      record({
        task,
        id: `${task}/all/${index}`,
        method,
        index,
        lengthKind: 'native',
        lengthLabel: 'all',
        length: 0,
        metric: 'qa_f1',
        score: scores[m],
        scores: { qa_f1: scores[m] },
        metadata: { dataset: task.slice('longbench/'.length), longbench_e_bucket: bucket, length: 1000 },
      }),
    ),
  );
}

test('LongBench scores chart: equal values of neighbouring bars all drawn, none over another (single, double)', () => {
  const records = [
    ...native('longbench/hotpotqa', ['memagent', 'full-context', 'rag'], [0.3087, 0.3087, 0.3124]),
    ...native('longbench/musique', ['memagent', 'full-context', 'rag'], [0.1211, 0.1267, 0.1299]),
  ];
  const rows = summarize(records, FACETS);
  const values = ['30.87', '31.24', '12.11', '12.67', '12.99'];
  for (const size of Object.values(CHART_SIZES)) {
    const svg = longbenchFigure({ rows, size, output: { format: 'svg', title: true } }).bytes.toString('utf8');
    const labels = valueBoxes(svg, values);
    assert.equal(labels.length, 6, `${size.name}: every bar's value`);
    assertApart(
      labels.map((l) => l.box),
      size.name,
    );
  }
});

test('LongBench-E chart: values above their interval whiskers, none over another', () => {
  const records = [0.2857, 0.0952, 0.3333].flatMap((s, b) =>
    native('longbench/hotpotqa_e', ['memagent'], [s], ['0-4k', '4-8k', '8k+'][b]).map((r, i) => ({
      ...r,
      index: b * 4 + i,
      id: `longbench/hotpotqa_e/all/${b * 4 + i}`,
      // Spread within a bucket so each bar has a wide interval.
      score: i % 2 === 0 ? Math.min(1, s * 2) : 0,
      scores: { qa_f1: i % 2 === 0 ? Math.min(1, s * 2) : 0 },
    })),
  );
  const rows = summarize(records, FACETS);
  const e = rows.filter((r) => r.lengthKind === 'bucket');
  assert.equal(e.length, 3);
  for (const size of Object.values(CHART_SIZES)) {
    const svg = eFigure({
      rows,
      method: 'memagent',
      model: e[0].model,
      isReferenceReader: false,
      size,
      output: { format: 'svg', title: true },
    }).bytes.toString('utf8');
    const texts = e.map((r) => String(Number((r.score * 100).toFixed(2))));
    const labels = valueBoxes(svg, texts);
    assert.equal(labels.length, 3, `${size.name}: ${texts}`);
    const y = valueAxis(svg);
    for (const [i, r] of e.entries()) {
      const label = labels.find((l) => l.text === texts[i])!;
      assert.ok(label.box.bottom <= y(100 * r.ci95_high), `${size.name}: ${label.text} above its whisker`);
    }
    assertApart(
      labels.map((l) => l.box),
      size.name,
    );
  }
});
