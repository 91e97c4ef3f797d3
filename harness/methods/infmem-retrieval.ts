// InfMem's in-document retrieval (UCMP13753/InfMem infmem.py, BM25_IMPL "enhanced"; docs/PROTOCOLS.md §j.1): units of
// `unitTokens` token ids every unitTokens − overlap inside each recurrent chunk (never across chunks), tokenised by
// tokenize_mixed, ranked by rank_bm25's BM25Okapi (k1 1.5, b 0.75, epsilon 0.25), then picked in score order
// skipping the current chunk, chunks that gave `perChunk` results already and near-duplicates (token-set
// Jaccard > `jaccard`), topped up from the full ranking. Ties in score keep document order (numpy's sort leaves
// them unspecified).

export const BM25_K1 = 1.5;
export const BM25_B = 0.75;
export const BM25_EPSILON = 0.25;
/** BM25_CAND_MULTIPLIER and the floor of 40 candidates. */
const CANDIDATES_PER_K = 6;
const MIN_CANDIDATES = 40;

/** tokenize_mixed: lower-case [a-z0-9_]+ runs, then each CJK character, then bigrams of consecutive CJK entries. */
export function tokenizeMixed(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [...(lower.match(/[a-z0-9_]+/g) ?? [])];
  const zh: string[] = [];
  for (const ch of lower) if (ch >= '\u4e00' && ch <= '\u9fff') zh.push(ch);
  if (zh.length > 0) {
    out.push(...zh);
    for (let i = 0; i + 1 < zh.length; i++) out.push(zh[i] + zh[i + 1]);
  }
  return out;
}

/** _normalize_query: runs of \r\n\t become one space, the result stripped, whitespace collapsed; empty → fallback. */
export function normalizeQuery(query: unknown, fallback: string): string {
  if (typeof query !== 'string') return fallback;
  const q = query
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
  return q || fallback;
}

/** _clamp_top_k: int(top_k) (8 when that fails), clamped to [min, max]. */
export function clampTopK(topK: unknown, fallback: number, min = 3, max = 20): number {
  let k: number;
  if (typeof topK === 'number' && Number.isFinite(topK)) k = Math.trunc(topK);
  else if (typeof topK === 'boolean') k = topK ? 1 : 0;
  else if (typeof topK === 'string' && /^\s*[-+]?\d+\s*$/.test(topK)) k = parseInt(topK, 10);
  else k = fallback;
  return Math.max(min, Math.min(max, k));
}

export interface RetrievalUnit {
  /** The recurrent chunk it lies in. */
  chunk: number;
  text: string;
}

/** _build_retrieve_corpus_enhanced over a context's token ids. */
export function buildUnits(
  ids: Uint32Array,
  decode: (ids: Uint32Array) => string,
  chunkTokens: number,
  unitTokens: number,
  overlap: number,
): RetrievalUnit[] {
  const step = Math.max(1, unitTokens - Math.min(overlap, unitTokens - 1));
  const units: RetrievalUnit[] = [];
  for (let start = 0, chunk = 0; start < ids.length; start += chunkTokens, chunk++) {
    const end = Math.min(ids.length, start + chunkTokens);
    for (let p = start; p < end;) {
      const e = Math.min(end, p + unitTokens);
      units.push({ chunk, text: decode(ids.subarray(p, e)) });
      if (e >= end) break;
      p = Math.min(end, p + step);
    }
  }
  return units;
}

/** rank_bm25's BM25Okapi over tokenised units, with an inverted index so a query touches only its terms' postings. */
export class Bm25Okapi {
  private readonly idf = new Map<string, number>();
  private readonly postings = new Map<string, Array<[doc: number, tf: number]>>();
  private readonly docLen: Float64Array;
  private readonly avgdl: number;
  readonly size: number;

  constructor(corpus: readonly (readonly string[])[]) {
    this.size = corpus.length;
    this.docLen = new Float64Array(corpus.length);
    let total = 0;
    corpus.forEach((doc, d) => {
      const tf = new Map<string, number>();
      for (const w of doc) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const [w, n] of tf) {
        let list = this.postings.get(w);
        if (!list) this.postings.set(w, (list = []));
        list.push([d, n]);
      }
      this.docLen[d] = doc.length;
      total += doc.length;
    });
    this.avgdl = total / Math.max(1, corpus.length);
    let idfSum = 0;
    const negative: string[] = [];
    for (const [w, list] of this.postings) {
      const idf = Math.log(this.size - list.length + 0.5) - Math.log(list.length + 0.5);
      this.idf.set(w, idf);
      idfSum += idf;
      if (idf < 0) negative.push(w);
    }
    const eps = (BM25_EPSILON * idfSum) / Math.max(1, this.idf.size);
    for (const w of negative) this.idf.set(w, eps);
  }

  /** get_scores: every query token counts, repeats included. */
  scores(query: readonly string[]): Float64Array {
    const out = new Float64Array(this.size);
    for (const q of query) {
      const idf = this.idf.get(q);
      const list = this.postings.get(q);
      if (idf === undefined || !list) continue;
      for (const [d, tf] of list)
        out[d] += (idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * this.docLen[d]) / this.avgdl));
    }
    return out;
  }
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

export interface RetrievalLimits {
  perChunk: number;
  jaccard: number;
}

/** An index over one sample's units, queried once per planner call. */
export class InDocumentIndex {
  private readonly bm25: Bm25Okapi;
  private readonly tokens: string[][];
  private readonly sets = new Map<number, Set<string>>();

  constructor(
    readonly units: readonly RetrievalUnit[],
    private readonly limits: RetrievalLimits,
  ) {
    this.tokens = units.map((u) => tokenizeMixed(u.text));
    this.bm25 = new Bm25Okapi(this.tokens);
  }

  private setOf(i: number): Set<string> {
    let s = this.sets.get(i);
    if (!s) this.sets.set(i, (s = new Set(this.tokens[i])));
    return s;
  }

  /** bm25_retrieve_for_recurrent_chunk_enhanced: the texts retrieved for `query`, best first. */
  search(query: string, topK: number, excludeChunk: number): string[] {
    const q = tokenizeMixed(query);
    if (q.length === 0 || this.units.length === 0) return [];
    const scores = this.bm25.scores(q);
    const ranked = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b);
    const candidates = ranked.slice(0, Math.min(ranked.length, Math.max(MIN_CANDIDATES, topK * CANDIDATES_PER_K)));
    const results: string[] = [];
    const chosen: Set<string>[] = [];
    const perChunk = new Map<number, number>();
    for (const i of candidates) {
      const { chunk, text } = this.units[i];
      if (chunk === excludeChunk) continue;
      if ((perChunk.get(chunk) ?? 0) >= this.limits.perChunk) continue;
      const set = this.setOf(i);
      if (chosen.some((c) => jaccard(set, c) > this.limits.jaccard)) continue;
      results.push(text);
      chosen.push(set);
      perChunk.set(chunk, (perChunk.get(chunk) ?? 0) + 1);
      if (results.length >= topK) return results;
    }
    for (const i of ranked) {
      const { chunk, text } = this.units[i];
      if (chunk === excludeChunk || results.includes(text)) continue;
      results.push(text);
      if (results.length >= topK) break;
    }
    return results;
  }
}

/** The writer's retrieved block: "[Retrieved #rank] text" joined by blank lines. */
export function retrievedBlock(texts: readonly string[]): string {
  return texts.map((t, i) => `[Retrieved #${i + 1}] ${t}`).join('\n\n');
}
