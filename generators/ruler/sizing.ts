// Sizing: the largest haystack (in words or lines) whose whole prompt plus the generation budget fits the target.
import type { Tokenizer } from '../../harness/types.js';

const MAX_UNITS = 2 ** 40;

/**
 * Largest u >= 1 with total(u) <= budget, or 0 when even u = 1 does not fit. `total` grows with u up to a token
 * or two of boundary effects, so the search keeps the invariant total(lo) <= budget < total(hi) and never
 * returns a size that is over the budget. `estimate` is a guess of the answer; the search steps up from it by 1%,
 * doubling the step, so a lazily generated haystack is generated little past the answer. Every loop is bounded.
 */
export function largestFitting(total: (u: number) => number, budget: number, estimate: number): number {
  if (total(1) > budget) return 0;
  let lo = 1;
  let hi = Math.max(2, Math.floor(estimate));
  if (total(hi) <= budget) {
    lo = hi;
    for (let step = Math.max(1, Math.ceil(hi / 100)); ; step *= 2) {
      hi = lo + step;
      if (hi > MAX_UNITS) throw new Error('NIAH sizing did not converge');
      if (total(hi) > budget) break;
      lo = hi;
    }
  }
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (total(mid) <= budget) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * How a sample's haystack size is chosen (task option --sizing, docs/PROTOCOLS.md §c.4):
 * - 'exact' (default, our choice): the largest size that fits this sample's own prompt (largestFitting).
 * - 'ruler': NVIDIA/RULER niah.py's generate_samples: one size per task and length (`start`, found by a search on a
 *   probe sample), then per sample, while the prompt is over the budget, `step` units fewer (500 words for essays,
 *   25 lines for noise/needle haystacks, 5 below 4096 tokens). A sample still over budget at `step` units (RULER
 *   loops forever there) falls back to the exact size.
 */
export type SizingRule = { kind: 'exact' } | { kind: 'ruler'; start: number; step: number };

/** The haystack size under a sizing rule (0 when nothing fits). */
export function fitUnits(
  total: (u: number) => number,
  budget: number,
  estimate: number,
  rule: SizingRule = { kind: 'exact' },
): number {
  if (rule.kind === 'exact') return largestFitting(total, budget, estimate);
  let u = rule.start;
  while (u > rule.step && total(u) > budget) u -= rule.step;
  return u >= 1 && total(u) <= budget ? u : largestFitting(total, budget, Math.max(1, u));
}

/** RULER's step ("incremental") for a haystack kind and token target. */
export function rulerStep(haystack: 'essay' | 'noise' | 'needle', budget: number): number {
  if (haystack === 'essay') return 500;
  return budget < 4096 ? 5 : 25;
}

/**
 * Tokens that joining two texts adds or removes at the seam: count(a + b) - count(a) - count(b). Used with a short
 * head or tail of the context that starts or ends at a pre-tokenizer boundary, so the count of a whole prompt is
 * exact without encoding the context. Memoised per (a, b).
 */
export class SeamCounter {
  private readonly memo = new Map<string, number>();
  private readonly counts = new Map<string, number>();
  constructor(private readonly tokenizer: Tokenizer) {}

  count(text: string): number {
    let c = this.counts.get(text);
    if (c === undefined) {
      c = this.tokenizer.count(text);
      if (this.counts.size > 4096) this.counts.clear();
      this.counts.set(text, c);
    }
    return c;
  }

  seam(a: string, b: string): number {
    const key = `${a.length}:${a}\u0000${b}`;
    let s = this.memo.get(key);
    if (s === undefined) {
      s = this.tokenizer.count(a + b) - this.count(a) - this.count(b);
      if (this.memo.size > 4096) this.memo.clear();
      this.memo.set(key, s);
    }
    return s;
  }
}
