// Paired randomization (sign-flip) test, for paired scores that are not all 0/1.
import { rngFor } from '../../harness/util/rng.js';
import type { SeedParts } from './bootstrap.js';

/** Up to this many nonzero differences every sign pattern is enumerated (2^16 = 65,536); above it, Monte Carlo. */
export const SIGN_FLIP_EXACT_MAX = 16;
/** Random sign patterns of the Monte Carlo test. */
export const SIGN_FLIP_ROUNDS = 9999;

/**
 * Two-sided paired randomization test (Fisher 1935, The Design of Experiments §21; Good 2005, Permutation,
 * Parametric and Bootstrap Tests of Hypotheses §3.3) of H0: each difference dᵢ = bᵢ − aᵢ is as likely to have
 * either sign (the A and B labels are exchangeable within a pair). Statistic T = |Σ dᵢ|; each pattern of signs
 * s ∈ {−1, +1}ⁿ gives T* = |Σ sᵢ·dᵢ|, and
 *
 *   exact (≤ 16 nonzero dᵢ):  p = #{patterns with T* ≥ T} / 2^m   (zero differences do not change T*)
 *   Monte Carlo:              p = (1 + #{R random patterns with T* ≥ T}) / (R + 1)   (Phipson & Smyth 2010,
 *                             Stat Appl Genet Mol Biol 9:39: never 0, and a valid p-value for any R)
 *
 * For 0/1 scores the differences are ±1 and T* = |2X − m| with X ~ Binomial(m, 1/2): the exact test is then the
 * exact McNemar test. Ties T* = T count as "at least as extreme" (with a 1e-12 tolerance for float sums).
 */
export function signFlipTest(differences: readonly number[], seed: SeedParts, rounds = SIGN_FLIP_ROUNDS): number {
  const d = differences.filter((x) => x !== 0);
  const m = d.length;
  if (m === 0) return 1;
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  const tol =
    1e-12 *
    Math.max(
      1,
      d.reduce((s, x) => s + Math.abs(x), 0),
    );
  if (m <= SIGN_FLIP_EXACT_MAX) {
    const patterns = 2 ** m;
    let extreme = 0;
    for (let mask = 0; mask < patterns; mask++) {
      let t = 0;
      for (let i = 0; i < m; i++) t += mask & (1 << i) ? -d[i] : d[i];
      if (Math.abs(t) >= observed - tol) extreme++;
    }
    return extreme / patterns;
  }
  const rng = rngFor('bench-sign-flip', ...seed);
  let extreme = 0;
  for (let r = 0; r < rounds; r++) {
    let t = 0;
    for (let i = 0; i < m; i += 32) {
      const bits = rng.nextUint32();
      const end = Math.min(m, i + 32);
      for (let j = i; j < end; j++) t += (bits >>> (j - i)) & 1 ? -d[j] : d[j];
    }
    if (Math.abs(t) >= observed - tol) extreme++;
  }
  return (1 + extreme) / (rounds + 1);
}
