// LongBench v2: accuracy by length class (short / medium / long, and all) × difficulty (easy / hard, and all), one
// chart per method × model, each bar with its 95% interval (Wilson: every sample scores 0 or 1).
import type { RenderedChart } from '../../harness/report/facet.js';
import type { SampleRecord } from '../../harness/types.js';
import { DEFAULT_OUTPUT, type ChartOutput, type ChartSize } from '../../reports/charts/canvas.js';
import { chartFrame, renderFrame, type FramedChart } from '../../reports/charts/frame.js';
import {
  barValuesPlugin,
  valueHeadroom,
  categoryAxis,
  categoryTicks,
  groupedBarSizing,
  groupedBars,
  intervalBarsPlugin,
  intervalBounds,
} from '../../reports/charts/bars.js';
import { scoreInterval } from '../../reports/stats/interval.js';
import { modelLabel } from '../../reports/format.js';
import { percentOfScores } from '../../harness/protocol/round.js';
import { shortModel } from '../../reports/labels.js';

export const V2_LENGTHS = ['short', 'medium', 'long'] as const;
export const V2_DIFFICULTIES = ['easy', 'hard'] as const;

const CATEGORIES = [...V2_LENGTHS, 'all'] as const;
const SERIES = [...V2_DIFFICULTIES, 'all'] as const;
const COLORS: Record<(typeof SERIES)[number], string> = { easy: '#6baed6', hard: '#08519c', all: '#969696' };

export interface V2Cell {
  n: number;
  /** Accuracy ×100, and its 95% interval ×100; null without samples. */
  value: number | null;
  low: number | null;
  high: number | null;
}

/** result.py's classes: difficulty 'easy' or else hard; length 'short', 'medium', or else long. */
export function v2Classes(r: Pick<SampleRecord, 'metadata'>): { difficulty: 'easy' | 'hard'; length: string } {
  const m = r.metadata ?? {};
  return {
    difficulty: m.difficulty === 'easy' ? 'easy' : 'hard',
    length: m.length === 'short' || m.length === 'medium' ? m.length : 'long',
  };
}

/** The grid of one method × model's records: cells[length][difficulty], errors scored 0 as in the summary. */
export function v2Grid(records: readonly SampleRecord[]): Record<string, Record<string, V2Cell>> {
  const grid: Record<string, Record<string, V2Cell>> = {};
  for (const l of CATEGORIES) {
    grid[l] = {};
    for (const d of SERIES) {
      const scores = records
        .filter((r) => {
          const c = v2Classes(r);
          return (l === 'all' || c.length === l) && (d === 'all' || c.difficulty === d);
        })
        .map((r) => (r.status === 'ok' ? r.score : 0));
      if (scores.length === 0) {
        grid[l][d] = { n: 0, value: null, low: null, high: null };
        continue;
      }
      const ci = scoreInterval(scores, ['longbench-v2-chart', l, d]);
      grid[l][d] = {
        n: scores.length,
        value: percentOfScores('total', scores),
        low: 100 * ci.low,
        high: 100 * ci.high,
      };
    }
  }
  return grid;
}

export interface V2ChartInput {
  records: readonly SampleRecord[];
  method: string;
  model: string;
  isReferenceReader: boolean;
  size: ChartSize;
  output?: ChartOutput;
}

export function v2ChartTitle(records: readonly SampleRecord[]): string {
  return records.some((r) => r.metadata?.fixture === true)
    ? 'LongBench v2 synthetic fixture (not LongBench v2 data): accuracy by length × difficulty'
    : 'LongBench v2: accuracy by length × difficulty';
}

export function v2ChartFrame(input: V2ChartInput): FramedChart {
  const output = input.output ?? DEFAULT_OUTPUT;
  const f = input.size.font;
  const grid = v2Grid(input.records);
  const plotWidth = input.size.width - f * 4.5;
  const sizing = groupedBarSizing(CATEGORIES.length, SERIES.length, plotWidth, f * 2.5);
  const bars = groupedBars(
    SERIES.map((d) => ({
      label: d === 'all' ? 'all difficulties' : d,
      color: COLORS[d],
      data: CATEGORIES.map((l) => grid[l][d].value),
    })),
    sizing,
  );
  const bounds = SERIES.map((d) =>
    CATEGORIES.map((l): [number, number] | null => {
      const c = grid[l][d];
      return c.low === null || c.high === null ? null : [c.low, c.high];
    }),
  );
  const top = Math.max(
    0,
    ...bounds.flat().map((b) => (b ? b[1] : 0)),
    ...SERIES.flatMap((d) => CATEGORIES.map((l) => grid[l][d].value ?? 0)),
  );
  const labels = CATEGORIES.map((l) => [l === 'all' ? 'all lengths' : l, `n=${grid[l].all.n}`]);
  const ticks = categoryTicks(labels, plotWidth, f, f);
  const modelText = shortModel(input.model, input.isReferenceReader);
  const fixture = input.records.some((r) => r.metadata?.fixture === true);
  return chartFrame({
    type: 'bar',
    data: { labels, datasets: bars.datasets },
    size: input.size,
    output,
    title: v2ChartTitle(input.records),
    subtitle: `${input.method} · ${modelText}`,
    captionSubtitle: `${input.method} · ${modelLabel(input.model, input.isReferenceReader)}`,
    legend: [bars.legend],
    notes: [
      ...(fixture
        ? [
            'Synthetic fixture bundled with bench (a few items built from HotpotQA), not LongBench v2; not comparable with published scores.',
          ]
        : []),
      "Accuracy ×100: the letter of the reply's 'The correct answer is (X)' equals the gold letter (LongBench v2's pred.py); unparsed replies and errors count as wrong.",
      'Length and difficulty as each item labels them (result.py: any length other than short or medium counts as long).',
      'Whiskers: 95% Wilson score interval.',
    ],
    x: categoryAxis(ticks),
    y: { min: 0, max: 100, stepSize: 20, title: 'accuracy ×100' },
    headroom: valueHeadroom(100, top, f),
    plugins: [
      barValuesPlugin(f, intervalBounds(bounds), valueHeadroom(100, top, f)) as never,
      intervalBarsPlugin(bounds) as never,
    ],
  });
}

export function v2Figure(input: V2ChartInput): RenderedChart {
  return renderFrame(v2ChartFrame(input), input.size, input.output ?? DEFAULT_OUTPUT);
}
