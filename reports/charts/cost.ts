// Accuracy against cost: one point per method × length at its estimated GPU-seconds per sample (log axis) and its
// score, the method's colour and marker (style.ts), each point labelled with its length (one label per cluster of
// overlapping points, placed clear of the others: point-labels.ts), and the Pareto front (no other point is both
// cheaper and more accurate) drawn as a dark step line through its points.
import type { SKRSContext2D } from '@napi-rs/canvas';
import type { ChartDataset, Plugin } from 'chart.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import type { SummaryRow } from '../summary.js';
import { lengthAxis, SERIES_MARKER } from './accuracy.js';
import { DEFAULT_OUTPUT, font, textWidth, type ChartOutput, type ChartSize } from './canvas.js';
import { chartFrame, renderFrame, type FramedChart } from './frame.js';
import { drawMarker, type LegendEntry } from './legend.js';
import { placePointLabels } from './point-labels.js';
import { markerRadius, methodStyle, type MethodStyle } from './style.js';

export interface CostChartInput {
  task: string;
  /** The task's summary rows; those without an estimate are left out. */
  rows: SummaryRow[];
  size: ChartSize;
  output?: ChartOutput;
}

export interface CostPoint {
  row: SummaryRow;
  x: number;
  y: number;
}

/** The rows the chart places: one model's task rows with an estimated cost above 0. */
export function costPoints(rows: readonly SummaryRow[], task: string): CostPoint[] {
  return rows
    .filter((r) => r.task === task && r.lengthKind !== 'bucket' && r.aggregate === undefined)
    .filter((r) => (r.cost?.estGpuSecondsPerSample ?? 0) > 0)
    .map((row) => ({ row, x: row.cost!.estGpuSecondsPerSample!, y: row.score * 100 }));
}

/** The points no other point dominates (cheaper or as cheap, and more accurate or as accurate, one of them strictly),
 *  cheapest first. */
export function paretoFront(points: readonly CostPoint[]): CostPoint[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || b.y - a.y);
  const front: CostPoint[] = [];
  for (const p of sorted) if (front.length === 0 || p.y > front[front.length - 1].y) front.push(p);
  return front;
}

/** A decade tick's label: 0.1, 1, 10 (a leading zero kept: ".1" reads as a stray mark on a log axis). */
export const decadeLabel = (v: number): string => `${v}`;

/** How much larger a marker is drawn per later marker on the same spot (so every one of them shows). */
const NEST_STEP = 0.65;
/** The Pareto ring's distance from the markers it rings. */
const RING_GAP = 1.6;

interface DrawnPoint {
  point: CostPoint;
  style: MethodStyle;
  x: number;
  y: number;
  r: number;
}

/**
 * The markers, drawn here rather than by chart.js: each with a white edge, and a marker that later ones cover (the
 * same cost and score) drawn larger, so that every method on a spot shows as a ring; one label per cluster of
 * overlapping markers (point-labels.ts), with a leader line where it stands off; rings round the Pareto front.
 */
function pointsPlugin(
  groups: CostPoint[][],
  front: ReadonlySet<CostPoint>,
  steps: ReadonlyArray<{ x: number; y: number }>,
  f: number,
): Plugin {
  return {
    id: 'costPoints',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx as unknown as SKRSContext2D;
      const drawn: DrawnPoint[] = [];
      groups.forEach((group, i) => {
        const meta = chart.getDatasetMeta(i);
        const style = methodStyle(group[0]?.row.method ?? '');
        group.forEach((point, j) => {
          const el = meta.data[j];
          if (el) drawn.push({ point, style, x: el.x, y: el.y, r: markerRadius(style.marker, SERIES_MARKER) });
        });
      });
      const base = drawn.map((d) => d.r);
      drawn.forEach((d, i) => {
        const above = drawn.slice(i + 1).filter((o) => Math.hypot(o.x - d.x, o.y - d.y) < base[i] * 0.75).length;
        d.r = base[i] * (1 + NEST_STEP * above);
      });
      for (const d of drawn) {
        drawMarker(ctx, d.style.marker, d.x, d.y, d.r / markerRadius(d.style.marker, 1) + 0.5, '#ffffff');
        drawMarker(ctx, d.style.marker, d.x, d.y, d.r / markerRadius(d.style.marker, 1), d.style.color, false, 0.5);
      }
      const area = chart.chartArea;
      const px = steps.map((s) => ({ x: chart.scales.x.getPixelForValue(s.x), y: chart.scales.y.getPixelForValue(s.y) }));
      const lines = px.slice(1).map((b, i) => ({ x1: px[i].x, y1: px[i].y, x2: b.x, y2: b.y }));
      const labels = placePointLabels(
        drawn.map((d) => ({
          x: d.x,
          y: d.y,
          r: d.r,
          text: d.point.row.lengthLabel,
          keepOut: front.has(d.point) ? RING_GAP + 0.8 : 0,
        })),
        {
          area: { left: area.left, top: area.top, right: area.right, bottom: area.bottom },
          height: f,
          measure: (t) => textWidth(t, f),
          lines,
        },
      );
      ctx.save();
      for (const l of labels) {
        const c = l.cluster;
        if (c.members.some((m) => front.has(drawn[m].point))) {
          ctx.beginPath();
          ctx.strokeStyle = '#222222';
          ctx.lineWidth = 0.8;
          ctx.setLineDash([]);
          ctx.arc(c.x, c.y, c.r + RING_GAP, 0, 2 * Math.PI);
          ctx.stroke();
        }
        if (l.leader) {
          ctx.beginPath();
          ctx.strokeStyle = '#777777';
          ctx.lineWidth = 0.4;
          ctx.moveTo(l.leader.x1, l.leader.y1);
          ctx.lineTo(l.leader.x2, l.leader.y2);
          ctx.stroke();
        }
        // A white halo keeps the label legible over grid lines and the front's line.
        ctx.font = font(f);
        ctx.textAlign = 'left';
        ctx.textBaseline = 'middle';
        const y = (l.box.top + l.box.bottom) / 2;
        ctx.lineJoin = 'round';
        ctx.strokeStyle = '#ffffff';
        ctx.lineWidth = 1.6;
        ctx.strokeText(c.text, l.box.left, y);
        ctx.fillStyle = '#333333';
        ctx.fillText(c.text, l.box.left, y);
      }
      ctx.restore();
    },
  };
}

