// Python difflib.SequenceMatcher(None, a, b).ratio() on strings (code points), including the "autojunk" heuristic:
// when b has 200 or more elements, elements occurring more than len(b) // 100 + 1 times are "popular" and are not
// used to seed matches (they can still extend one). Used by LongBench's code edit similarity (via fuzzywuzzy).

interface Block {
  i: number;
  j: number;
  size: number;
}

class Matcher {
  private readonly b2j = new Map<string, number[]>();

  constructor(
    private readonly a: readonly string[],
    private readonly b: readonly string[],
  ) {
    b.forEach((elt, j) => {
      const list = this.b2j.get(elt);
      if (list) list.push(j);
      else this.b2j.set(elt, [j]);
    });
    const n = b.length;
    if (n >= 200) {
      const ntest = Math.floor(n / 100) + 1;
      for (const [elt, idxs] of [...this.b2j]) if (idxs.length > ntest) this.b2j.delete(elt);
    }
  }

  private longestMatch(alo: number, ahi: number, blo: number, bhi: number): Block {
    const { a, b } = this;
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of this.b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // No junk function is given, so every element counts as non-junk when extending the best match.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
    return { i: besti, j: bestj, size: bestsize };
  }

  matches(): number {
    const queue: [number, number, number, number][] = [[0, this.a.length, 0, this.b.length]];
    let total = 0;
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const { i, j, size } = this.longestMatch(alo, ahi, blo, bhi);
      if (size > 0) {
        total += size;
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + size < ahi && j + size < bhi) queue.push([i + size, ahi, j + size, bhi]);
      }
    }
    return total;
  }
}

/** difflib.SequenceMatcher(None, a, b).ratio(): 2·M / (len(a) + len(b)), 1.0 for two empty strings. */
export function sequenceMatcherRatio(a: string, b: string): number {
  const ca = Array.from(a);
  const cb = Array.from(b);
  const total = ca.length + cb.length;
  if (total === 0) return 1.0;
  return (2.0 * new Matcher(ca, cb).matches()) / total;
}
