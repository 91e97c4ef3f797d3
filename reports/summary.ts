// Per (task, method, model, length) aggregation of sample records, and its CSV / JSON / terminal forms.
// Records that fall in a report facet's breakdown (LongBench-E's length buckets, generators/longbench/report-facet.ts)
// also feed breakdown rows (lengthKind 'bucket'): extra views of the same samples, which the gate and baselines ignore.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { ReportFacet } from '../harness/report/facet.js';
import { loneSampleGpuSeconds, type CostModel } from '../harness/report/cost.js';
import type { SummaryRow } from '../harness/report/summary-row.js';
import { writeFileAtomic } from '../harness/run-dir/atomic-write.js';
import type { SampleRecord } from '../harness/types.js';
import type { SkippedTask } from '../harness/run-dir/manifest.js';
import { aggregateNotes, breakdownNotes, breakdownsOf } from './breakdowns.js';
import { fmtPct, fmtScore, isReferenceReaderId, modelLabel, rowPercent } from './format.js';
import { percentOfScores, percentRuleOf, scorePercent } from '../harness/protocol/round.js';
import { methodExtra } from './records.js';
import { fixtureNote, taskLabel } from './fixtures.js';
import { fmtCount, INCOMPLETE_NOTE, missingNote, type MissingCell } from './completeness.js';
import {
  CSV_INTERVAL_COLUMNS,
  PENDING_INTERVAL,
  insertIntervalColumns,
  orderedScores,
  rowInterval,
  type KeyedScore,
} from './intervals.js';

export { readRecords, loadRecords } from './records.js';
export type { SummaryLengthKind, SummaryRow } from '../harness/report/summary-row.js';

/** True for rows the gate and baselines use: one per (task, method, model, length); not the breakdown or aggregate rows. */
export function isGateRow<T extends Pick<SummaryRow, 'lengthKind'> & { aggregate?: unknown }>(
  row: T,
): row is T & { lengthKind: SampleRecord['lengthKind'] } {
  return row.lengthKind !== 'bucket' && row.aggregate === undefined;
}

interface Acc {
  row: SummaryRow;
  metricNames: Set<string>;
  scoreSum: number;
  okScoreSum: number;
  metricSums: Map<string, { sum: number; count: number }>;
  builtSum: number;
  errorRecordsMissing: SampleRecord[];
  /** Per-sample headline scores (errors as 0) with their sample id and index, for the interval (rowInterval). */
  values: KeyedScore[];
  /** Every sample so far came from a bundled fixture. */
  fixture: boolean;
  longestChain: number;
  gpuSeconds: number;
  wallMs: number;
}

type RowPosition = Pick<SummaryRow, 'task' | 'method' | 'model' | 'lengthKind' | 'length' | 'lengthLabel'>;

