// ROUGE-1/2/L recall bars for summarisation tasks, one group per task (and length when a task has several).
import type { ChartConfiguration } from 'chart.js';
import { modelLabel } from '../format.js';
import type { SummaryRow } from '../summary.js';
import { footnotePlugin, renderChartJs, type ChartSize } from './canvas.js';
import { barValuesPlugin } from './bars.js';
import { displayLength } from './labels.js';

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
  method: string;
  model: string;
  isReferenceReader?: boolean;
  rows: SummaryRow[];
  size: ChartSize;
}

const COLORS = ['#0072B2', '#E69F00', '#009E73'];

export function rougeChartConfig(input: RougeChartInput): { config: ChartConfiguration; title: string } {
  const f = input.size.font;
  const rows = input.rows.filter((r) => r.method === input.method && r.model === input.model && hasRouge(r));
  const lengthsPerTask = new Map<string, number>();
  for (const r of rows) lengthsPerTask.set(r.task, (lengthsPerTask.get(r.task) ?? 0) + 1);
  const labels = rows.map((r) => ((lengthsPerTask.get(r.task) ?? 0) > 1 ? `${r.task} ${displayLength(r.lengthLabel)}` : r.task));
  const values = rows.map(rougeRecalls);
  const datasets = ROUGE_RECALL_KEYS.map((k, i) => ({
    label: k.label, data: values.map((v) => (v[i] === undefined ? null : (v[i] as number) * 100)), backgroundColor: COLORS[i], borderWidth: 0, maxBarThickness: f * 4,
  }));
  const top = Math.max(0, ...values.flat().filter((v): v is number => v !== undefined)) * 100;
  const yMax = Math.min(100, Math.max(10, Math.ceil((top * 1.15) / 10) * 10));
  const title = 'Summarisation: ROUGE recall';
  const n = [...new Set(rows.map((r) => r.n))];
  const config: ChartConfiguration = {
    type: 'bar',
    data: { labels, datasets: datasets as ChartConfiguration<'bar'>['data']['datasets'] },
    options: {
      layout: { padding: { left: 8, right: 16, top: 8, bottom: Math.round(f * 1.1) } },
      plugins: {
        title: { display: true, text: title, font: { size: f * 1.1, weight: 'bold' }, padding: { bottom: 4 } },
        subtitle: { display: true, text: `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`, font: { size: f * 0.72 }, color: '#444444', padding: { bottom: 6 } },
        legend: { position: 'top', labels: { font: { size: f * 0.75 }, boxWidth: f * 1.1, padding: f * 0.6 } },
      },
      scales: {
        x: { ticks: { font: { size: f * 0.8 } }, grid: { display: false } },
        y: { min: 0, max: yMax, title: { display: true, text: 'recall ×100', font: { size: f * 0.9 } }, ticks: { font: { size: f * 0.8 } }, grid: { color: '#e6e6e6' } },
      },
    },
    plugins: [barValuesPlugin(f * 0.58) as never, footnotePlugin(`mean per-sample recall from the run's scores; n = ${n.join('/')} per task`, f * 0.6)],
  };
  return { config, title };
}

export function renderRougeChart(input: RougeChartInput): Buffer {
  const { config, title } = rougeChartConfig(input);
  return renderChartJs(config, input.size, title);
}
