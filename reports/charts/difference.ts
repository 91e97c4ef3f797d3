// Paired difference B − A vs context length: one line per pair on the log length axis (colour = B's method, marker =
// A's method, dash = B's model when the pair differs in model), its paired bootstrap 95% interval as a band, and an
// asterisk over each point that is significant after Holm. Markers are always filled: hollow means "incomplete" in
// the accuracy chart only.
import type { ChartConfiguration, ChartDataset, Plugin } from 'chart.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import type { PaperLength } from '../baselines.js';
import type { DiffRow } from '../paired.js';
import { dodge, intervalBandsPlugin, type Band } from './bands.js';
import { DEFAULT_OUTPUT, font, type ChartOutput, type ChartSize } from './canvas.js';
import { chartFrame, renderFrame, type FramedChart } from './frame.js';
import { lengthAxis, lengthAxisTitle, SERIES_LINE, SERIES_MARKER, xPosition } from './accuracy.js';
import type { LegendEntry } from './legend.js';
import { chartJsMarker, markerRadius, methodStyle, modelDashes } from './style.js';

export interface DifferenceChartInput {
  task: string;
  /** Paired rows of this task (unpaired rows are left out: they have no interval). */
  rows: DiffRow[];
  /** docs → paper-label table for placing docs:N lengths. */
  lengthTable: PaperLength[];
  /** α of the Holm correction the rows were marked with. */
  alpha: number;
  size: ChartSize;
  output?: ChartOutput;
}

/** The legend text of the significance mark. */
export const SIGNIFICANT_LEGEND = (alpha: number) => `significant (Holm, α = ${alpha})`;

/** Rows the chart can place: paired, on a length axis. */
export function chartableDiffRows(rows: DiffRow[]): DiffRow[] {
  return rows.filter((r) => r.paired && (r.lengthKind === 'tokens' || r.lengthKind === 'docs'));
}

/** A symmetric y range around 0 that holds every interval, in steps of 5 points (at least ±10). */
export function symmetricRange(rows: DiffRow[]): number {
  const extent = Math.max(
    10,
    ...rows.flatMap((r) => [r.diff, r.ci95_low ?? 0, r.ci95_high ?? 0].map((v) => Math.abs(v * 100))),
  );
  return Math.ceil((extent + 1) / 5) * 5;
}

/** The y tick step for a range of ±range points. */
export function yStep(range: number): number {
  return range <= 20 ? 5 : range <= 40 ? 10 : range <= 80 ? 20 : 25;
}

/** Draws '*' above every significant point of each dataset (`marks[dataset][point]`). */
function significancePlugin(marks: boolean[][], f: number): Plugin {
  return {
    id: 'significance',
    afterDatasetsDraw(chart) {
      const ctx = chart.ctx;
      ctx.save();
      ctx.font = font(f * 1.25, 'bold');
      ctx.textAlign = 'center';
      ctx.textBaseline = 'bottom';
      marks.forEach((row, i) => {
        const meta = chart.getDatasetMeta(i);
        row.forEach((significant, j) => {
          const p = meta.data[j];
          if (!significant || !p) return;
          ctx.fillStyle = (chart.data.datasets[i].borderColor as string) ?? '#222222';
          ctx.fillText('*', p.x, p.y - SERIES_MARKER * 1.2);
        });
      });
      ctx.restore();
    },
  };
}

