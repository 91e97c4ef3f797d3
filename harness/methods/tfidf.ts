// ReMemR1's recall (syr-cn/ReMemR1 utils/tf_idf_retriever.py): scikit-learn's TfidfVectorizer (smooth idf
// ln((1 + n) / (1 + df)) + 1, raw term counts, l2 norm) refitted on the past memories at every recall, over the
// model tokenizer's tokens of the lower-cased text with the byte-level space marker removed; the memory with the
// highest cosine similarity to the query. Upstream's memories are a Python set (its order, and so its ties, vary
// with string hashing); here they keep insertion order and a tie goes to the latest, as numpy's
// argsort(...)[::-1] picks among equal scores in a small array.
import type { Tokenizer } from '../types.js';

const tokenTexts = new WeakMap<Tokenizer, Map<number, string>>();

/** The vectoriser's tokens: each token id decoded alone, lower-cased text, spaces (Ġ) removed. */
export function tfidfTokens(text: string, tokenizer: Tokenizer): string[] {
  let texts = tokenTexts.get(tokenizer);
  if (!texts) tokenTexts.set(tokenizer, (texts = new Map()));
  return Array.from(tokenizer.encode(text.toLowerCase()), (id) => {
    let t = texts.get(id);
    if (t === undefined) texts.set(id, (t = tokenizer.decode([id]).replaceAll(' ', '')));
    return t;
  });
}

function counts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Term counts per memory text, kept across one sample's recalls (upstream refits on all of them each time). */
export type TermCounts = Map<string, Map<string, number>>;

/** top1_retrieve: the best memory for the query, or null where upstream's fit fails (no tokens) or nothing is held. */
export function top1Retrieve(
  query: string,
  corpus: readonly string[],
  tokenizer: Tokenizer,
  known: TermCounts = new Map(),
): string | null {
  if (!query || corpus.length === 0) return null;
  const docs = corpus.map((d) => {
    let c = known.get(d);
    if (!c) known.set(d, (c = counts(tfidfTokens(d, tokenizer))));
    return c;
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  if (df.size === 0) return null;
  const n = docs.length;
  const idf = (t: string) => Math.log((1 + n) / (1 + df.get(t)!)) + 1;
  const weigh = (c: Map<string, number>) => {
    const v = new Map<string, number>();
    let norm = 0;
    for (const [t, k] of c)
      if (df.has(t)) {
        const w = k * idf(t);
        v.set(t, w);
        norm += w * w;
      }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [t, w] of v) v.set(t, w / norm);
    return v;
  };
  const q = weigh(counts(tfidfTokens(query, tokenizer)));
  let best = 0;
  let bestScore = -Infinity;
  docs.forEach((d, i) => {
    const v = weigh(d);
    let s = 0;
    for (const [t, w] of q) s += w * (v.get(t) ?? 0);
    if (s >= bestScore) {
      bestScore = s;
      best = i;
    }
  });
  return corpus[best];
}
