// The paired comparison of two methods (or models, or runs) over the sample ids they share.
import { pairedBootstrapInterval, type SeedParts } from './bootstrap.js';
import { isBinary } from './interval.js';
import { mcnemarExact } from './mcnemar.js';
import { signFlipTest } from './signflip.js';

export type PairedTest = 'mcnemar-exact' | 'sign-flip';

export interface PairedDifference {
  /** Shared ids (pairs). */
  n: number;
  meanA: number;
  meanB: number;
  /** meanB − meanA (fractions). */
  diff: number;
  /** Paired bootstrap 95% interval of diff. */
  ci95_low: number;
  ci95_high: number;
  /** McNemar exact when every paired score is 0 or 1, else the sign-flip randomization test. */
  test: PairedTest;
  /** Two-sided p-value of H0: no difference between A and B on these ids. */
  p: number;
  /** 0/1 scores only: pairs right only under A, and only under B (McNemar's b and c). */
  onlyA?: number;
  onlyB?: number;
}

/**
 * Paired difference of B over A: a[i] and b[i] are the two scores of one sample id. The interval is the paired
 * bootstrap (pairedBootstrapInterval); the p-value is the exact McNemar test when every score is 0 or 1, else the
 * paired sign-flip test (which for 0/1 scores is the same test).
 */
export function pairedDifference(a: readonly number[], b: readonly number[], seed: SeedParts): PairedDifference {
  const n = a.length;
  if (n === 0 || b.length !== n)
    throw new RangeError(
      `pairedDifference: need the same positive number of scores on both sides, got ${a.length} and ${b.length}`,
    );
  const meanA = a.reduce((s, x) => s + x, 0) / n;
  const meanB = b.reduce((s, x) => s + x, 0) / n;
  const ci = pairedBootstrapInterval(a, b, { seed });
  const base = { n, meanA, meanB, diff: meanB - meanA, ci95_low: ci.low, ci95_high: ci.high };
  if (isBinary(a) && isBinary(b)) {
    let onlyA = 0;
    let onlyB = 0;
    for (let i = 0; i < n; i++) {
      if (a[i] === 1 && b[i] === 0) onlyA++;
      else if (a[i] === 0 && b[i] === 1) onlyB++;
    }
    return { ...base, test: 'mcnemar-exact', p: mcnemarExact(onlyA, onlyB), onlyA, onlyB };
  }
  return {
    ...base,
    test: 'sign-flip',
    p: signFlipTest(
      b.map((x, i) => x - a[i]),
      seed,
    ),
  };
}
