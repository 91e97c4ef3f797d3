// The 95% interval of each summary row: how it is computed (reports/stats/interval.ts) and how the summary's CSV,
// markdown and HTML show it. Kept out of summary.ts so that file only calls in here.
import { fmtPct } from './format.js';
import type { RowInterval } from '../harness/report/summary-row.js';
import { INTERVAL_NOTE, scoreInterval, type CiMethod } from './stats/interval.js';

export { INTERVAL_NOTE, type CiMethod };
/** The interval fields of a summary row (harness/report/summary-row.ts). */
export type { RowInterval };

/** Placeholder until the row's samples are all in (summarize fills it from rowInterval). */
export const PENDING_INTERVAL: RowInterval = { ci95_low: 0, ci95_high: 0, ci_method: 'wilson' };

/** One sample's headline score in a row, with what names the sample (its id and index). */
export interface KeyedScore {
  id: string;
  index: number;
  score: number;
}

/** Sample order for the interval: index, then id, then score (so even duplicated ids sort the same every time). */
function compareKeyed(a: KeyedScore, b: KeyedScore): number {
  return a.index - b.index || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.score - b.score;
}

/** The scores in sample order (index, then id): the order the interval's bootstrap resamples them in. */
export function orderedScores(scores: readonly KeyedScore[]): number[] {
  return [...scores].sort(compareKeyed).map((s) => s.score);
}

/**
 * The interval of a row from its per-sample headline scores (errored samples as 0, as in `score`). The scores are put
 * in sample order (index, then id) before the bootstrap resamples them, and the bootstrap's stream is named by the row
 * (task, method, model, length), so a row's interval does not depend on which other rows or records a report holds,
 * nor on the order of the records (samples.jsonl is written in completion order).
 */
export function rowInterval(
  scores: readonly KeyedScore[],
  row: { task: string; method: string; model: string; lengthKind: string; length: number; lengthLabel: string },
): RowInterval {
  const ci = scoreInterval(orderedScores(scores), [
    'bench-ci',
    row.task,
    row.method,
    row.model,
    row.lengthKind,
    row.length,
    row.lengthLabel,
  ]);
  return { ci95_low: ci.low, ci95_high: ci.high, ci_method: ci.method };
}

/** "30.80–36.62": the interval ×100 with 2 decimals. */
export function fmtInterval(r: Pick<RowInterval, 'ci95_low' | 'ci95_high'>): string {
  return `${fmtPct(r.ci95_low)}–${fmtPct(r.ci95_high)}`;
}

/**
 * Inserts interval columns right after the column named `after` (in place), one cell per row from `cells`.
 * Used by the CSV (ci95_low_x100, ci95_high_x100, ci_method) and markdown (ci95 ×100, ci_method) summaries.
 */
export function insertIntervalColumns<R>(
  header: string[],
  body: unknown[][],
  rows: readonly R[],
  after: string,
  columns: Array<[string, (r: R) => string]>,
): void {
  const at = header.indexOf(after) + 1;
  if (at === 0) throw new Error(`insertIntervalColumns: no column '${after}'`);
  header.splice(at, 0, ...columns.map(([name]) => name));
  body.forEach((cells, i) => cells.splice(at, 0, ...columns.map(([, cell]) => cell(rows[i]))));
}

/** CSV columns: the bounds ×100 (like score_x100) and the method. */
export const CSV_INTERVAL_COLUMNS: Array<[string, (r: RowInterval) => string]> = [
  ['ci95_low_x100', (r) => fmtPct(r.ci95_low)],
  ['ci95_high_x100', (r) => fmtPct(r.ci95_high)],
  ['ci_method', (r) => r.ci_method],
];

/** Markdown / HTML columns. */
export const TABLE_INTERVAL_COLUMNS: Array<[string, (r: RowInterval) => string]> = [
  ['ci95 ×100', fmtInterval],
  ['ci_method', (r) => r.ci_method],
];