/** Sort order: task, method, model, then length kind (bucket rows after the row they break down) and numeric length. */
export function compareRows(a: RowPosition, b: RowPosition): number {
  const bucketLast = (r: RowPosition) => (r.lengthKind === 'bucket' ? 1 : 0);
  return (
    cmp(a.task, b.task) ||
    cmp(a.method, b.method) ||
    cmp(a.model, b.model) ||
    bucketLast(a) - bucketLast(b) ||
    cmp(a.lengthKind, b.lengthKind) ||
    a.length - b.length ||
    cmp(a.lengthLabel, b.lengthLabel)
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function finite(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A stored count: a whole number ≥ 0, else 0 (a hand-edited or foreign record's "many" or -3 is never summed). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

function newAcc(r: SampleRecord, position: Pick<SummaryRow, 'lengthKind' | 'length' | 'lengthLabel'>): Acc {
  return {
    row: {
      ...PENDING_INTERVAL,
      task: r.task,
      method: r.method,
      model: r.model,
      isReferenceReader: isReferenceReaderId(r.model),
      ...position,
      metric: '',
      n: 0,
      ok: 0,
      errors: 0,
      truncated: 0,
      overTarget: 0,
      score: 0,
      scoreOkOnly: null,
      metrics: {},
      empty: 0,
      middleTruncated: 0,
      promptTokens: 0,
      completionTokens: 0,
      calls: 0,
      cutCalls: 0,
      meanBuiltTokens: 0,
    },
    metricNames: new Set(),
    scoreSum: 0,
    okScoreSum: 0,
    metricSums: new Map(),
    builtSum: 0,
    errorRecordsMissing: [],
    values: [],
    fixture: true,
    longestChain: 0,
    gpuSeconds: 0,
    wallMs: 0,
  };
}

function add(acc: Acc, r: SampleRecord, cost?: CostModel): void {
  const row = acc.row;
  row.n++;
  if (r.metadata?.fixture !== true) acc.fixture = false;
  if (r.metric) acc.metricNames.add(r.metric);
  const isError = r.status === 'error';
  const score = isError ? 0 : finite(r.score);
  acc.scoreSum += score;
  acc.values.push({ id: r.id, index: r.index, score });
  if (r.status === 'ok') {
    row.ok++;
    acc.okScoreSum += score;
  } else if (isError) row.errors++;
  else if (r.status === 'truncated') row.truncated++;
  else if (r.status === 'over-target') row.overTarget++;
  const scores = r.scores ?? {};
  for (const [name, value] of Object.entries(scores)) {
    const m = acc.metricSums.get(name) ?? { sum: 0, count: 0 };
    m.sum += isError ? 0 : finite(value);
    m.count++;
    acc.metricSums.set(name, m);
  }
  if (isError) acc.errorRecordsMissing.push(r);
  if (scores.empty_norm === 1) row.empty++;
  if (methodExtra(r).middle_truncated === true) row.middleTruncated++;
  row.promptTokens += finite(r.usage?.promptTokens);
  row.completionTokens += finite(r.usage?.completionTokens);
  row.calls += finite(r.calls);
  row.cutCalls += count(r.cutCalls);
  if (count(r.thinkingTokens) > 0) row.thinkingTokens = (row.thinkingTokens ?? 0) + count(r.thinkingTokens);
  if (count(r.unclosedThinkCalls) > 0)
    row.unclosedThinkCalls = (row.unclosedThinkCalls ?? 0) + count(r.unclosedThinkCalls);
  acc.builtSum += finite(r.builtTokens);
  acc.longestChain = Math.max(acc.longestChain, count(r.calls));
  if (cost)
    acc.gpuSeconds += loneSampleGpuSeconds(
      cost,
      count(r.calls),
      finite(r.usage?.promptTokens),
      finite(r.usage?.completionTokens),
    );
  acc.wallMs += finite(r.elapsedMs);
  const m = r.memory;
  if (m && typeof m.holds === 'string') {
    const mem = (row.memory ??= { samples: 0, captured: 0, lost: 0, keptToEnd: 0 });
    mem.samples++;
    if (m.capturedAt !== null) mem.captured++;
    if (m.lostAt !== null) mem.lost++;
    if (m.holds.endsWith('1')) mem.keptToEnd++;
  }
}

/**
 * The row's score ×100 by its task's rule: LongBench's from the samples' total in sample order (as eval.py sums its pred
 * file), a LongBench-E bucket's as numpy averages it; any other task's from the mean. A breakdown row of a LongBench
 * task is one of LongBench-E's buckets.
 */
function headlinePercent(row: SummaryRow, values: readonly KeyedScore[]): number {
  const rule = percentRuleOf(row.task, row.lengthKind === 'bucket');
  return rule === 'mean' ? scorePercent('mean', row.score) : percentOfScores(rule, orderedScores(values));
}

/**
 * Groups records by task × method × model × length and aggregates them (one pass; records may be a stream). A record
 * in a facet's breakdown is also counted in a breakdown row of its task × method × model (lengthKind 'bucket').
 */
export function summarize(
  records: Iterable<SampleRecord>,
  facets: readonly ReportFacet[],
  cost?: CostModel,
): SummaryRow[] {
  const breakdowns = breakdownsOf(facets);
  const groups = new Map<string, Acc>();
  const accFor = (
    key: string,
    r: SampleRecord,
    position: Pick<SummaryRow, 'lengthKind' | 'length' | 'lengthLabel'>,
  ): Acc => {
    let acc = groups.get(key);
    if (!acc) {
      acc = newAcc(r, position);
      groups.set(key, acc);
    }
    return acc;
  };
  for (const r of records) {
    add(
      accFor([r.task, r.method, r.model, r.lengthKind, r.length, r.lengthLabel].join('\u0000'), r, {
        lengthKind: r.lengthKind,
        length: r.length,
        lengthLabel: r.lengthLabel,
      }),
      r,
      cost,
    );
    for (const b of breakdowns) {
      const label = b.labelOf(r);
      if (label === null) continue;
      const at = b.perLength ? [r.lengthKind, r.length, r.lengthLabel] : [];
      const acc = accFor([r.task, r.method, r.model, 'bucket', b.facet, ...at, label].join('\u0000'), r, {
        lengthKind: 'bucket',
        length: b.perLength ? r.length + b.lengthOf(label) : b.lengthOf(label),
        lengthLabel: b.perLength ? `${r.lengthLabel} · ${label}` : label,
      });
      acc.row.breakdown = b.facet;
      add(acc, r, cost);
    }
  }
  const rows: SummaryRow[] = [];
  for (const acc of groups.values()) {
    const row = acc.row;
    // Errored samples often carry no scores: they count as 0 in every metric mean, like the headline score.
    for (const r of acc.errorRecordsMissing) {
      for (const [name, m] of acc.metricSums) if (!(r.scores && name in r.scores)) m.count++;
    }
    row.metric = [...acc.metricNames].sort().join('+');
    row.score = acc.scoreSum / row.n;
    row.scoreOkOnly = row.ok > 0 ? acc.okScoreSum / row.ok : null;
    row.metrics = Object.fromEntries(
      [...acc.metricSums.entries()].sort(([a], [b]) => cmp(a, b)).map(([k, m]) => [k, m.sum / m.count]),
    );
    row.meanBuiltTokens = acc.builtSum / row.n;
    row.fixture = acc.fixture;
    row.cost = {
      callsPerSample: row.calls / row.n,
      promptTokensPerSample: row.promptTokens / row.n,
      completionTokensPerSample: row.completionTokens / row.n,
      longestChain: acc.longestChain,
      estGpuSecondsPerSample: cost ? acc.gpuSeconds / row.n : null,
      costPreset: cost ? cost.preset : null,
      wallSecondsPerSample: row.isReferenceReader ? null : acc.wallMs / row.n / 1000,
    };
    Object.assign(row, rowInterval(acc.values, row));
    row.scoreX100 = headlinePercent(row, acc.values);
    rows.push(row);
  }
  const scored = [...groups.values()].map((acc) => ({ row: acc.row, scores: orderedScores(acc.values) }));
  for (const f of facets)
    if (f.aggregate)
      for (const row of f.aggregate.rows(scored))
        rows.push({ ...row, scoreX100: row.scoreX100 ?? scorePercent('mean', row.score) });
  return rows.sort(compareRows);
}

/** Metric names present in any row, sorted (columns of the CSV). */
function metricColumns(rows: SummaryRow[]): string[] {
  const names = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row.metrics)) names.add(name);
  return [...names].sort();
}

/** The cost columns, last in the CSV so that readers of the older columns find them where they were. */
export const COST_COLUMNS = [
  'calls_per_sample',
  'prompt_tokens_per_sample',
  'completion_tokens_per_sample',
  'longest_chain',
  'est_gpu_seconds_per_sample',
  'cost_preset',
  'wall_seconds_per_sample',
] as const;

const round = (x: number, digits: number) => Number(x.toFixed(digits));

function costCells(r: SummaryRow): Array<string | number> {
  const c = r.cost;
  if (!c) return COST_COLUMNS.map(() => '');
  return [
    round(c.callsPerSample, 2),
    round(c.promptTokensPerSample, 1),
    round(c.completionTokensPerSample, 1),
    c.longestChain,
    c.estGpuSecondsPerSample === null ? '' : round(c.estGpuSecondsPerSample, 3),
    c.costPreset ?? '',
    c.wallSecondsPerSample === null ? '' : round(c.wallSecondsPerSample, 3),
  ];
}

/** CSV text: scores ×100 with 2 decimals (the display edge); counts as integers. */
export function summaryCsv(rows: SummaryRow[]): string {
  const metrics = metricColumns(rows);
  const thinking = rows.some((r) => (r.thinkingTokens ?? 0) > 0 || (r.unclosedThinkCalls ?? 0) > 0);
  const header = [
    'task',
    'method',
    'model',
    'reference_reader',
    'length_label',
    'length_kind',
    'length',
    'metric',
    'score_x100',
    'n',
    'expected_n',
    'complete',
    'ok',
    'errors',
    'truncated',
    'over_target',
    'score_ok_only_x100',
    ...metrics.map((m) => `${m}_x100`),
    'empty_predictions',
    'middle_truncated',
    'prompt_tokens',
    'completion_tokens',
    'calls',
    'cut_calls',
    'mean_built_tokens',
    'fixture',
    ...COST_COLUMNS,
    // Reasoning models only: a run without thinking keeps the columns it always had.
    ...(thinking ? ['thinking_tokens', 'thinking_tokens_per_sample', 'unclosed_think_calls'] : []),
  ];
  const body = rows.map((r) => [
    r.task,
    r.method,
    r.model,
    r.isReferenceReader ? 'yes' : 'no',
    r.lengthLabel,
    r.lengthKind,
    r.length,
    r.metric,
    fmtScore(r),
    r.n,
    r.expected ?? '',
    r.complete == null ? '' : r.complete ? 'yes' : 'no',
    r.ok,
    r.errors,
    r.truncated,
    r.overTarget,
    r.scoreOkOnly === null ? '' : fmtPct(r.scoreOkOnly),
    ...metrics.map((m) => (m in r.metrics ? fmtPct(r.metrics[m]) : '')),
    r.empty,
    r.middleTruncated,
    r.promptTokens,
    r.completionTokens,
    r.calls,
    r.cutCalls,
    Math.round(r.meanBuiltTokens),
    r.fixture ? 'yes' : 'no',
    ...costCells(r),
    ...(thinking
      ? [r.thinkingTokens ?? 0, r.n > 0 ? Math.round((r.thinkingTokens ?? 0) / r.n) : 0, r.unclosedThinkCalls ?? 0]
      : []),
  ]);
  insertIntervalColumns(header, body, rows, 'score_x100', CSV_INTERVAL_COLUMNS);
  return stringify([header, ...body]);
}

export interface SummaryFile {
  version: 1;
  /** Scores in rows are fractions 0..1, unrounded; `scoreX100` repeats the headline at the display edge. */
  scoreScale: 'fraction';
  /** One per task × method × model × length (what the gate compares). */
  rows: Array<SummaryRow & { scoreX100: number }>;
  /** Breakdown rows (lengthKind 'bucket', e.g. LongBench-E length buckets); present only when there are some. */
  buckets?: Array<SummaryRow & { scoreX100: number }>;
  /** Rows that average other rows (`aggregate`: e.g. the RULER suite's mean per length); present only when there are some. */
  aggregates?: Array<SummaryRow & { scoreX100: number }>;
  /** Cells the run planned without a finished sample (an interrupted run); present only when there are some. */
  missing?: MissingCell[];
  /** What the rows with `fixture: true` are (bundled test fixtures, not the benchmark's data); present only then. */
  fixtureNote?: string;
  /** Tasks the run asked for and skipped (manifest.json `skipped`) that no row holds, with the reason; present only
   *  when there are some. */
  skipped?: SkippedTask[];
}

export function summaryJson(
  rows: SummaryRow[],
  missing: MissingCell[] = [],
  skipped: readonly SkippedTask[] = [],
): SummaryFile {
  // scoreX100 last, where it has always stood in summary.json.
  const withPct = (row: SummaryRow) => {
    const { scoreX100: _, ...r } = row;
    return { ...r, expected: r.expected ?? null, complete: r.complete ?? null, scoreX100: rowPercent(row) };
  };
  const buckets = rows.filter((r) => r.lengthKind === 'bucket');
  // A task skipped by one invocation (or run directory) but with rows from another is not listed as skipped.
  const notRun = skipped.filter((s) => !rows.some((r) => r.task === s.task));
  const aggregates = rows.filter((r) => r.aggregate !== undefined);
  return {
    version: 1,
    scoreScale: 'fraction',
    rows: rows.filter(isGateRow).map(withPct),
    ...(buckets.length ? { buckets: buckets.map(withPct) } : {}),
    ...(aggregates.length ? { aggregates: aggregates.map(withPct) } : {}),
    ...(missing.length ? { missing } : {}),
    ...(fixtureNote(rows) ? { fixtureNote: fixtureNote(rows) } : {}),
    ...(notRun.length ? { skipped: notRun } : {}),
  };
}

/** Writes summary.csv and summary.json into runDir (each via temp file + rename). Returns the paths. */
export function writeSummary(
  runDir: string,
  rows: SummaryRow[],
  missing: MissingCell[] = [],
  skipped: readonly SkippedTask[] = [],
): string[] {
  mkdirSync(runDir, { recursive: true });
  const csvFile = join(runDir, 'summary.csv');
  const jsonFile = join(runDir, 'summary.json');
  writeFileAtomic(csvFile, summaryCsv(rows));
  writeFileAtomic(jsonFile, `${JSON.stringify(summaryJson(rows, missing, skipped), null, 2)}\n`);
  return [csvFile, jsonFile];
}

function table(header: string[], body: string[][], rightAlign: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (rightAlign[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export const CUT_NOTE =
  'context cut: samples whose context was cut in the middle to fit the context limit (--max-context); "truncated" counts contexts the server rejected as too long';

/** Whether a row's samples thought (a reasoning model): only then do the tables show thinking columns. */
export function thinks(r: Pick<SummaryRow, 'thinkingTokens' | 'unclosedThinkCalls'>): boolean {
  return (r.thinkingTokens ?? 0) > 0 || (r.unclosedThinkCalls ?? 0) > 0;
}

/** Thinking tokens per sample of a row, rounded. */
export function thinkingPerSample(r: Pick<SummaryRow, 'thinkingTokens' | 'n'>): number {
  return r.n > 0 ? Math.round((r.thinkingTokens ?? 0) / r.n) : 0;
}

/** The thinking/sample and unclosed-think cells; an aggregate row (an average of tasks' scores) has neither. */
export function thinkingCells(r: SummaryRow, fmt: (n: number) => string = String): [string, string] {
  if (r.aggregate) return ['–', '–'];
  return [fmt(thinkingPerSample(r)), fmt(r.unclosedThinkCalls ?? 0)];
}

export const THINKING_NOTE =
  "thinking/sample: tokens of thinking per sample (the server's reasoning_content and any <think> text in the answers), apart from the answers' own tokens; unclosed think: calls whose <think> never closed (the method's rule then decides what it keeps: MemAgent keeps the whole reply)";

export const CUT_CALLS_NOTE =
  'cut calls: model calls whose answer ended on the length limit (finish reason "length": cut off at max tokens), summed over the samples; a MemAgent memory cut off this way may have lost what it held';

export const OVER_TARGET_NOTE =
  "over target: samples whose context is longer than the length, because the task cannot build it smaller (e.g. a question's own documents alone exceed it); scored as usual, counted in n";

/** Under a summary of a run that skipped tasks: one line each, with the reason. */
export function skippedNote(skipped: readonly SkippedTask[]): string {
  return skipped.map((s) => `skipped ${s.task}: ${s.reason}`).join('\n');
}

/**
 * Terminal table: one block per task × method × model, one line per length (then any breakdown rows); an incomplete
 * cell's n reads "n of N", and planned cells without any finished sample are named below. `facets` name the breakdowns.
 */
export function formatSummaryTable(
  rows: SummaryRow[],
  facets: readonly ReportFacet[],
  missing: MissingCell[] = [],
  skipped: readonly SkippedTask[] = [],
): string {
  const blocks: string[] = [];
  let i = 0;
  while (i < rows.length) {
    const first = rows[i];
    const group: SummaryRow[] = [];
    while (
      i < rows.length &&
      rows[i].task === first.task &&
      rows[i].method === first.method &&
      rows[i].model === first.model
    ) {
      group.push(rows[i]);
      i++;
    }
    const model = modelLabel(first.model, first.isReferenceReader);
    const metric = [...new Set(group.map((r) => r.metric))].join('/') || 'score';
    const showOver = group.some((r) => r.overTarget > 0);
    const showEmpty = group.some((r) => r.empty > 0);
    const showCut = group.some((r) => r.middleTruncated > 0);
    const showCutCalls = group.some((r) => (r.cutCalls ?? 0) > 0);
    const showThinking = group.some((r) => (r.thinkingTokens ?? 0) > 0 || (r.unclosedThinkCalls ?? 0) > 0);
    const header = [
      'length',
      'n',
      `${metric} ×100`,
      'errors',
      'truncated',
      ...(showOver ? ['over target'] : []),
      ...(showEmpty ? ['empty'] : []),
      ...(showCut ? ['context cut'] : []),
      ...(showCutCalls ? ['cut calls'] : []),
      ...(showThinking ? ['thinking/sample', 'unclosed think'] : []),
    ];
    const body = group.map((r) => [
      r.lengthLabel,
      fmtCount(r),
      fmtScore(r),
      String(r.errors),
      String(r.truncated),
      ...(showOver ? [String(r.overTarget)] : []),
      ...(showEmpty ? [String(r.empty)] : []),
      ...(showCut ? [String(r.middleTruncated)] : []),
      ...(showCutCalls ? [String(r.cutCalls)] : []),
      ...(showThinking
        ? [String(r.n > 0 ? Math.round((r.thinkingTokens ?? 0) / r.n) : 0), String(r.unclosedThinkCalls ?? 0)]
        : []),
    ]);
    blocks.push(
      `${taskLabel(first)} · ${first.method} · ${model}\n${table(
        header,
        body,
        header.map((_, k) => k > 0),
      )}`,
    );
  }
  if (fixtureNote(rows)) blocks.push(fixtureNote(rows));
  if (rows.some((r) => r.overTarget > 0)) blocks.push(OVER_TARGET_NOTE);
  if (rows.some((r) => r.complete === false)) blocks.push(INCOMPLETE_NOTE);
  if (missing.length) blocks.push(missingNote(missing));
  if (skipped.length) blocks.push(skippedNote(skipped));
  if (rows.some((r) => r.middleTruncated > 0)) blocks.push(CUT_NOTE);
  if (rows.some((r) => (r.cutCalls ?? 0) > 0)) blocks.push(CUT_CALLS_NOTE);
  if (rows.some((r) => (r.thinkingTokens ?? 0) > 0 || (r.unclosedThinkCalls ?? 0) > 0)) blocks.push(THINKING_NOTE);
  blocks.push(...breakdownNotes(rows, facets), ...aggregateNotes(rows, facets));
  return blocks.join('\n\n');
}
