import { stripSpecialTokens } from '../protocol/special-tokens.js';
import { getMetric, scoreAll } from '../scorers/index.js';
import type { MethodOutput, Sample } from '../types.js';

/** Headline score and all extra metrics of one finished sample (0..1). Errors and truncations score 0. */
export function scoreOutput(sample: Sample, output: MethodOutput): { score: number; scores: Record<string, number> } {
  if (output.status !== 'ok') return { score: 0, scores: {} };
  // Chat-template special tokens are never part of the answer (takeAnswer already removed them from predictions).
  const input = stripSpecialTokens(getMetric(sample.metric).input === 'raw' ? output.rawOutput : output.prediction);
  const meta = sample.metadata;
  const { score, scores } = scoreAll(sample.metric, input, sample.answers, {
    dataset: typeof meta.dataset === 'string' ? meta.dataset : undefined,
    allClasses: Array.isArray(meta.all_classes) ? (meta.all_classes as string[]) : undefined,
  });
  return { score, scores };
}
