// LongBench v1 per-sample metrics against one gold (THUDM/LongBench LongBench/metrics.py; docs/PROTOCOLS.md §e.2, §e.5).
// The caller takes the max over golds and applies the first-line rule (see longbenchPrediction).
import { sequenceMatcherRatio } from './difflib.js';
import { baseDataset } from './protocol.js';
import { pySplit } from '../../harness/protocol/pytext.js';
import { pyRound } from '../../harness/protocol/round.js';
import { normalizeAnswer, tokenF1 } from '../../harness/scorers/qa.js';

/** Datasets whose prediction is cut to its first line (after leading newlines) before scoring. */
export const FIRST_LINE_DATASETS: ReadonlySet<string> = new Set(['trec', 'triviaqa', 'samsum', 'lsht']);

/** `prediction.lstrip('\n').split('\n')[0]`. */
export function firstLine(prediction: string): string {
  return prediction.replace(/^\n+/, '').split('\n')[0];
}

/** The prediction LongBench scores for `dataset`: null as '', first line for trec/triviaqa/samsum/lsht. */
export function longbenchPrediction(prediction: string | null, dataset?: string): string {
  const text = prediction ?? '';
  return dataset !== undefined && FIRST_LINE_DATASETS.has(baseDataset(dataset)) ? firstLine(text) : text;
}

/** qa_f1_score: token F1 of the normalised strings, no yes/no rule. */
export function qaF1(prediction: string, gold: string): number {
  return tokenF1(pySplit(normalizeAnswer(prediction)), pySplit(normalizeAnswer(gold))).f1;
}

/**
 * classification_score: classes found as substrings of the prediction, minus those that are substrings of the gold
 * but not equal to it (upstream removes while iterating, which skips the element after each removal); 1/|matches|
 * when the gold is among them.
 */
export function classification(
  prediction: string,
  gold: string,
  allClasses: readonly string[] | null | undefined,
): number {
  const matches = (allClasses ?? []).filter((c) => prediction.includes(c));
  // Python's list iterator: an index that moves on even when the current element was removed.
  for (let idx = 0; idx < matches.length; idx++) {
    const term = matches[idx];
    if (gold.includes(term) && term !== gold) matches.splice(matches.indexOf(term), 1);
  }
  return matches.includes(gold) ? 1.0 / matches.length : 0.0;
}

const DIGITS = /\p{Nd}+/gu;

function shareEqual(prediction: string, target: string): number {
  const numbers = prediction.match(DIGITS) ?? [];
  if (numbers.length === 0) return 0.0;
  return numbers.filter((n) => n === target).length / numbers.length;
}

/** retrieval_score (en) / retrieval_zh_score: share of numbers in the prediction equal to the gold paragraph number. */
export function retrieval(prediction: string, gold: string, language: 'en' | 'zh' = 'en'): number {
  const pattern = language === 'en' ? /Paragraph (\p{Nd}+)/u : /段落(\p{Nd}+)/u;
  const m = pattern.exec(gold);
  // Upstream raises IndexError on a gold without a paragraph number; we score 0.
  if (!m) return 0.0;
  return shareEqual(prediction, m[1]);
}

/** count_score: share of numbers in the prediction equal to the gold count. */
export function count(prediction: string, gold: string): number {
  return shareEqual(prediction, gold);
}

/**
 * code_sim_score: the first line (after leading newlines) with no '`', '#' or '//', compared by fuzzywuzzy's
 * fuzz.ratio on the pure-Python difflib backend: round(100 · ratio) with ties to even, / 100. Equal strings score 1
 * and an empty side 0 (fuzzywuzzy's decorators, in that order). With python-Levenshtein installed fuzzywuzzy uses a
 * different ratio; that backend is not reproduced.
 */
export function codeSim(prediction: string, gold: string): number {
  let line = '';
  for (const candidate of prediction.replace(/^\n+/, '').split('\n')) {
    if (!candidate.includes('`') && !candidate.includes('#') && !candidate.includes('//')) {
      line = candidate;
      break;
    }
  }
  if (line === gold) return 1;
  if (line.length === 0 || gold.length === 0) return 0;
  return pyRound(100 * sequenceMatcherRatio(line, gold), 0) / 100;
}
