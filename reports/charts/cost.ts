// Accuracy against cost: one point per method × length at its estimated GPU-seconds per sample (log axis) and its
// score, the method's colour and marker (style.ts), each point labelled with its length, and the Pareto front (no
// other point is both cheaper and more accurate) drawn as a dark step line through its points.
import type { ChartDataset, Plugin } from 'chart.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import type { SummaryRow } from '../summary.js';
import { lengthAxis, SERIES_MARKER } from './accuracy.js';
import { DEFAULT_OUTPUT, font, type ChartOutput, type ChartSize } from './canvas.js';
import { chartFrame, renderFrame, type FramedChart } from './frame.js';
import type { LegendEntry } from './legend.js';
import { chartJsMarker, markerRadius, methodStyle } from './style.js';

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

const decadeLabel = (v: number) => (v >= 1 ? `${v}` : `${v}`.replace(/^0/, ''));

function labelsPlugin(points: CostPoint[][], front: ReadonlySet<CostPoint>, f: number): Plugin {
  return {
    id: 'costLabels',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = font(f * 0.8);
      ctx.fillStyle = '#444444';
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      points.forEach((group, i) => {
        const meta = chart.getDatasetMeta(i);
        group.forEach((p, j) => {
          const el = meta.data[j];
          if (!el) return;
          ctx.fillText(p.row.lengthLabel, el.x + SERIES_MARKER * 1.8, el.y);
          if (front.has(p)) {
            ctx.beginPath();
            ctx.strokeStyle = '#222222';
            ctx.lineWidth = 0.8;
            ctx.arc(el.x, el.y, SERIES_MARKER * 2.2, 0, 2 * Math.PI);
            ctx.stroke();
          }
        });
      });
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
    const m = chartJsMarker(marker);
    const label = models.size > 1 ? `${method} · ${model}` : method;
    datasets.push({
      label,
      data: group.map((p) => ({ x: p.x, y: p.y })),
      showLine: false,
      borderColor: color,
      backgroundColor: color,
      pointStyle: m.pointStyle,
      pointRotation: m.rotation,
      pointRadius: markerRadius(marker, SERIES_MARKER),
      pointBorderWidth: 0.5,
      pointBorderColor: color,
      pointBackgroundColor: color,
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
    plugins: [labelsPlugin(groups, new Set(front), f)],
  });
}

export function costFigure(input: CostChartInput): RenderedChart {
  return renderFrame(costChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}
