// The 95% interval reported beside every summary score, and which method made it.
import { bootstrapMeanInterval, type SeedParts } from './bootstrap.js';
import { wilsonInterval, type Interval } from './wilson.js';
import type { CiMethod } from '../../harness/report/summary-row.js';

/** 'wilson': every sample scored exactly 0 or 1 (a binomial count). 'bootstrap': any other scores (F1, ROUGE, partial credit). */
export type { CiMethod };

export interface ScoreInterval extends Interval {
  method: CiMethod;
}

/** True when every value is exactly 0 or 1. */
export function isBinary(values: readonly number[]): boolean {
  return values.every((v) => v === 0 || v === 1);
}

/**
 * The 95% interval of the mean of per-sample scores (each 0..1). Chosen by the data, not the metric name: a group
 * whose every score is 0 or 1 is a binomial count and gets the Wilson score interval; any other group gets the
 * seeded percentile bootstrap (2,000 resamples) over its samples. So sub_em, em and string_match_part (0/1 by
 * construction) always get Wilson; F1, ROUGE and RULER's string_match_all on multi-value NIAH get the bootstrap, except
 * in a group where every sample happened to score exactly 0 or 1, where the bootstrap would be a worse interval for the
 * same binomial data (it collapses to a point at 0% and 100%).
 */
export function scoreInterval(values: readonly number[], seed: SeedParts): ScoreInterval {
  if (values.length === 0) throw new RangeError('scoreInterval: no values');
  if (isBinary(values)) {
    const successes = values.reduce((s, v) => s + v, 0);
    return { ...wilsonInterval(successes, values.length), method: 'wilson' };
  }
  return { ...bootstrapMeanInterval(values, { seed }), method: 'bootstrap' };
}

/** What the interval columns mean, for notes under tables and in charts. */
export const INTERVAL_NOTE =
  '95% interval of the score: Wilson score interval when every sample scored 0 or 1, else a seeded percentile bootstrap over samples (2,000 resamples); errored samples count as 0';
