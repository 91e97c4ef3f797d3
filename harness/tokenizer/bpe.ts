// Byte-pair merge with tiktoken's semantics (repeatedly merge the adjacent pair whose joined bytes have the lowest
// rank; leftmost on ties), in O(n log n) with a heap, so a piece of any length is cheap.

/** Token bytes (as a latin1 string, one char per byte) → rank. */
export type RankMap = Map<string, number>;

/** A min-heap of candidate merges ordered by (rank, start); each entry also keeps the pair's end offset. */
class MergeHeap {
  private readonly rank: number[] = [];
  private readonly start: number[] = [];
  private readonly end: number[] = [];
  get size(): number {
    return this.rank.length;
  }
  private less(a: number, b: number): boolean {
    return this.rank[a] < this.rank[b] || (this.rank[a] === this.rank[b] && this.start[a] < this.start[b]);
  }
  private swap(a: number, b: number): void {
    const { rank, start, end } = this;
    [rank[a], rank[b]] = [rank[b], rank[a]];
    [start[a], start[b]] = [start[b], start[a]];
    [end[a], end[b]] = [end[b], end[a]];
  }
  push(rank: number, start: number, end: number): void {
    this.rank.push(rank);
    this.start.push(start);
    this.end.push(end);
    for (let i = this.rank.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }
  /** Removes the top entry and returns its [start, end]. */
  pop(): [number, number] {
    const top: [number, number] = [this.start[0], this.end[0]];
    const last = this.rank.length - 1;
    this.swap(0, last);
    this.rank.pop();
    this.start.pop();
    this.end.pop();
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < last && this.less(l, m)) m = l;
      if (r < last && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}

/**
 * Merges one piece. bytes is the piece as a latin1 string (one char per UTF-8 byte); maxTokenBytes bounds the
 * lookups. Only merges into tokens ranked below maxRank are made (the build script uses this to check the vocabulary).
 * Throws if a byte has no rank (cannot happen with a byte-level vocabulary).
 */
export function bytePairEncode(bytes: string, ranks: RankMap, maxTokenBytes: number, maxRank = Infinity): number[] {
  return mergeByRank(bytes.length, (a, b) => ranks.get(bytes.slice(a, b)) ?? -1, maxTokenBytes, maxRank);
}

/**
 * bytePairEncode over a piece of n bytes whose sub-ranges' ranks `rankOf(start, end)` gives (-1: no token), so the
 * tokenizer can look ranks up in its byte table (byte-ranks.ts) without a string per lookup.
 */
export function mergeByRank(
  n: number,
  rankOf: (start: number, end: number) => number,
  maxTokenBytes: number,
  maxRank = Infinity,
): number[] {
  const whole = maxRank === Infinity && n <= maxTokenBytes ? rankOf(0, n) : -1;
  if (whole >= 0) return [whole];
  // Current parts form a linked list over byte offsets: part s is [s, next[s]); prev[s] is the part before it.
  // Parts only grow, so a heap entry (start, end) is still a live pair exactly when next[next[start]] === end.
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const alive = new Uint8Array(n + 1).fill(1);
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new MergeHeap();
  const consider = (start: number): void => {
    const mid = next[start];
    if (mid >= n) return;
    const end = next[mid];
    if (end - start > maxTokenBytes) return;
    const rank = rankOf(start, end);
    if (rank >= 0 && rank < maxRank) heap.push(rank, start, end);
  };
  for (let i = 0; i < n - 1; i++) consider(i);
  while (heap.size > 0) {
    const [start, end] = heap.pop();
    const mid = next[start];
    if (!alive[start] || mid >= n || next[mid] !== end) continue;
    alive[mid] = 0;
    next[start] = end;
    prev[end] = start;
    consider(start);
    if (prev[start] >= 0) consider(prev[start]);
  }
  const out: number[] = [];
  for (let s = 0; s < n; s = next[s]) {
    const r = rankOf(s, next[s]);
    if (r < 0) throw new Error(`no rank for the byte sequence at offset ${s} of a piece`);
    out.push(r);
  }
  return out;
}
