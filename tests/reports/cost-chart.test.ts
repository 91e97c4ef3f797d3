// The cost chart: its Pareto front (the points no other point is both cheaper and more accurate than, cheapest first)
// and its point labels, which never print over each other.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { CHART_SIZES } from '../../reports/charts/canvas.js';
import { costFigure, costPoints, decadeLabel, paretoFront } from '../../reports/charts/cost.js';
import { clusterPoints, placePointLabels, segmentInside, type Box } from '../../reports/charts/point-labels.js';
import type { SummaryRow } from '../../reports/summary.js';

const row = (method: string, lengthLabel: string, score: number, gpu: number | null): SummaryRow =>
  ({
    task: 't',
    method,
    model: 'm',
    lengthKind: 'tokens',
    lengthLabel,
    length: 1,
    score,
    cost: {
      callsPerSample: 1,
      promptTokensPerSample: 1,
      completionTokensPerSample: 1,
      longestChain: 1,
      estGpuSecondsPerSample: gpu,
      costPreset: 'p',
      wallSecondsPerSample: null,
    },
  }) as SummaryRow;

test('paretoFront keeps the cheapest point and each later one that is more accurate', () => {
  const rows = [
    row('a', '8k', 0.5, 1),
    row('b', '8k', 0.4, 2),
    row('c', '8k', 0.7, 3),
    row('d', '8k', 0.7, 4),
    row('e', '8k', 0.9, 10),
    row('f', '8k', 1, null),
  ];
  const points = costPoints(rows, 't');
  assert.equal(points.length, 5, 'a row without an estimate is left out');
  assert.deepEqual(
    paretoFront(points).map((p) => p.row.method),
    ['a', 'c', 'e'],
  );
  assert.deepEqual(paretoFront([]), []);
});

const box = { left: 0, top: 0, right: 300, bottom: 200 };
const measure = (t: string) => t.length * 4.5;
const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

test('markers on the same spot form one cluster with one label of their distinct texts', () => {
  const points = [
    { x: 50, y: 50, r: 2, text: '8k' },
    { x: 50.5, y: 50, r: 2, text: '8k' },
    { x: 52, y: 51, r: 2, text: '32k' },
    { x: 90, y: 50, r: 2, text: '8k' },
  ];
  const clusters = clusterPoints(points);
  assert.deepEqual(
    clusters.map((c) => [c.members, c.text]),
    [
      [[0, 1, 2], '8k, 32k'],
      [[3], '8k'],
    ],
  );
  const [c] = clusters;
  for (const p of points.slice(0, 3))
    assert.ok(Math.hypot(p.x - c.x, p.y - c.y) + p.r <= c.r + 1e-9, 'the circle holds every marker');
  assert.ok(c.r < 2 + 2, 'and is no larger than it needs');
});

test('labels of crowded points never overlap each other or another marker, and stay in the plot', () => {
  // A row of points closer together than their labels are wide: right of each is taken by the next one.
  const points = Array.from({ length: 8 }, (_, i) => ({ x: 40 + i * 9, y: 100, r: 2.5, text: `${2 ** i}k` }));
  const labels = placePointLabels(points, { area: box, height: 8, measure });
  assert.equal(labels.length, 8);
  for (const [i, a] of labels.entries()) {
    assert.ok(a.clear, `${a.cluster.text} found a free spot`);
    assert.ok(a.box.left >= box.left && a.box.right <= box.right && a.box.top >= box.top && a.box.bottom <= box.bottom);
    for (const b of labels.slice(i + 1)) assert.ok(!overlaps(a.box, b.box), `${a.cluster.text} / ${b.cluster.text}`);
    points.forEach((p, k) => {
      if (a.cluster.members.includes(k)) return;
      const m = { left: p.x - p.r, top: p.y - p.r, right: p.x + p.r, bottom: p.y + p.r };
      assert.ok(!overlaps(a.box, m), `${a.cluster.text} over the marker of ${p.text}`);
    });
  }
  // Some had to stand off, joined to their point by a leader line starting at the markers' edge.
  const off = labels.filter((l) => l.leader);
  assert.ok(off.length > 0);
  for (const l of off) {
    const { x1, y1 } = l.leader!;
    assert.ok(Math.abs(Math.hypot(x1 - l.cluster.x, y1 - l.cluster.y) - (l.cluster.r + 0.5)) < 1e-9);
  }
  // A lone point's label goes right of it, no leader.
  const [lone] = placePointLabels([{ x: 100, y: 100, r: 2, text: '8k' }], { area: box, height: 8, measure });
  assert.ok(lone.box.left > 100 && Math.abs((lone.box.top + lone.box.bottom) / 2 - 100) < 1e-9 && !lone.leader);
  // At the plot's right edge it goes left instead.
  const [edge] = placePointLabels([{ x: 298, y: 100, r: 2, text: '8k' }], { area: box, height: 8, measure });
  assert.ok(edge.box.right < 298);
});

test('the cost chart renders points that coincide, and its caption says how they are drawn', () => {
  const rows = [row('memagent', '8k', 0.5, 1), row('rag', '8k', 0.5, 1), row('full-context', '8k', 0.5, 1)];
  for (const format of ['png', 'svg'] as const) {
    const out = costFigure({ task: 't', rows, size: CHART_SIZES.single, output: { format, title: true } });
    assert.ok(out.bytes.length > 1000);
    assert.ok(out.caption.notes.some((n) => /drawn nested .* share one label/.test(n)));
    if (format === 'svg') {
      const svg = out.bytes.toString('utf8');
      // One label for the three points (SVG text is kept as text, one glyph run per label).
      assert.equal(svg.match(/<text fill="#333"[^>]*>8k</g)?.length ?? 0, 1);
    }
  }
});

test('a label keeps off the lines it is given (the Pareto front), where it would otherwise sit on one', () => {
  // The front's horizontal step runs right from the point, through the spot a label takes first.
  const line = { x1: 100, y1: 100, x2: 260, y2: 100 };
  const point = { x: 100, y: 100, r: 2, text: '128k' };
  const [without] = placePointLabels([point], { area: box, height: 8, measure });
  assert.ok(segmentInside(line, without.box) > 0, 'the test line crosses the default spot');
  const [kept] = placePointLabels([point], { area: box, height: 8, measure, lines: [line] });
  assert.equal(segmentInside(line, kept.box), 0);
  assert.ok(kept.clear);
  // Clipping: a segment through a box counts its inner length; one beside it counts nothing.
  const b = { left: 0, top: 0, right: 10, bottom: 10 };
  assert.equal(segmentInside({ x1: -5, y1: 5, x2: 15, y2: 5 }, b), 10);
  assert.equal(segmentInside({ x1: -5, y1: 20, x2: 15, y2: 20 }, b), 0);
  assert.ok(Math.abs(segmentInside({ x1: 0, y1: 0, x2: 20, y2: 20 }, b) - Math.hypot(10, 10)) < 1e-9);
});

test('the log cost axis writes 0.1, not .1', () => {
  assert.equal(decadeLabel(0.1), '0.1');
  assert.equal(decadeLabel(0.01), '0.01');
  assert.equal(decadeLabel(10), '10');
  const rows = [row('memagent', '8k', 0.5, 0.15), row('rag', '8k', 0.4, 3)];
  const svg = costFigure({ task: 't', rows, size: CHART_SIZES.single, output: { format: 'svg', title: true } })
    .bytes.toString('utf8');
  assert.match(svg, />0\.1</);
  assert.doesNotMatch(svg, />\.1</);
});