export function costChartFrame(input: CostChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const points = costPoints(input.rows, input.task);
  const methods = [...new Set(points.map((p) => `${p.row.method}\u0000${p.row.model}`))].sort();
  const datasets: ChartDataset<'line', Array<{ x: number; y: number }>>[] = [];
  const groups: CostPoint[][] = [];
  const entries: LegendEntry[] = [];
  const models = new Set(points.map((p) => p.row.model));
  for (const key of methods) {
    const [method, model] = key.split('\u0000');
    const group = points.filter((p) => p.row.method === method && p.row.model === model).sort((a, b) => a.x - b.x);
    const { color, marker } = methodStyle(method);
    const label = models.size > 1 ? `${method} · ${model}` : method;
    datasets.push({
      label,
      data: group.map((p) => ({ x: p.x, y: p.y })),
      showLine: false,
      borderColor: color,
      backgroundColor: color,
      // pointsPlugin draws the markers (nested where they coincide) and their labels.
      pointRadius: 0,
      pointHoverRadius: 0,
      clip: 6,
    });
    groups.push(group);
    entries.push({ label, color, marker: { shape: marker, radius: SERIES_MARKER } });
  }
  const front = paretoFront(points);
  // A step line: from each front point right to the next one's cost, then up to its accuracy.
  const steps: Array<{ x: number; y: number }> = [];
  front.forEach((p, i) => {
    if (i > 0) steps.push({ x: p.x, y: front[i - 1].y });
    steps.push({ x: p.x, y: p.y });
  });
  datasets.push({
    label: 'Pareto front',
    data: steps,
    borderColor: '#222222',
    borderWidth: 0.9,
    borderDash: [3, 2],
    pointRadius: 0,
    tension: 0,
    clip: 6,
  });
  const xs = points.map((p) => p.x);
  const xMin = xs.length ? Math.min(...xs) / 1.6 : 0.1;
  const xMax = xs.length ? Math.max(...xs) * 2.2 : 100;
  const ticks = new Map<number, string>();
  for (let e = Math.floor(Math.log10(xMin)); e <= Math.ceil(Math.log10(xMax)); e++) {
    const v = Number((10 ** e).toPrecision(1));
    if (v >= xMin && v <= xMax) ticks.set(v, decadeLabel(v));
  }
  const f = input.size.font;
  const presets = [...new Set(points.map((p) => p.row.cost?.costPreset).filter(Boolean))];
  const reference = points.some((p) => p.row.isReferenceReader);
  const notes = [
    `x: estimated GPU-seconds per sample on the simulated ${presets.join(', ') || 'server'} (each sample alone on an idle GPU, from its calls and tokens: summary.csv est_gpu_seconds_per_sample); log scale.`,
    'y: the headline score ×100 (summary.csv score_x100). Colour and marker: method; the label beside a point: its length.',
    'Points at the same cost and score are drawn nested (the one behind larger) and share one label; a thin grey line joins a label set apart to its point.',
    `Dashed line and rings: the Pareto front (${front.map((p) => `${p.row.method} ${p.row.lengthLabel}`).join(', ') || 'none'}): no other point is both cheaper and more accurate.`,
    ...(reference
      ? [
          'Reference reader (not an LLM): its costs are the tokens it read and wrote, not a model\u2019s; its scores say nothing of a model.',
        ]
      : []),
  ];
  return chartFrame({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size: input.size,
    output,
    title: `${input.task}: accuracy vs estimated GPU cost`,
    legend: [
      entries,
      [{ label: 'Pareto front (ringed points)', color: '#222222', line: { dash: [3, 2], width: 0.9 } }],
    ],
    notes,
    x: lengthAxis(xMin, xMax, ticks, f, 'estimated GPU-seconds per sample (log)', input.size.width - f * 6),
    y: { min: 0, max: 100, title: 'score (×100)', stepSize: 20 },
    plugins: [pointsPlugin(groups, new Set(front), steps, f)],
  });
}

export function costFigure(input: CostChartInput): RenderedChart {
  return renderFrame(costChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}
