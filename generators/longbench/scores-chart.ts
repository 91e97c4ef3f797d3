// LongBench (native-length tasks): the headline score per dataset, one bar per method (× model when several).
import type { ChartConfiguration } from 'chart.js';
import { modelLabel, rowPercent } from '../../reports/format.js';
import type { SummaryRow } from '../../reports/summary.js';
import {
  barAxisMax,
  barValuesPlugin,
  valueHeadroom,
  categoryAxis,
  categoryLabels,
  uprightLabelHeight,
  categoryTicks,
  groupedBarSizing,
} from '../../reports/charts/bars.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from '../../reports/charts/canvas.js';
import { chartFrame, renderFrame, type FramedChart } from '../../reports/charts/frame.js';
import type { LegendEntry } from '../../reports/charts/legend.js';
import { methodStyle, modelTints, tint, legendModel } from '../../reports/charts/style.js';
import { shortModel } from '../../reports/labels.js';

/** "longbench/hotpotqa" → "hotpotqa"; other names unchanged. */
export function datasetName(task: string): string {
  return task.startsWith('longbench/') ? task.slice('longbench/'.length) : task;
}

export interface LongBenchChartInput {
  /** Summary rows; only lengthKind 'native' rows are drawn. */
  rows: readonly SummaryRow[];
  size: ChartSize;
  output?: ChartOutput;
}

export interface LongBenchBars {
  tasks: string[];
  /** One series per method × model, sorted by method then model. */
  series: Array<{ method: string; model: string; isReferenceReader: boolean; values: Array<SummaryRow | null> }>;
}

/** The native rows arranged as datasets (x) × series (bars); null where a series did not run a dataset. */
export function longbenchBars(rows: readonly SummaryRow[]): LongBenchBars {
  const native = rows.filter((r) => r.lengthKind === 'native');
  // QA datasets together, then summaries: ordered by headline metric, then name.
  const metricOf = new Map(native.map((r) => [r.task, r.metric]));
  const sortKey = (t: string) => `${metricOf.get(t) ?? ''}\u0000${t}`;
  const tasks = [...new Set(native.map((r) => r.task))].sort((a, b) =>
    sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0,
  );
  // Series sorted by method then model, so colours match the other charts of the report whatever rows come first.
  const keys = [...new Set(native.map((r) => `${r.method}\u0000${r.model}`))].sort();
  const series = keys.map((key) => {
    const group = native.filter((r) => `${r.method}\u0000${r.model}` === key);
    return {
      method: group[0].method,
      model: group[0].model,
      isReferenceReader: group[0].isReferenceReader,
      values: tasks.map((t) => group.find((r) => r.task === t) ?? null),
    };
  });
  return { tasks, series };
}

/** "50" when every series has the same n for the dataset, else "50/48". */
function nText(values: Array<SummaryRow | null>): string {
  return [...new Set(values.filter((v): v is SummaryRow => v !== null).map((v) => v.n))].join('/');
}

/** The chart's title: it says when a bar comes from a bundled fixture rather than LongBench's data. */
export function longbenchChartTitle(rows: readonly SummaryRow[]): string {
  return rows.some((r) => r.fixture && r.lengthKind === 'native')
    ? 'LongBench fixtures (not LongBench data): score per dataset'
    : 'LongBench: score per dataset';
}

/** The caption's first note when some bars are fixtures' ("Fixtures: hotpotqa, multi_news (small test data ...)."), else null. */
export function fixtureCaption(rows: readonly SummaryRow[]): string | null {
  const names = [
    ...new Set(rows.filter((r) => r.fixture && r.lengthKind === 'native').map((r) => datasetName(r.task))),
  ];
  return names.length
    ? `Fixtures: ${names.join(', ')} (small test data bundled with bench, not LongBench's; not comparable with published scores).`
    : null;
}

