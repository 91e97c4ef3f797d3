// Sentence centrality for extractive summaries: a sentence is central when its content words are shared by many
// other sentences of the text. Scores are sums over each sentence's distinct words in reading order (fixed float
// order), ties go to the earlier sentence, and the picked sentences are returned in reading order.

import { STOP_WORDS, estimateTokens, isWordChar, wordKey } from './text.js';

/** Words that are frequent in transcripts and news without saying what a text is about. */
const FILLER = new Set(
  `um uh umm uhh hmm mm mhm yeah yep okay ok oh ah like just really right well gonna wanna actually maybe
  sort kind lot lots thing things stuff got get gets getting going go goes know think mean guess see say says
  said told tell let make made yes also even still now then back way something anything everything someone
  anyone everyone whatever per cent percent mr mrs ms`
    .split(/\s+/)
    .filter((w) => w.length > 0),
);

/** Sentences shorter than this (characters) or with fewer content words say too little to summarise with. */
export const MIN_SENTENCE_CHARS = 30;
const MIN_CONTENT_WORDS = 3;
/** Longer "sentences" are run-on text (tables, lists): too costly for the budget. */
export const MAX_SENTENCE_CHARS = 600;
/** A sentence whose content words are mostly in the sentences already picked adds little (multi-source news). */
const REDUNDANT_SHARE = 0.7;
/** Share of the score a sentence gets for matching every query term (a query-steered summary, qmsum). */
const QUERY_WEIGHT = 1;
/** Bonus for a labelled document's first sentence (news leads), relative to the best centrality (1). */
const LEAD_BONUS = 0.1;

export interface SumCand {
  title: string | null;
  idx: number;
  text: string;
  /** Distinct content word keys, in first-seen order. */
  keys: string[];
  /** Content words counted with repeats. */
  nWords: number;
  /** Position in reading order. */
  order: number;
  score: number;
}

/** Distinct content word keys of a text (stemmed like the rest of the reader) and the count of content words. */
export function contentKeys(text: string): { keys: string[]; nWords: number } {
  const lower = text.toLowerCase();
  const keys: string[] = [];
  const seen = new Set<string>();
  let nWords = 0;
  let i = 0;
  while (i < lower.length) {
    if (!isWordChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const a = i;
    while (i < lower.length && isWordChar(lower.charCodeAt(i))) i++;
    if (i - a < 3) continue;
    const w = lower.slice(a, i);
    if (STOP_WORDS.has(w) || FILLER.has(w)) continue;
    nWords++;
    const k = wordKey(lower, a, i);
    if (!seen.has(k)) {
      seen.add(k);
      keys.push(k);
    }
  }
  return { keys, nWords };
}

/** A candidate, or null when the sentence is too short or too long to be worth keeping. */
export function makeCand(title: string | null, idx: number, text: string, order: number): SumCand | null {
  if (text.length < MIN_SENTENCE_CHARS || text.length > MAX_SENTENCE_CHARS) return null;
  const { keys, nWords } = contentKeys(text);
  if (keys.length < MIN_CONTENT_WORDS) return null;
  return { title, idx, text, keys, nWords, order, score: 0 };
}

/** Number of candidate sentences holding each content word key. */
export function sentenceFrequencies(cands: readonly SumCand[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const c of cands) for (const k of c.keys) df.set(k, (df.get(k) ?? 0) + 1);
  return df;
}

/**
 * Scores candidates in place: centrality (sum of log(number of sentences holding the word) over the sentence's
 * distinct words, over sqrt(content words + 4)), normalised to the best, plus the query-term share and a small lead
 * bonus. `global` holds sentence counts over all the text read so far for its most frequent words; a word's count
 * is the larger of that and its count among the candidates.
 */
export function scoreCands(cands: SumCand[], queryKeys: readonly string[], global: ReadonlyMap<string, number> | null): void {
  const df = sentenceFrequencies(cands);
  if (global !== null) for (const [k, v] of global) if (v > (df.get(k) ?? 0)) df.set(k, v);
  let best = 0;
  for (const c of cands) {
    let sum = 0;
    for (const k of c.keys) sum += Math.log(df.get(k) ?? 1);
    c.score = sum / Math.sqrt(c.nWords + 4);
    if (c.score > best) best = c.score;
  }
  const query = new Set(queryKeys);
  for (const c of cands) {
    let s = best > 0 ? c.score / best : 0;
    if (query.size > 0) {
      let hit = 0;
      for (const k of c.keys) if (query.has(k)) hit++;
      s += (QUERY_WEIGHT * hit) / query.size;
    }
    if (c.title !== null && c.idx === 0) s += LEAD_BONUS;
    c.score = s;
  }
}

export interface PickBudget {
  chars: number;
  tokens: number;
  /** Characters and tokens a candidate costs when written (its line, or its share of a paragraph). */
  cost: (c: SumCand) => { chars: number; tokens: number };
}

/** Greedy fill by score with a redundancy check; returns the picked candidates in reading order. */
export function pickCentral(cands: SumCand[], budget: PickBudget): SumCand[] {
  const ranked = [...cands].sort((a, b) => b.score - a.score || a.order - b.order);
  const covered = new Set<string>();
  const picked: SumCand[] = [];
  let chars = 0;
  let tokens = 0;
  for (const c of ranked) {
    if (budget.chars - chars < MIN_SENTENCE_CHARS) break;
    const cost = budget.cost(c);
    if (chars + cost.chars > budget.chars || tokens + cost.tokens > budget.tokens) continue;
    let seen = 0;
    for (const k of c.keys) if (covered.has(k)) seen++;
    if (seen > REDUNDANT_SHARE * c.keys.length) continue;
    for (const k of c.keys) covered.add(k);
    picked.push(c);
    chars += cost.chars;
    tokens += cost.tokens;
  }
  return picked.sort((a, b) => a.order - b.order);
}

/** Cost of a sentence joined into a paragraph with single spaces. */
export function proseCost(c: SumCand): { chars: number; tokens: number } {
  return { chars: c.text.length + 1, tokens: estimateTokens(c.text) + 0.3 };
}
