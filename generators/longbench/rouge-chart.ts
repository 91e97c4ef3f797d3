// ROUGE-1/2/L recall bars for summarisation tasks, one group per task (and length when a task has several).
import type { ChartConfiguration } from 'chart.js';
import { modelLabel } from '../../reports/format.js';
import type { SummaryRow } from '../../reports/summary.js';
import type { RenderedChart } from '../../harness/report/facet.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from '../../reports/charts/canvas.js';
import { chartFrame, renderFrame, type FramedChart } from '../../reports/charts/frame.js';
import type { LegendEntry } from '../../reports/charts/legend.js';
import { legendModel } from '../../reports/charts/style.js';
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
import { displayLength, shortModel } from '../../reports/labels.js';
import { datasetName } from './scores-chart.js';

export const ROUGE_RECALL_KEYS: Array<{ label: string; pattern: RegExp }> = [
  { label: 'ROUGE-1 R', pattern: /^rouge[-_]?1[-_]r(ecall)?$/i },
  { label: 'ROUGE-2 R', pattern: /^rouge[-_]?2[-_]r(ecall)?$/i },
  { label: 'ROUGE-L R', pattern: /^rouge[-_]?l[-_]r(ecall)?$/i },
];

/** The row's value for each ROUGE recall key, or undefined where the row lacks it. */
export function rougeRecalls(row: SummaryRow): Array<number | undefined> {
  return ROUGE_RECALL_KEYS.map(({ pattern }) => {
    const key = Object.keys(row.metrics).find((k) => pattern.test(k));
    return key === undefined ? undefined : row.metrics[key];
  });
}

export function hasRouge(row: SummaryRow): boolean {
  return rougeRecalls(row).some((v) => v !== undefined);
}

export interface RougeChartInput {
  /** Draw only this method's rows; omitted: every method side by side (one group per dataset × method). */
  method?: string;
  /** Draw only this model's rows; omitted: every model. */
  model?: string;
  isReferenceReader?: boolean;
  /** Summary rows; bucket rows and rows without ROUGE recall are ignored. */
  rows: readonly SummaryRow[];
  size: ChartSize;
  output?: ChartOutput;
}

/** Greys, dark to light: the bars' colour is the ROUGE variant here, never a method's. */
const COLORS = ['#3A3A3A', '#8A8A8A', '#CFCFCF'];

/** The rows a ROUGE chart draws, in order, and each group's (possibly two-line) label. */
export function rougeGroups(
  input: Pick<RougeChartInput, 'method' | 'model' | 'rows'>,
): Array<{ row: SummaryRow; label: string[] }> {
  const rows = input.rows.filter(
    (r) =>
      r.lengthKind !== 'bucket' &&
      hasRouge(r) &&
      (input.method === undefined || r.method === input.method) &&
      (input.model === undefined || r.model === input.model),
  );
  const count = (f: (r: SummaryRow) => string) => new Set(rows.map(f)).size;
  const manyLengths = rows.some((r) =>
    rows.some(
      (o) => o.task === r.task && o.method === r.method && o.model === r.model && o.lengthLabel !== r.lengthLabel,
    ),
  );
  const manyMethods = count((r) => r.method) > 1;
  const manyModels = count((r) => r.model) > 1;
  return rows.map((r) => {
    const first = manyLengths ? `${datasetName(r.task)} ${displayLength(r.lengthLabel)}` : datasetName(r.task);
    const second = [manyMethods ? r.method : '', manyModels ? legendModel(r.model, r.isReferenceReader) : '']
      .filter(Boolean)
      .join(' · ');
    return { row: r, label: second ? [first, second] : [first] };
  });
}

/** " (LongBench fixtures, not LongBench data)" when the model's ROUGE rows come from bundled fixtures; else ''. */
export function rougeFixtures(rows: readonly SummaryRow[], model?: string): string {
  const own = rows.filter(
    (r) => r.lengthKind !== 'bucket' && hasRouge(r) && (model === undefined || r.model === model),
  );
  return own.some((r) => r.fixture) ? ' (LongBench fixtures, not LongBench data)' : '';
}

export function rougeChartFrame(input: RougeChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = input.size.font;
  const groups = rougeGroups(input);
  const rows = groups.map((g) => g.row);
  const values = rows.map(rougeRecalls);
  const plotWidth = input.size.width - f * 4.5;
  const sizing = groupedBarSizing(rows.length, ROUGE_RECALL_KEYS.length, plotWidth, f * 2.5);
  const datasets = ROUGE_RECALL_KEYS.map((k, i) => ({
    label: k.label,
    data: values.map((v) => (v[i] === undefined ? null : (v[i] as number) * 100)),
    backgroundColor: COLORS[i],
    borderColor: '#3A3A3A',
    borderWidth: i === COLORS.length - 1 ? 0.5 : 0,
    ...sizing,
  }));
  const entries: LegendEntry[] = ROUGE_RECALL_KEYS.map((k, i) => ({
    label: k.label,
    color: COLORS[i],
    box: { fill: COLORS[i], ...(i === COLORS.length - 1 ? { stroke: '#3A3A3A' } : {}) },
  }));
  const top = Math.max(0, ...values.flat().filter((v): v is number => v !== undefined)) * 100;
  const yMax = barAxisMax(top);
  const title = `Summarisation: ROUGE recall${rougeFixtures(rows)}`;
  const models = [...new Set(rows.map((r) => r.model))];
  const methods = [...new Set(rows.map((r) => r.method))];
  const modelText = (label: typeof modelLabel) =>
    models.length === 1
      ? label(models[0], input.isReferenceReader ?? rows[0].isReferenceReader)
      : `models: ${models.length}`;
  const subtitle = (label: typeof modelLabel) =>
    methods.length === 1 ? `${methods[0]} · ${modelText(label)}` : modelText(label);
  const n = [...new Set(rows.map((r) => r.n))];
  const ticks = categoryTicks(
    groups.map((g) => g.label),
    plotWidth,
    f,
    f,
  );
  return chartFrame({
    type: 'bar',
    data: {
      labels: categoryLabels(
        groups.map((g) => g.label),
        ticks,
      ),
      datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'],
    },
    size: input.size,
    output,
    title,
    subtitle: rows.length > 0 ? subtitle(shortModel) : undefined,
    captionSubtitle: rows.length > 0 ? subtitle(modelLabel) : undefined,
    legend: [entries],
    notes: [`Mean per-sample recall (pltrdy rouge rules, as LongBench); n = ${n.join('/')} per group.`],
    x: categoryAxis(ticks),
    extraHeight: uprightLabelHeight(
      groups.map((g) => g.label),
      ticks,
      input.size.height,
    ),
    y: { min: 0, max: yMax, stepSize: yMax > 50 && yMax % 20 === 0 ? 20 : 10, title: 'recall ×100' },
    headroom: valueHeadroom(yMax, top, f),
    plugins: [barValuesPlugin(f, undefined, valueHeadroom(yMax, top, f)) as never],
  });
}

export function rougeChartConfig(input: RougeChartInput): { config: ChartConfiguration; title: string } {
  const framed = rougeChartFrame(input);
  return { config: framed.config, title: framed.caption.title };
}

export function rougeFigure(input: RougeChartInput): RenderedChart {
  return renderFrame(rougeChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}

export function renderRougeChart(input: RougeChartInput): Buffer {
  return rougeFigure(input).bytes;
}
