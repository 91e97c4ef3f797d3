// Okapi BM25 for ranking passages of one long context against a question. Only the question's terms are counted
// per passage (a term frequency per query term plus the passage length), so memory grows with passages × query
// terms, never with the context's vocabulary; passages are added one at a time as they are decoded.

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

// Function words that carry no retrieval signal; dropping them keeps long instructions in a question from
// outweighing its content words.
const STOPWORDS = new Set(
  (
    'a an the and or but if then of in on at to for from by with without into onto over under about as is are was were ' +
    'be been being am do does did done has have had having this that these those it its he she they them his her their ' +
    'we you your our i me my which who whom whose what when where why how not no nor so than too very can could will ' +
    'would shall should may might must there here also just only any all each both more most other some such own same'
  ).split(' '),
);

/** Lower-cased runs of letters and digits, stopwords removed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (!STOPWORDS.has(m[0])) out.push(m[0]);
  return out;
}

/** Collects per-passage statistics for the question's terms, then scores every passage. */
export class Bm25Index {
  private readonly slot: Map<string, number>;
  /** Per passage: [slot, tf, slot, tf, ...] for the query terms it contains. */
  private readonly hits: Uint32Array[] = [];
  private readonly lengths: number[] = [];
  private readonly df: Uint32Array;
  private totalLength = 0;

  constructor(query: string) {
    this.slot = new Map([...new Set(terms(query))].map((t, i) => [t, i]));
    this.df = new Uint32Array(this.slot.size);
  }

  get queryTerms(): number {
    return this.slot.size;
  }

  get size(): number {
    return this.lengths.length;
  }

  add(text: string): void {
    const tf = new Map<number, number>();
    let length = 0;
    for (const t of terms(text)) {
      length++;
      const s = this.slot.get(t);
      if (s !== undefined) tf.set(s, (tf.get(s) ?? 0) + 1);
    }
    const row = new Uint32Array(tf.size * 2);
    let i = 0;
    for (const [s, n] of tf) {
      row[i++] = s;
      row[i++] = n;
      this.df[s]++;
    }
    this.hits.push(row);
    this.lengths.push(length);
    this.totalLength += length;
  }

  /** BM25 score of passage i (Lucene's idf, always positive). Valid once every passage has been added. */
  score(i: number): number {
    const n = this.lengths.length;
    const avg = this.totalLength / n || 1;
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[i]) / avg);
    const row = this.hits[i];
    let sum = 0;
    for (let j = 0; j < row.length; j += 2) {
      const df = this.df[row[j]];
      const tf = row[j + 1];
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      sum += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
    }
    return sum;
  }
}

/** Ranks ahead: higher score, then earlier position (so ties are broken deterministically by document order). */
function ahead(a: { score: number; pos: number }, b: { score: number; pos: number }): boolean {
  return a.score > b.score || (a.score === b.score && a.pos < b.pos);
}

/** The best k of (pos, score) pairs offered one at a time, kept in a bounded min-heap; returned best first. */
export class TopK {
  private readonly heap: Array<{ score: number; pos: number }> = [];
  constructor(private readonly k: number) {}

  offer(pos: number, score: number): void {
    const item = { score, pos };
    const h = this.heap;
    if (h.length < this.k) {
      h.push(item);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!ahead(h[p], h[i])) break;
        [h[p], h[i]] = [h[i], h[p]];
        i = p;
      }
      return;
    }
    if (this.k === 0 || !ahead(item, h[0])) return;
    h[0] = item;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && ahead(h[worst], h[l])) worst = l;
      if (r < h.length && ahead(h[worst], h[r])) worst = r;
      if (worst === i) break;
      [h[worst], h[i]] = [h[i], h[worst]];
      i = worst;
    }
  }

  best(): Array<{ pos: number; score: number }> {
    return [...this.heap].sort((a, b) => (ahead(a, b) ? -1 : ahead(b, a) ? 1 : 0));
  }
}