export function differenceChartFrame(input: DifferenceChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const rows = chartableDiffRows(input.rows).filter((r) => r.task === input.task);
  const pairs = [...new Set(rows.map((r) => `${r.b.label}\u0000${r.a.label}`))];
  const datasets: ChartDataset<'line', Array<{ x: number; y: number }>>[] = [];
  const bands: Band[] = [];
  const ticks = new Map<number, string>();
  const marks: boolean[][] = [];
  const entries: LegendEntry[] = [];
  const dashes = modelDashes(rows.flatMap((r) => [r.a.model, r.b.model]));
  pairs.forEach((pair, i) => {
    const group = rows
      .filter((r) => `${r.b.label}\u0000${r.a.label}` === pair)
      .map((r) => ({ r, t: xPosition({ ...r, meanBuiltTokens: 0 }, input.lengthTable) }))
      .sort((p, q) => p.t.x - q.t.x);
    const { a, b } = group[0].r;
    const color = methodStyle(b.method).color;
    const shape = methodStyle(a.method).marker;
    const dash = a.model !== b.model ? (dashes.get(b.model) ?? []) : [];
    for (const { t } of group) ticks.set(t.x, t.label);
    bands.push({
      color,
      offsetPx: dodge(i, pairs.length),
      points: group.map(({ r, t }) => ({
        x: t.x,
        low: (r.ci95_low ?? r.diff) * 100,
        high: (r.ci95_high ?? r.diff) * 100,
      })),
    });
    const m = chartJsMarker(shape);
    const label = `${b.label} − ${a.label}`;
    datasets.push({
      label,
      data: group.map(({ r, t }) => ({ x: t.x, y: r.diff * 100 })),
      borderColor: color,
      backgroundColor: color,
      borderWidth: SERIES_LINE,
      borderDash: dash,
      tension: 0,
      clip: 4,
      pointStyle: m.pointStyle,
      pointRotation: m.rotation,
      pointRadius: markerRadius(shape, SERIES_MARKER),
      pointHoverRadius: markerRadius(shape, SERIES_MARKER),
      pointBorderWidth: 0.5,
      pointBorderColor: color,
      pointBackgroundColor: color,
    });
    marks.push(group.map(({ r }) => r.significant));
    entries.push({ label, color, line: { dash, width: SERIES_LINE }, marker: { shape, radius: SERIES_MARKER } });
  });
  const xs = [...ticks.keys()];
  const xMin = xs.length ? Math.min(...xs) / 1.4 : 1000;
  const xMax = xs.length ? Math.max(...xs) * 1.4 : 4e6;
  // Ticks at multiples of the step, so 0 is always one (its grid line is the dark zero line), at most ~9 of them.
  const step = yStep(symmetricRange(rows));
  const range = Math.ceil(symmetricRange(rows) / step) * step;
  const f = input.size.font;
  const keys: LegendEntry[] = [];
  if (rows.length) keys.push({ label: 'paired 95% interval', color: '#555555', band: true });
  if (rows.some((r) => r.significant))
    keys.push({ label: SIGNIFICANT_LEGEND(input.alpha), color: '#222222', glyph: '*' });
  const comparisons = input.rows.filter((r) => r.p !== null).length;
  const notes = [
    'B − A in points (×100) over the sample ids both share.',
    'Colour = method of B, marker = method of A (line dash = model of B when the two sides differ in model).',
    'Bands: paired bootstrap 95% intervals.',
    `*: significant after Holm across the ${comparisons} paired comparisons of the report (α = ${input.alpha}); no mark: not significant.`,
    ...(rows.length ? [] : ['No paired rows.']),
  ];
  return chartFrame({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size: input.size,
    output,
    title: `${input.task}: paired difference vs length`,
    legend: [entries, keys].filter((g) => g.length > 0),
    notes,
    x: lengthAxis(
      xMin,
      xMax,
      ticks,
      f,
      lengthAxisTitle(new Set(rows.map((r) => r.lengthKind))),
      input.size.width - f * 6,
    ),
    y: {
      min: -range,
      max: range,
      title: 'B − A (points ×100)',
      stepSize: step,
      grid: {
        color: (ctx) => (ctx.tick?.value === 0 ? '#555555' : '#e6e6e6'),
        lineWidth: (ctx) => (ctx.tick?.value === 0 ? 0.8 : 0.5),
      },
    },
    plugins: [intervalBandsPlugin(bands), significancePlugin(marks, f)],
  });
}

export function differenceChartConfig(input: DifferenceChartInput): { config: ChartConfiguration; title: string } {
  const framed = differenceChartFrame(input);
  return { config: framed.config, title: framed.caption.title };
}

export function differenceFigure(input: DifferenceChartInput): RenderedChart {
  return renderFrame(differenceChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}

export function renderDifferenceChart(input: DifferenceChartInput): Buffer {
  return differenceFigure(input).bytes;
}
