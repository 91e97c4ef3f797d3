// Holm's step-down correction for multiple comparisons.

/**
 * Holm-adjusted p-values (Holm 1979, Scand J Statist 6:65–70), in the input order. With the m p-values sorted
 * ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎:
 *
 *   adjusted p₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎)
 *
 * Rejecting every hypothesis whose adjusted p is ≤ α is Holm's procedure (compare p₍ᵢ₎ with α/(m − i + 1) from the
 * smallest up and stop at the first that fails); it controls the family-wise error rate at α for any dependence
 * between the tests. Same values as R's p.adjust(p, "holm").
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues)
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p-values must be in [0, 1], got ${p}`);
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Which hypotheses Holm's procedure rejects at family-wise level alpha (adjusted p ≤ alpha). */
export function holmReject(pValues: readonly number[], alpha = 0.05): boolean[] {
  return holmAdjust(pValues).map((p) => p <= alpha);
}
