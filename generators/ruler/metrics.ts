// RULER's scorers (NVIDIA/RULER scripts/eval: evaluate.py postprocess_pred, synthetic/constants.py) and MemAgent's
// NIAH variant (taskutils/memory_eval/ruler_general.py). Per-sample values in 0..1.
import { extractPhraseAnswer } from '../../harness/protocol/answer.js';
import { pyStrip } from '../../harness/protocol/pytext.js';
import { pyRound } from '../../harness/protocol/round.js';
import type { Metric } from '../../harness/scorers/metric.js';

/** Strip, turn every control character U+0000–U+001F into '\n', strip again. */
export function postprocessRulerPred(prediction: string): string {
  return pyStrip(pyStrip(prediction).replace(/[\x00-\x1f]/g, '\n'));
}

function found(gold: string, lowerPred: string): boolean {
  return lowerPred.includes(gold.toLowerCase());
}

/** Fraction of gold strings that occur (case-insensitively) in the prediction. No golds → 0. */
export function stringMatchAll(prediction: string, golds: readonly string[]): number {
  if (golds.length === 0) return 0;
  const lower = prediction.toLowerCase();
  let hits = 0;
  for (const g of golds) if (found(g, lower)) hits += 1.0;
  return hits / golds.length;
}

/** 1 if any gold string occurs (case-insensitively) in the prediction. */
export function stringMatchPart(prediction: string, golds: readonly string[]): number {
  const lower = prediction.toLowerCase();
  return golds.some((g) => found(g, lower)) ? 1 : 0;
}

/**
 * MemAgent's RULER score for non-QA tasks on a raw response: extract with the "the answer is" rule (a response
 * without it scores 0), then string_match_all, rounded per sample to 2 decimals as the driver's calc_metrics does
 * (so 1/3 counts as 0.33).
 */
export function memagentNiah(rawOutput: string | null, golds: readonly string[]): number {
  if (rawOutput === null) return 0;
  const answer = extractPhraseAnswer(rawOutput);
  return memagentNiahOnAnswer(answer, golds);
}

/** memagentNiah for an answer that was already extracted (null or '' → 0). */
export function memagentNiahOnAnswer(answer: string | null, golds: readonly string[]): number {
  if (answer === null || answer === '') return 0;
  return pyRound(stringMatchAll(answer, golds), 2);
}

/** RULER's metrics and MemAgent's NIAH variant, as registry entries (RulerFamily.metrics). */
export const RULER_METRIC_ENTRIES: readonly Metric[] = [
  {
    name: 'string_match_all',
    description: 'RULER: fraction of gold strings found case-insensitively in the post-processed prediction',
    score: (p, a) => stringMatchAll(postprocessRulerPred(p ?? ''), a),
  },
  {
    name: 'string_match_part',
    description: 'RULER: 1 if any gold string is found case-insensitively in the post-processed prediction',
    score: (p, a) => stringMatchPart(postprocessRulerPred(p ?? ''), a),
  },
  {
    name: 'memagent_niah',
    description:
      'MemAgent RULER: "the answer is" extraction from the raw output, then string_match_all rounded per sample to 2 decimals',
    input: 'raw',
    score: (raw, a) => memagentNiah(raw, a),
  },
];
