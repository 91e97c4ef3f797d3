// "Score a finished sample": the one rule the runner (as each sample ends) and `bench score` (rescoring a run's
// samples.jsonl) share. The metric comes from the catalog's metric registry, handed in by the caller.
import type { MetricOptions, SampleStatus } from '../types.js';
import { getMetric, scoreAll, type Metric, type MetricRegistry } from './metric.js';
import { stripSpecialTokens } from '../protocol/special-tokens.js';

/** What scoring needs of a finished sample: a Sample plus its MethodOutput, or a SampleRecord. */
export interface FinishedSample {
  metric: string;
  status: SampleStatus;
  prediction: string | null;
  rawOutput: string;
  answers: string[];
  scoring?: MetricOptions;
}

/**
 * Headline score and every metric of a finished sample (0..1). A sample that did not end ok (error, truncated)
 * scores 0 with no metrics, whatever it holds. Metrics with input 'raw' score the raw output, the others the
 * extracted prediction. Throws UserError for an unknown metric.
 */
export function scoreSample(
  sample: FinishedSample,
  metrics: MetricRegistry,
): { score: number; scores: Record<string, number> } {
  const metric = getMetric(metrics, sample.metric);
  if (sample.status !== 'ok') return { score: 0, scores: {} };
  // Chat-template special tokens are never part of the answer (takeAnswer already removed them from predictions;
  // this also covers raw-output metrics and records rescored from other tools).
  const input = stripSpecialTokens(metric.input === 'raw' ? sample.rawOutput : sample.prediction);
  const { score, scores } = scoreAll(metric, input, sample.answers, sample.scoring ?? {});
  return { score, scores };
}

/**
 * A record's metric options: its `scoring` field, or for records written before that field existed, what the
 * metric reads from the generator's metadata (LongBench: dataset, all_classes).
 */
export function scoringOptionsOf(
  record: { scoring?: MetricOptions; metadata?: Record<string, unknown> },
  metric: Pick<Metric, 'legacyOptions'>,
): MetricOptions {
  return record.scoring ?? metric.legacyOptions?.(record.metadata ?? {}) ?? {};
}

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}
