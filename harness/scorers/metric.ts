// What a metric is, and the registry families add theirs to (Catalog.metrics). Every score is 0..1; ×100 and
// rounding happen only at the display edge, through toPercent.
import { UserError } from '../errors.js';
import type { Registry } from '../registry/registry.js';
import type { MetricOptions } from '../types.js';

export type { MetricOptions } from '../types.js';

export interface Metric {
  name: string;
  description: string;
  /** 'raw': score() expects the raw model output and extracts the answer itself (memagent_niah). */
  input?: 'raw';
  /** `opts` is the sample's `scoring` record, which only the metric's own family reads. */
  score(prediction: string | null, answers: string[], opts?: MetricOptions): number;
  extra?(prediction: string | null, answers: string[], opts?: MetricOptions): Record<string, number>;
  /** The options of a record written before Sample.scoring existed, from what its generator put in metadata. */
  legacyOptions?(metadata: Readonly<Record<string, unknown>>): MetricOptions;
}

export type MetricRegistry = Registry<Metric>;

/** The metric, or a UserError listing the known ones. */
export function getMetric(metrics: MetricRegistry, name: string): Metric {
  const metric = metrics.find(name);
  if (!metric) throw new UserError(`unknown metric '${name}'; known metrics: ${metrics.names().join(', ')}`);
  return metric;
}

export interface ScoreResult {
  metric: string;
  /** Headline score, 0..1. */
  score: number;
  /** Headline (under the metric's name) plus every extra, 0..1. */
  scores: Record<string, number>;
}

/** Headline score plus extras (for sub_em: em, f1, sub_em_strict and the empty_norm flag). */
export function scoreAll(
  metric: Metric,
  prediction: string | null,
  answers: string[],
  opts: MetricOptions = {},
): ScoreResult {
  const score = metric.score(prediction, answers, opts);
  return {
    metric: metric.name,
    score,
    scores: { [metric.name]: score, ...(metric.extra?.(prediction, answers, opts) ?? {}) },
  };
}
