// Sentence centrality for extractive summaries: a sentence is central when its content words are shared by many
// other sentences of the text. Words are interned to small integers per call (a Vocab), scores are sums over each
// sentence's distinct words in reading order (fixed float order), ties go to the earlier sentence, and the picked
// sentences are returned in reading order.

import { STOP_KEYS, estimateTokens, isWordChar, keyOf, wordKey } from './text.js';

/** Words that are frequent in transcripts and news without saying what a text is about. */
const FILLER = `um uh umm uhh hmm mm mhm yeah yep okay ok oh ah like just really right well gonna wanna actually maybe
  sort kind lot lots thing things stuff got get gets getting going go goes know think mean guess see say says
  said told tell let make made yes also even still now then back way something anything everything someone
  anyone everyone whatever per cent percent mr mrs ms`;
/** Word keys that never count as content (stop words and fillers), matched on the stemmed key. */
const SKIP_KEYS: ReadonlySet<string> = new Set([
  ...STOP_KEYS,
  ...FILLER.split(/\s+/)
    .filter((w) => w.length > 0)
    .map((w) => keyOf(w)),
]);

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

/** Content word keys of one call, interned to ids 0..size-1, with a stamp array for per-sentence dedup. */
export class Vocab {
  private readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  private stamps = new Int32Array(1024);
  private stamp = 0;

  id(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      if (id >= this.stamps.length) {
        const grown = new Int32Array(this.stamps.length * 2);
        grown.set(this.stamps);
        this.stamps = grown;
      }
    }
    return id;
  }

  /** The id of a key already seen, or -1. */
  find(key: string): number {
    return this.ids.get(key) ?? -1;
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Distinct content word ids of a text (stemmed like the rest of the reader), in first-seen order, and the
   * number of content words with repeats.
   */
  contentIds(text: string): { ids: number[]; nWords: number } {
    const lower = text.toLowerCase();
    const out: number[] = [];
    const stamp = ++this.stamp;
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
      const k = wordKey(lower, a, i);
      if (SKIP_KEYS.has(k)) continue;
      nWords++;
      const id = this.id(k);
      if (this.stamps[id] !== stamp) {
        this.stamps[id] = stamp;
        out.push(id);
      }
    }
    return { ids: out, nWords };
  }
}

/** Content word keys of a text (for queries), in first-seen order. */
export function contentKeys(text: string): string[] {
  const v = new Vocab();
  return v.contentIds(text).ids.map((id) => v.keys[id]);
}

export interface SumCand {
  title: string | null;
  idx: number;
  text: string;
  /** Distinct content word ids (in the call's Vocab), in first-seen order. */
  ids: number[];
  /** Content words counted with repeats. */
  nWords: number;
  /** Position in reading order. */
  order: number;
  score: number;
}

/** A candidate, or null when the sentence is too short or too long to be worth keeping. */
export function makeCand(vocab: Vocab, title: string | null, idx: number, text: string, order: number): SumCand | null {
  if (text.length < MIN_SENTENCE_CHARS || text.length > MAX_SENTENCE_CHARS) return null;
  const { ids, nWords } = vocab.contentIds(text);
  if (ids.length < MIN_CONTENT_WORDS) return null;
  return { title, idx, text, ids, nWords, order, score: 0 };
}

/** Number of candidate sentences holding each word id, added into `into` (sized vocab.size or more). */
export function countSentences(cands: readonly SumCand[], into: Float64Array): void {
  for (const c of cands) for (const id of c.ids) into[id] += 1;
}

/**
 * Scores candidates in place: centrality (sum of log(number of sentences holding the word) over the sentence's
 * distinct words, over sqrt(content words + 4)), normalised to the best, plus the query-term share and a small lead
 * bonus. `df` holds each word's sentence count (index by id); `queryIds` the query's word ids (-1 for words absent
 * from the vocabulary) and `queryCount` how many query words there are.
 */
export function scoreCands(
  cands: SumCand[],
  df: Float64Array,
  queryIds: ReadonlySet<number>,
  queryCount: number,
): void {
  const logs = new Float64Array(df.length);
  for (let i = 0; i < df.length; i++) logs[i] = df[i] > 1 ? Math.log(df[i]) : 0;
  let best = 0;
  for (const c of cands) {
    let sum = 0;
    for (const id of c.ids) sum += logs[id];
    c.score = sum / Math.sqrt(c.nWords + 4);
    if (c.score > best) best = c.score;
  }
  for (const c of cands) {
    let s = best > 0 ? c.score / best : 0;
    if (queryCount > 0) {
      let hit = 0;
      for (const id of c.ids) if (queryIds.has(id)) hit++;
      s += (QUERY_WEIGHT * hit) / queryCount;
    }
    if (c.title !== null && c.idx === 0) s += LEAD_BONUS;
    c.score = s;
  }
}

/** Query word keys as ids of the vocabulary (words the text never uses cannot match and are left out). */
export function queryIdsOf(vocab: Vocab, queryKeys: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (const k of queryKeys) {
    const id = vocab.find(k);
    if (id >= 0) out.add(id);
  }
  return out;
}

export interface PickBudget {
  chars: number;
  tokens: number;
  /** Characters and tokens a candidate costs when written (its line, or its share of a paragraph). */
  cost: (c: SumCand) => { chars: number; tokens: number };
}

/** Greedy fill by score with a redundancy check; returns the picked candidates in reading order. */
export function pickCentral(cands: SumCand[], vocabSize: number, budget: PickBudget): SumCand[] {
  const ranked = [...cands].sort((a, b) => b.score - a.score || a.order - b.order);
  const covered = new Uint8Array(vocabSize);
  const picked: SumCand[] = [];
  let chars = 0;
  let tokens = 0;
  for (const c of ranked) {
    if (budget.chars - chars < MIN_SENTENCE_CHARS) break;
    const cost = budget.cost(c);
    if (chars + cost.chars > budget.chars || tokens + cost.tokens > budget.tokens) continue;
    let seen = 0;
    for (const id of c.ids) seen += covered[id];
    if (seen > REDUNDANT_SHARE * c.ids.length) continue;
    for (const id of c.ids) covered[id] = 1;
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
