// The summary row: one group of samples (task × method × model × length), as summary.json and summary.csv hold it.
// A contract between the writers in reports/ and the families' report facets (harness/report/facet.ts).
import type { SampleRecord } from '../types.js';
import type { RowCost } from './cost.js';

/** 'wilson': every sample scored exactly 0 or 1 (a binomial count). 'bootstrap': any other scores (F1, ROUGE, partial credit).
 *  'price-bonett': an average of several tasks' 0/1 scores (a suite's aggregate row). */
export type CiMethod = 'wilson' | 'bootstrap' | 'price-bonett';

/** The interval fields of a summary row (fractions 0..1, like score). The same names in summary.json. */
export interface RowInterval {
  /** Lower end of the 95% interval of `score`. */
  ci95_low: number;
  /** Upper end of the 95% interval of `score`. */
  ci95_high: number;
  /** 'wilson' (every sample scored 0 or 1), 'bootstrap' (seeded percentile bootstrap over samples) or 'price-bonett'
   *  (a suite's average of tasks scored 0 or 1). */
  ci_method: CiMethod;
}

/** A record's length kind, or 'bucket': a breakdown row over samples already counted in another row. */
export type SummaryLengthKind = SampleRecord['lengthKind'] | 'bucket';

/** What an aggregate row averages (harness/report/facet.ts SummaryAggregate), e.g. a suite's tasks at one length. */
export interface RowAggregate {
  /** The aggregate's name, e.g. 'ruler' (MemAgent's RULER average). */
  suite: string;
  /** How `score` and the interval are made from the subsets, in words. */
  rule: string;
  /** The rows it averages: task, score (fraction), sample count. */
  subsets: Array<{ task: string; score: number; n: number }>;
  /** Tasks the aggregate holds at this length that the rows lack (an average over fewer tasks). */
  missing: string[];
}

/** One group of samples. Scores are fractions 0..1 (not rounded); reports show them ×100 with 2 decimals.
 *  ci95_low, ci95_high, ci_method (RowInterval, reports/intervals.ts): the 95% interval of `score`. */
export interface SummaryRow extends RowInterval {
  task: string;
  method: string;
  model: string;
  isReferenceReader: boolean;
  /** Length label; for bucket rows the breakdown's label (LongBench-E: "0-4k", "4-8k", "8k+"). */
  lengthLabel: string;
  /** 'bucket': a breakdown row (harness/report/facet.ts SummaryBreakdown), a subset of the task's samples. */
  lengthKind: SummaryLengthKind;
  /** For a bucket row: the report facet whose breakdown made it. */
  breakdown?: string;
  /** Target value; for bucket rows where the breakdown places its label (LongBench-E: the bucket's lower bound). */
  length: number;
  /** Headline metric name(s) of the group, e.g. "sub_em" ("a+b" if the group mixes metrics). */
  metric: string;
  n: number;
  /** Samples the run planned for this cell (manifest.json `expected`); null or absent when unknown (reports/completeness.ts). */
  expected?: number | null;
  /** n ≥ expected; false for an interrupted run's or an unfinished shard's cell; null or absent when unknown. */
  complete?: boolean | null;
  ok: number;
  errors: number;
  truncated: number;
  /** Samples whose context is longer than the length target (status 'over-target'; scored as usual). */
  overTarget: number;
  /** Mean headline score over all n samples; errored samples count as 0. */
  score: number;
  /** `score` ×100 as every report shows it: by the task's PercentRule (harness/protocol/round.ts), from the samples'
   *  total for LongBench's tasks. Set by summarize; a row without it is shown by reports/format.ts rowPercent. */
  scoreX100?: number;
  /** Mean headline score over samples with status "ok" only; null when there are none. */
  scoreOkOnly: number | null;
  /** Mean of every entry of record.scores seen in the group (errored samples lacking the key count as 0). */
  metrics: Record<string, number>;
  /** Predictions that normalise to nothing (scores.empty_norm === 1). */
  empty: number;
  /** Samples whose context the method cut in the middle to fit the context limit (the method's extra middle_truncated). */
  middleTruncated: number;
  promptTokens: number;
  completionTokens: number;
  calls: number;
  /** Calls that ended on the length limit (finish reason "length"), summed over the samples (record.cutCalls). */
  cutCalls: number;
  /** Thinking tokens summed over the samples (SampleRecord.thinkingTokens); present only when some are. */
  thinkingTokens?: number;
  /** Calls whose `<think>` never closed, summed over the samples; present only when some are. */
  unclosedThinkCalls?: number;
  /** Mean context tokens actually built (record.builtTokens). */
  meanBuiltTokens: number;
  /** Calls, tokens, longest chain and estimated GPU-seconds per sample (harness/report/cost.ts). */
  cost?: RowCost;
  /** True when every sample came from a small test fixture bundled with bench (metadata.fixture, e.g. LongBench's),
   *  not the benchmark's data: reports label such rows so that their scores are never quoted as the benchmark's. */
  fixture?: boolean;
  /** For a method with a memory (records with `memory`): of its samples, how many had the gold in memory after some
   *  chunk (captured), lost it again (lost), and still held it after the last chunk (keptToEnd). */
  memory?: { samples: number; captured: number; lost: number; keptToEnd: number };
  /** Set on a row that averages other rows (a report facet's aggregate): never a gate row. */
  aggregate?: RowAggregate;
}
