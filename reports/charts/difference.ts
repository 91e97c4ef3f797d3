// Paired difference B − A vs context length: one line per pair on a log-scale token axis, its paired bootstrap 95%
// interval as a band with error bars, filled points where the difference is significant after Holm, hollow where not.
import type { ChartConfiguration, ChartDataset } from 'chart.js';
import type { PaperLength } from '../baselines.js';
import type { DiffRow } from '../paired.js';
import { dodge, intervalBandsPlugin, type Band } from './bands.js';
import { colorAt, renderChartJs, type ChartSize } from './canvas.js';
import { chartConfig } from './frame.js';
import { lengthAxis, xPosition } from './accuracy.js';

export interface DifferenceChartInput {
  task: string;
  /** Paired rows of this task (unpaired rows are left out: they have no interval). */
  rows: DiffRow[];
  /** docs → paper-label table for placing docs:N lengths. */
  lengthTable: PaperLength[];
  /** α of the Holm correction the rows were marked with. */
  alpha: number;
  size: ChartSize;
}

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

export function differenceChartConfig(input: DifferenceChartInput): { config: ChartConfiguration; title: string } {
  const rows = chartableDiffRows(input.rows).filter((r) => r.task === input.task);
  const pairs = [...new Set(rows.map((r) => `${r.b.label}\u0000${r.a.label}`))];
  const datasets: ChartDataset<'line', Array<{ x: number; y: number }>>[] = [];
  const bands: Band[] = [];
  const ticks = new Map<number, string>();
  pairs.forEach((pair, i) => {
    const group = rows
      .filter((r) => `${r.b.label}\u0000${r.a.label}` === pair)
      .map((r) => ({ r, t: xPosition({ ...r, meanBuiltTokens: 0 }, input.lengthTable) }))
      .sort((p, q) => p.t.x - q.t.x);
    const color = colorAt(i);
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
    datasets.push({
      label: `${group[0].r.b.label} − ${group[0].r.a.label}`,
      data: group.map(({ r, t }) => ({ x: t.x, y: r.diff * 100 })),
      borderColor: color,
      backgroundColor: color,
      borderWidth: 3,
      tension: 0,
      clip: 8,
      pointRadius: 7,
      pointHoverRadius: 7,
      pointBorderWidth: 3,
      pointBorderColor: color,
      pointBackgroundColor: group.map(({ r }) => (r.significant ? color : '#ffffff')),
    });
  });
  const xs = [...ticks.keys()].sort((a, b) => a - b);
  const xMin = xs.length ? xs[0] / 1.5 : 1000;
  const xMax = xs.length ? xs[xs.length - 1] * 1.5 : 4e6;
  const range = symmetricRange(rows);
  const f = input.size.font;
  const title = `${input.task}: paired difference vs context length`;
  const family = rows.length;
  const footnote = [
    'B − A in points over the sample ids both share',
    'shaded with error bars: paired bootstrap 95% intervals',
    `filled: significant after Holm across the ${input.rows.filter((r) => r.p !== null).length} paired comparisons of the report (α = ${input.alpha}); hollow: not significant`,
    ...(family ? [] : ['no paired rows']),
  ].join('; ');
  const config = chartConfig({
    type: 'line',
    data: { datasets: datasets as ChartDataset[] },
    size: input.size,
    title,
    legend: { position: 'top', font: 0.68, padding: 0.45 },
    footnote,
    footnoteFont: 0.62,
    x: lengthAxis(xMin, xMax, xs, ticks, f),
    y: {
      min: -range,
      max: range,
      title: 'B − A (points ×100)',
      stepSize: range > 30 ? 10 : 5,
      grid: {
        color: (ctx) => (ctx.tick?.value === 0 ? '#555555' : '#e6e6e6'),
        lineWidth: (ctx) => (ctx.tick?.value === 0 ? 2 : 1),
      },
    },
    plugins: [intervalBandsPlugin(bands)],
  });
  return { config, title };
}

export function renderDifferenceChart(input: DifferenceChartInput): Buffer {
  const { config, title } = differenceChartConfig(input);
  return renderChartJs(config, input.size, title);
}
