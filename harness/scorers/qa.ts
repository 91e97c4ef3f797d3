// SQuAD/HotpotQA-style answer normalisation and MemAgent's QA metrics (docs/PROTOCOLS.md §a.7, §a.8). Faithful variants
// reproduce the upstream quirks; sub_em_strict is our stricter reading, offered beside them.
import { isPySpace, pySplit } from '../protocol/pytext.js';

// Python's \b in a str pattern: word characters are Unicode letters, digits/numerics and '_'.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** Per ASCII code: 1 punctuation (string.punctuation), 2 Python whitespace, 3 letter or digit, 0 other. */
const ASCII_CLASS = new Uint8Array(128);
for (const c of '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') ASCII_CLASS[c.charCodeAt(0)] = 1;
for (let c = 9; c <= 13; c++) ASCII_CLASS[c] = 2;
for (let c = 0x1c; c <= 0x20; c++) ASCII_CLASS[c] = 2;
for (let c = 48; c <= 57; c++) ASCII_CLASS[c] = 3;
for (let c = 97; c <= 122; c++) ASCII_CLASS[c] = 3;
for (let c = 65; c <= 90; c++) ASCII_CLASS[c] = 3;

/**
 * lower → delete ASCII punctuation → whole words a/an/the become a space → collapse whitespace (SQuAD's
 * normalize_answer). One pass over the lowercased text, a word at a time: an article is a whole word bounded by
 * anything but a letter or digit, and whitespace is such a bound, so a word of ASCII letters and digits is an
 * article only when it is one entirely; any other word goes through the article pattern itself. Memory retention
 * normalises every new memory line with it (harness/memory/retention.ts).
 */
export function normalizeAnswer(s: string): string {
  const lowered = s.toLowerCase();
  const words: string[] = [];
  let word = '';
  let runStart = -1;
  let plain = true;
  const endWord = (end: number): void => {
    if (runStart >= 0) word += lowered.slice(runStart, end);
    runStart = -1;
    if (word.length === 0) return;
    if (!plain) {
      for (const part of word.replace(ARTICLES, ' ').split(' ')) if (part.length > 0) words.push(part);
    } else if (word !== 'a' && word !== 'an' && word !== 'the') words.push(word);
    word = '';
    plain = true;
  };
  for (let i = 0; i < lowered.length; i++) {
    const c = lowered.charCodeAt(i);
    const cls = c < 128 ? ASCII_CLASS[c] : isPySpace(c) ? 2 : 0;
    if (cls === 1) {
      if (runStart >= 0) word += lowered.slice(runStart, i);
      runStart = -1;
      continue;
    }
    if (cls === 2) {
      endWord(i);
      continue;
    }
    if (cls === 0) plain = false;
    if (runStart < 0) runStart = i;
  }
  endWord(lowered.length);
  return words.join(' ');
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
