// LongBench-E: each dataset's score in the 0-4k, 4-8k and 8k+ buckets (its rows' own `length`), one chart per
// method × model, each bar with its 95% interval from the summary's bucket rows.
import type { RenderedChart } from '../../harness/report/facet.js';
import type { SummaryRow } from '../../reports/summary.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from '../../reports/charts/canvas.js';
import { chartFrame, renderFrame, type FramedChart } from '../../reports/charts/frame.js';
import {
  barAxisMax,
  barValuesPlugin,
  valueHeadroom,
  categoryAxis,
  categoryLabels,
  categoryTicks,
  groupedBarSizing,
  groupedBars,
  intervalBarsPlugin,
  intervalBounds,
  uprightLabelHeight,
} from '../../reports/charts/bars.js';
import { modelLabel, rowPercent } from '../../reports/format.js';
import { shortModel } from '../../reports/labels.js';
import { LONGBENCH_E_BUCKETS } from './protocol.js';
import { datasetName } from './scores-chart.js';

const COLORS = ['#9ecae1', '#4292c6', '#08306b'];

/** The bucket rows of LongBench-E tasks (longbench/<dataset>_e) for one method × model. */
export function eBucketRows(rows: readonly SummaryRow[], method?: string, model?: string): SummaryRow[] {
  return rows.filter(
    (r) =>
      r.lengthKind === 'bucket' &&
      r.breakdown === 'longbench' &&
      r.task.startsWith('longbench/') &&
      r.task.endsWith('_e') &&
      (method === undefined || r.method === method) &&
      (model === undefined || r.model === model),
  );
}

export interface EChartInput {
  rows: readonly SummaryRow[];
  method: string;
  model: string;
  isReferenceReader: boolean;
  size: ChartSize;
  output?: ChartOutput;
}

export function eChartTitle(rows: readonly SummaryRow[]): string {
  return rows.some((r) => r.fixture)
    ? 'LongBench-E on fixtures (not LongBench data): score by length bucket'
    : 'LongBench-E: score by length bucket';
}

export function eChartFrame(input: EChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = input.size.font;
  const own = eBucketRows(input.rows, input.method, input.model);
  const tasks = [...new Set(own.map((r) => r.task))].sort();
  const cell = (task: string, bucket: string) => own.find((r) => r.task === task && r.lengthLabel === bucket);
  const plotWidth = input.size.width - f * 4.5;
  const sizing = groupedBarSizing(tasks.length, LONGBENCH_E_BUCKETS.length, plotWidth, f * 2.5);
  const bars = groupedBars(
    LONGBENCH_E_BUCKETS.map((b, i) => ({
      label: b.label,
      color: COLORS[i],
      data: tasks.map((t) => {
        const r = cell(t, b.label);
        return r ? rowPercent(r) : null;
      }),
    })),
    sizing,
  );
  const bounds = LONGBENCH_E_BUCKETS.map((b) =>
    tasks.map((t): [number, number] | null => {
      const r = cell(t, b.label);
      return r ? [100 * r.ci95_low, 100 * r.ci95_high] : null;
    }),
  );
  const labels = tasks.map((t) => [
    datasetName(t),
    LONGBENCH_E_BUCKETS.map((b) => `${cell(t, b.label)?.n ?? 0}`).join('/'),
  ]);
  const ticks = categoryTicks(labels, plotWidth, f, f * 0.75);
  const top = Math.max(0, ...bounds.flat().map((b) => (b ? b[1] : 0)));
  const yMax = barAxisMax(top);
  return chartFrame({
    type: 'bar',
    data: { labels: categoryLabels(labels, ticks), datasets: bars.datasets },
    size: input.size,
    output,
    title: eChartTitle(own),
    subtitle: `${input.method} · ${shortModel(input.model, input.isReferenceReader)}`,
    captionSubtitle: `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`,
    legend: [bars.legend],
    notes: [
      ...(own.some((r) => r.fixture)
        ? ["Fixtures: small test data bundled with bench, not LongBench's; not comparable with published scores."]
        : []),
      "Buckets by each row's own length field (words): 0-4k below 4,000, 4-8k below 8,000, 8k+ the rest (LongBench's eval.py --e).",
      'Each dataset scored by its LongBench metric; under each name the samples per bucket (0-4k/4-8k/8k+).',
      'Whiskers: 95% interval of the bucket score. Errors count as 0.',
    ],
    x: categoryAxis(ticks),
    extraHeight: uprightLabelHeight(labels, ticks, input.size.height),
    y: { min: 0, max: yMax, stepSize: yMax > 50 && yMax % 20 === 0 ? 20 : 10, title: 'score ×100' },
    headroom: valueHeadroom(yMax, top, f),
    plugins: [
      barValuesPlugin(f, intervalBounds(bounds), valueHeadroom(yMax, top, f)) as never,
      intervalBarsPlugin(bounds) as never,
    ],
  });
}

export function eFigure(input: EChartInput): RenderedChart {
  return renderFrame(eChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}
