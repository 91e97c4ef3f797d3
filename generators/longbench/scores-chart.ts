// LongBench (native-length tasks): the headline score per dataset, one bar per method (× model when several).
import type { ChartConfiguration } from 'chart.js';
import { modelLabel } from '../../reports/format.js';
import type { SummaryRow } from '../../reports/summary.js';
import {
  barAxisMax,
  barValuesPlugin,
  categoryAxis,
  categoryTicks,
  groupedBarSizing,
} from '../../reports/charts/bars.js';
import { colorAt, renderChartJs, type ChartSize } from '../../reports/charts/canvas.js';
import { chartConfig } from '../../reports/charts/frame.js';
import { shortModel } from '../../reports/labels.js';

/** "longbench/hotpotqa" → "hotpotqa"; other names unchanged. */
export function datasetName(task: string): string {
  return task.startsWith('longbench/') ? task.slice('longbench/'.length) : task;
}

export interface LongBenchChartInput {
  /** Summary rows; only lengthKind 'native' rows are drawn. */
  rows: readonly SummaryRow[];
  size: ChartSize;
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

/** The caption's first words when some bars are fixtures' ("fixtures: hotpotqa, multi_news (bundled test data, ...); "). */
export function fixtureCaption(rows: readonly SummaryRow[]): string {
  const names = [
    ...new Set(rows.filter((r) => r.fixture && r.lengthKind === 'native').map((r) => datasetName(r.task))),
  ];
  return names.length
    ? `fixtures: ${names.join(', ')} (small test data bundled with bench, not LongBench's; not comparable with published scores); `
    : '';
}

export function longbenchChartConfig(input: LongBenchChartInput): { config: ChartConfiguration; title: string } {
  const f = input.size.font;
  const { tasks, series } = longbenchBars(input.rows);
  const models = [...new Set(series.map((s) => s.model))];
  const oneModel = models.length === 1;
  const sizing = groupedBarSizing(tasks.length, series.length, input.size.width - f * 5, f * 3.2);
  const datasets = series.map((s, i) => ({
    label: oneModel ? s.method : `${s.method} · ${shortModel(s.model, s.isReferenceReader)}`,
    data: s.values.map((v) => (v === null ? null : v.score * 100)),
    backgroundColor: colorAt(i),
    borderWidth: 0,
    ...sizing,
  }));
  // Each dataset names its own headline metric under its label, since QA and summaries differ; n goes there too
  // unless every bar has the same n (then the footnote says it once).
  const nTexts = tasks.map((_, j) => nText(series.map((s) => s.values[j])));
  const sameN = new Set(nTexts).size <= 1;
  const labels = tasks.map((t, j) => {
    const cells = series.map((s) => s.values[j]).filter((v): v is SummaryRow => v !== null);
    const metric = [...new Set(cells.map((v) => v.metric))].join('/');
    return [datasetName(t), metric, ...(sameN ? [] : [`n=${nTexts[j]}`])];
  });
  const ticks = categoryTicks(labels, input.size.width - f * 5, Math.round(f * 0.75), Math.round(f * 0.55));
  const top = Math.max(0, ...datasets.flatMap((d) => d.data.filter((v): v is number => v !== null)));
  const yMax = barAxisMax(top);
  const title = longbenchChartTitle(input.rows);
  const subtitle =
    oneModel && series.length
      ? `model: ${modelLabel(series[0].model, series[0].isReferenceReader)}`
      : `models: ${models.length}`;
  const footnote = `${fixtureCaption(input.rows)}documents at their own lengths; each dataset scored by its LongBench metric (qa_f1: token F1, rouge_l_f: ROUGE-L F)${
    sameN && nTexts.length ? `; n = ${nTexts[0]} per bar` : ''
  }; errors count as 0`;
  const config = chartConfig({
    type: 'bar',
    data: { labels, datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'] },
    size: input.size,
    title,
    subtitle: { display: series.length > 0, text: subtitle },
    legend: { position: 'top', font: 0.72, padding: 0.6 },
    footnote,
    footnoteFont: 0.58,
    x: categoryAxis(ticks),
    y: { min: 0, max: yMax, title: 'score ×100' },
    plugins: [barValuesPlugin(f * 0.55) as never],
  });
  return { config, title };
}

export function renderLongBenchChart(input: LongBenchChartInput): Buffer {
  const { config, title } = longbenchChartConfig(input);
  return renderChartJs(config, input.size, title);
}
