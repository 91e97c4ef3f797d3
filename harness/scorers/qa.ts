// SQuAD/HotpotQA-style answer normalisation and MemAgent's QA metrics (docs/PROTOCOLS.md §a.7, §a.8). Faithful variants
// reproduce the upstream quirks; sub_em_strict is our stricter reading, offered beside them.
import { pySplit } from '../protocol/pytext.js';

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Python's \b in a str pattern: word characters are Unicode letters, digits/numerics and '_'.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** lower → delete ASCII punctuation → whole words a/an/the become a space → collapse whitespace. */
export function normalizeAnswer(s: string): string {
  const lowered = s.toLowerCase().replace(ASCII_PUNCTUATION, '');
  return pySplit(lowered.replace(ARTICLES, ' ')).join(' ');
}

function isAbsent(prediction: string | null): prediction is null | '' {
  // Upstream guards with `if item["pred"]`: None and '' both score 0.
  return prediction === null || prediction === '';
}

/** True for a non-empty prediction that normalises to nothing (e.g. "a", "The.", "?"), which faithful sub_em scores 1. */
export function normalizesToEmpty(prediction: string | null): boolean {
  return !isAbsent(prediction) && normalizeAnswer(prediction) === '';
}

/**
 * MemAgent sub_em, faithful: normalised gold ⊆ normalised prediction or the reverse, against answers[0] only.
 * A prediction that normalises to '' scores 1 (the empty string is in every gold); 'no' is in 'north atlantic'.
 */
export function subEm(prediction: string | null, answers: readonly string[]): number {
  if (isAbsent(prediction) || answers.length === 0) return 0;
  const gold = normalizeAnswer(answers[0]);
  const pred = normalizeAnswer(prediction);
  return gold.includes(pred) || pred.includes(gold) ? 1 : 0;
}

function containsTokens(tokens: readonly string[], part: readonly string[]): boolean {
  if (part.length === 0 || part.length > tokens.length) return false;
  outer: for (let start = 0; start + part.length <= tokens.length; start++) {
    for (let k = 0; k < part.length; k++) if (tokens[start + k] !== part[k]) continue outer;
    return true;
  }
  return false;
}

/**
 * Our strict sub_em: as sub_em (answers[0], both directions), but containment is of whole tokens, and a side that
 * normalises to '' scores 0. So 'a' scores 0 and 'no' does not match 'North Atlantic'.
 */
export function subEmStrict(prediction: string | null, answers: readonly string[]): number {
  if (isAbsent(prediction) || answers.length === 0) return 0;
  const gold = normalizeAnswer(answers[0]).split(' ').filter(Boolean);
  const pred = normalizeAnswer(prediction).split(' ').filter(Boolean);
  if (gold.length === 0 || pred.length === 0) return 0;
  return containsTokens(pred, gold) || containsTokens(gold, pred) ? 1 : 0;
}

/** Exact match of the normalised strings against answers[0] (faithful: 'a' vs 'the' is a match). */
export function exactMatch(prediction: string | null, answers: readonly string[]): number {
  if (isAbsent(prediction) || answers.length === 0) return 0;
  return normalizeAnswer(prediction) === normalizeAnswer(answers[0]) ? 1 : 0;
}

/** Multiset token overlap F1 with precision and recall; zeros when nothing overlaps. */
export function tokenF1(
  predTokens: readonly string[],
  goldTokens: readonly string[],
): { f1: number; precision: number; recall: number } {
  const counts = new Map<string, number>();
  for (const t of goldTokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of predTokens) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return { f1: 0, precision: 0, recall: 0 };
  const precision = (1.0 * same) / predTokens.length;
  const recall = (1.0 * same) / goldTokens.length;
  return { f1: (2 * precision * recall) / (precision + recall), precision, recall };
}

const YES_NO = new Set(['yes', 'no', 'noanswer']);

/**
 * HotpotQA's token F1 (its official eval) against answers[0], as MemAgent's driver: 0 when either side normalises to yes/no/noanswer and
 * the two differ. (The driver also rounds each sample's F1 to 2 decimals before averaging; this returns it unrounded.)
 */
export function answerF1(prediction: string | null, answers: readonly string[]): number {
  if (isAbsent(prediction) || answers.length === 0) return 0;
  const pred = normalizeAnswer(prediction);
  const gold = normalizeAnswer(answers[0]);
  if ((YES_NO.has(pred) || YES_NO.has(gold)) && pred !== gold) return 0;
  return tokenF1(pySplit(pred), pySplit(gold)).f1;
}
