// The exact McNemar test for paired 0/1 outcomes.

/**
 * Two-sided exact (conditional) McNemar p-value (McNemar 1947, Psychometrika 12:153–157). Of the pairs that
 * disagree, `b` scored 1 only under A and `c` only under B; under H0 (both equally likely to be right) b given
 * b + c is Binomial(b + c, 1/2), so
 *
 *   p = min(1, 2 · P(X ≤ min(b, c))),   X ~ Binomial(b + c, 1/2);   p = 1 when b + c = 0.
 *
 * Concordant pairs carry no information. Fagerland, Lydersen & Laake (2013, BMC Med Res Methodol 13:91, the
 * airway hyper-responsiveness example) give b = 1, c = 7 → p = 0.070. The sum runs in log space, so b + c in the
 * thousands neither overflows nor underflows to a wrong value; up to 1,000 pairs it sums binomial coefficients directly.
 */
export function mcnemarExact(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0)
    throw new RangeError(`mcnemarExact: counts must be whole numbers ≥ 0, got ${b}, ${c}`);
  const m = b + c;
  if (m === 0) return 1;
  const k = Math.min(b, c);
  if (m <= 1000) {
    // C(m, i) = C(m, i − 1)·(m − i + 1)/i is an integer and exact while below 2^53; 2^−m scales without rounding.
    let term = 1;
    let sum = 1;
    for (let i = 1; i <= k; i++) {
      term = (term * (m - i + 1)) / i;
      sum += term;
    }
    return Math.min(1, 2 * sum * 2 ** -m);
  }
  // log P(X = i) = log C(m, i) − m·log 2, with log C(m, i) = log C(m, i − 1) + log((m − i + 1) / i).
  let logPmf = -m * Math.LN2;
  let tail = Math.exp(logPmf);
  for (let i = 1; i <= k; i++) {
    logPmf += Math.log((m - i + 1) / i);
    tail += Math.exp(logPmf);
  }
  return Math.min(1, 2 * tail);
}
