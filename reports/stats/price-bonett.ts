// Interval for the mean of several groups' mean scores (a suite's average over its tasks, each task weighted equally).
import { Z95, type Interval } from './wilson.js';

/**
 * Price & Bonett (2004, Computational Statistics & Data Analysis 45:449–456) adjusted Wald interval for a linear
 * function Σ cᵢπᵢ of m independent proportions, here their mean (cᵢ = 1/m): each group gets 2/m pseudo-successes
 * and 2/m pseudo-failures (4/m pseudo-trials), p̃ᵢ = (Sᵢ + 2/m)/(nᵢ + 4/m), and
 *
 *   Σ cᵢp̃ᵢ ± z · √( Σ cᵢ² vᵢ/(nᵢ + 4/m) ),   clipped to [0, 1],
 *
 * where vᵢ is the variance of group i's scores with the pseudo-observations, (Σs² + 2/m)/(nᵢ + 4/m) − p̃ᵢ². For
 * scores of 0 or 1 that is p̃ᵢ(1 − p̃ᵢ), Price & Bonett's interval exactly (with m = 1 Agresti & Coull's "plus four");
 * for partial credit in [0, 1] (string_match_all's 1/3, 1/4) it is the same adjustment on the sample variance. Unlike
 * a bootstrap it is not a point when every group scores the same on every sample (an all-right task).
 */
export function priceBonettMeanInterval(groups: ReadonlyArray<readonly number[]>, z = Z95): Interval {
  const m = groups.length;
  if (m === 0 || groups.some((g) => g.length === 0))
    throw new RangeError('priceBonettMeanInterval: every group needs scores');
  let centre = 0;
  let variance = 0;
  for (const g of groups) {
    let sum = 0;
    let squares = 0;
    for (const v of g) {
      if (!(v >= 0 && v <= 1)) throw new RangeError(`priceBonettMeanInterval: score ${v} is outside [0, 1]`);
      sum += v;
      squares += v * v;
    }
    const trials = g.length + 4 / m;
    const p = (sum + 2 / m) / trials;
    const v = Math.max(0, (squares + 2 / m) / trials - p * p);
    centre += p / m;
    variance += v / trials / (m * m);
  }
  const half = z * Math.sqrt(variance);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