export function longbenchChartFrame(input: LongBenchChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = input.size.font;
  const { tasks, series } = longbenchBars(input.rows);
  const models = [...new Set(series.map((s) => s.model))];
  const referenceModels = new Set(series.filter((s) => s.isReferenceReader).map((s) => s.model));
  const tints = modelTints(models, (m) => referenceModels.has(m));
  const oneModel = models.length === 1;
  const plotWidth = input.size.width - f * 4.5;
  const sizing = groupedBarSizing(tasks.length, series.length, plotWidth, f * 2.5);
  const entries: LegendEntry[] = [];
  // Colour = method; with several models each model's bars are a lighter tint outlined in the method's colour.
  const datasets = series.map((s) => {
    const color = methodStyle(s.method).color;
    const t = tints.get(s.model) ?? 0;
    const label = oneModel ? s.method : `${s.method} · ${legendModel(s.model, s.isReferenceReader)}`;
    entries.push({ label, color, box: { fill: tint(color, t), ...(t > 0 ? { stroke: color } : {}) } });
    return {
      label,
      data: s.values.map((v) => (v === null ? null : rowPercent(v))),
      backgroundColor: tint(color, t),
      borderColor: color,
      borderWidth: t > 0 ? 0.6 : 0,
      ...sizing,
    };
  });
  // Each dataset names its own headline metric under its label, since QA and summaries differ; n goes there too
  // unless every bar has the same n (then the caption says it once).
  const nTexts = tasks.map((_, j) => nText(series.map((s) => s.values[j])));
  const sameN = new Set(nTexts).size <= 1;
  const labels = tasks.map((t, j) => {
    const cells = series.map((s) => s.values[j]).filter((v): v is SummaryRow => v !== null);
    const metric = [...new Set(cells.map((v) => v.metric))].join('/');
    return [datasetName(t), metric, ...(sameN ? [] : [`n=${nTexts[j]}`])];
  });
  const ticks = categoryTicks(labels, plotWidth, f, f);
  const top = Math.max(0, ...datasets.flatMap((d) => d.data.filter((v): v is number => v !== null)));
  const yMax = barAxisMax(top);
  const title = longbenchChartTitle(input.rows);
  const subtitle =
    oneModel && series.length
      ? `model: ${shortModel(series[0].model, series[0].isReferenceReader)}`
      : `models: ${models.length}`;
  const captionSubtitle = `${oneModel ? 'model' : 'models'}: ${series
    .filter((s, i) => series.findIndex((o) => o.model === s.model) === i)
    .map((s) => modelLabel(s.model, s.isReferenceReader))
    .join(', ')}`;
  const fixtures = fixtureCaption(input.rows);
  const notes = [
    ...(fixtures ? [fixtures] : []),
    'Documents at their own lengths; each dataset scored by its LongBench metric (qa_f1: token F1, rouge_l_f: ROUGE-L F).',
    ...(sameN && nTexts.length ? [`n = ${nTexts[0]} per bar.`] : []),
    'Errors count as 0.',
    ...(oneModel ? [] : ['Bar colour = method; lighter outlined bars = further models.']),
  ];
  return chartFrame({
    type: 'bar',
    data: {
      labels: categoryLabels(labels, ticks),
      datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'],
    },
    size: input.size,
    output,
    title,
    subtitle: series.length > 0 ? subtitle : undefined,
    captionSubtitle: series.length > 0 ? captionSubtitle : undefined,
    legend: [entries],
    notes,
    x: categoryAxis(ticks),
    extraHeight: uprightLabelHeight(labels, ticks, input.size.height),
    y: { min: 0, max: yMax, stepSize: yMax > 50 && yMax % 20 === 0 ? 20 : 10, title: 'score ×100' },
    headroom: valueHeadroom(yMax, top, f),
    plugins: [barValuesPlugin(f, undefined, valueHeadroom(yMax, top, f)) as never],
  });
}

export function longbenchChartConfig(input: LongBenchChartInput): { config: ChartConfiguration; title: string } {
  const framed = longbenchChartFrame(input);
  return { config: framed.config, title: framed.caption.title };
}

export function longbenchFigure(input: LongBenchChartInput): RenderedChart {
  return renderFrame(longbenchChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}

export function renderLongBenchChart(input: LongBenchChartInput): Buffer {
  return longbenchFigure(input).bytes;
}
