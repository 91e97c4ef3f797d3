// ROUGE-1/2/L recall bars for summarisation tasks, one group per task (and length when a task has several).
import type { ChartConfiguration } from 'chart.js';
import { modelLabel } from '../../reports/format.js';
import type { SummaryRow } from '../../reports/summary.js';
import { renderChartJs, type ChartSize } from '../../reports/charts/canvas.js';
import { chartConfig } from '../../reports/charts/frame.js';
import {
  barAxisMax,
  barValuesPlugin,
  categoryAxis,
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
}

const COLORS = ['#0072B2', '#E69F00', '#009E73'];

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
    const second = [manyMethods ? r.method : '', manyModels ? shortModel(r.model, r.isReferenceReader) : '']
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

export function rougeChartConfig(input: RougeChartInput): { config: ChartConfiguration; title: string } {
  const f = input.size.font;
  const groups = rougeGroups(input);
  const rows = groups.map((g) => g.row);
  const values = rows.map(rougeRecalls);
  const sizing = groupedBarSizing(rows.length, ROUGE_RECALL_KEYS.length, input.size.width - f * 5, f * 3.2);
  const datasets = ROUGE_RECALL_KEYS.map((k, i) => ({
    label: k.label,
    data: values.map((v) => (v[i] === undefined ? null : (v[i] as number) * 100)),
    backgroundColor: COLORS[i],
    borderWidth: 0,
    ...sizing,
  }));
  const top = Math.max(0, ...values.flat().filter((v): v is number => v !== undefined)) * 100;
  const yMax = barAxisMax(top);
  const title = `Summarisation: ROUGE recall${rougeFixtures(rows)}`;
  const models = [...new Set(rows.map((r) => r.model))];
  const methods = [...new Set(rows.map((r) => r.method))];
  const modelText =
    models.length === 1
      ? modelLabel(models[0], input.isReferenceReader ?? rows[0].isReferenceReader)
      : `models: ${models.length}`;
  const subtitle = methods.length === 1 ? `${methods[0]} · ${modelText}` : modelText;
  const n = [...new Set(rows.map((r) => r.n))];
  const ticks = categoryTicks(
    groups.map((g) => g.label),
    input.size.width - f * 5,
    Math.round(f * 0.75),
    Math.round(f * 0.55),
  );
  const config = chartConfig({
    type: 'bar',
    data: { labels: groups.map((g) => g.label), datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'] },
    size: input.size,
    title,
    subtitle: { display: rows.length > 0, text: subtitle },
    legend: { position: 'top', font: 0.75, padding: 0.6 },
    footnote: `mean per-sample recall (pltrdy rouge rules, as LongBench); n = ${n.join('/')} per group`,
    footnoteFont: 0.6,
    x: categoryAxis(ticks),
    y: { min: 0, max: yMax, title: 'recall ×100' },
    plugins: [barValuesPlugin(f * 0.55) as never],
  });
  return { config, title };
}

export function renderRougeChart(input: RougeChartInput): Buffer {
  const { config, title } = rougeChartConfig(input);
  return renderChartJs(config, input.size, title);
}
