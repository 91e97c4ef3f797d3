// Wilson score interval for a binomial proportion.

/** Φ⁻¹(0.975): the two-sided 95% standard normal quantile. */
export const Z95 = 1.959963984540054;

/** A two-sided interval on the 0..1 scale. */
export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval (Wilson 1927, JASA 22:209–212) for `successes` out of `n` Bernoulli trials:
 *
 *   p̂ = x / n,   centre = (p̂ + z²/(2n)) / (1 + z²/n),   half = z / (1 + z²/n) · √( p̂(1 − p̂)/n + z²/(4n²) )
 *   interval = [centre − half, centre + half]
 *
 * It is the set of p whose score test |p̂ − p| / √(p(1 − p)/n) ≤ z does not reject, so it never leaves [0, 1] and is
 * not degenerate at p̂ = 0 or 1 (the Wald interval p̂ ± z·√(p̂(1 − p̂)/n) is). Newcombe (1998, Stat Med 17:857–872,
 * Table I, method 3) gives 81/263 → 0.2553–0.3662, 15/148 → 0.0624–0.1605, 0/20 → 0–0.1611, 1/29 → 0.0061–0.1718;
 * Brown, Cai & DasGupta (2001, Stat Sci 16:101–133) recommend it over the Wald interval for every n.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`wilsonInterval: n must be a positive integer, got ${n}`);
  if (!(successes >= 0 && successes <= n))
    throw new RangeError(`wilsonInterval: successes must be in [0, ${n}], got ${successes}`);
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At x = 0 (x = n) the bound is 0 (1) exactly; rounding would otherwise leave ±1e-17.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}
