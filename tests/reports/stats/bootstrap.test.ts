import { test } from 'vitest';
import assert from 'node:assert/strict';
import { rngFor } from '../../../harness/util/rng.js';
import { bootstrapMeanInterval, pairedBootstrapInterval, quantileSorted } from '../../../reports/stats/bootstrap.js';
import { pairedDifference } from '../../../reports/stats/paired.js';
import { scoreInterval } from '../../../reports/stats/interval.js';

test('quantiles interpolate between order statistics (Hyndman–Fan type 7)', () => {
  // x = 1..5: h = 4q; q = 0.025 → h = 0.1 → 1 + 0.1·(2 − 1) = 1.1; q = 0.975 → h = 3.9 → 4 + 0.9 = 4.9.
  assert.equal(quantileSorted([1, 2, 3, 4, 5], 0.025), 1.1);
  assert.ok(Math.abs(quantileSorted([1, 2, 3, 4, 5], 0.975) - 4.9) < 1e-12);
  assert.equal(quantileSorted([7], 0.5), 7);
});

test('the bootstrap is seeded: same values and seed, same interval; constant values give a point', () => {
  const values = Array.from({ length: 50 }, (_, i) => ((i * 37) % 11) / 10);
  const a = bootstrapMeanInterval(values, { seed: ['s', 1] });
  assert.deepEqual(bootstrapMeanInterval(values, { seed: ['s', 1] }), a);
  assert.notDeepEqual(bootstrapMeanInterval(values, { seed: ['s', 2] }), a);
  assert.deepEqual(bootstrapMeanInterval([0.4, 0.4, 0.4], { seed: ['s'] }), { low: 0.4, high: 0.4 });
});

test('bootstrap percentile interval covers the mean of a skewed continuous score in 88–98% of seeded datasets', () => {
  // Scores like token F1: 0 with probability 0.3, else U², so the mean is 0.7 · E[U²] = 0.7/3. The percentile
  // bootstrap is first-order accurate, so at n = 64 it undercovers a little; the band is looser than Wilson's.
  const mean = 0.7 / 3;
  const rng = rngFor('test', 'bootstrap-coverage');
  const datasets = 300;
  let covered = 0;
  for (let d = 0; d < datasets; d++) {
    const values = Array.from({ length: 64 }, () => (rng.float() < 0.3 ? 0 : rng.float() ** 2));
    const ci = bootstrapMeanInterval(values, { seed: ['coverage', d] });
    if (ci.low <= mean && mean <= ci.high) covered++;
  }
  const share = covered / datasets;
  assert.ok(share >= 0.88 && share <= 0.98, `coverage ${share}`);
});

test('paired bootstrap: hand-computed cases', () => {
  // 1) Every id differs by the same amount: every resample's mean difference is that amount → [0.25, 0.25].
  assert.deepEqual(pairedBootstrapInterval([0.5, 0.25, 0], [0.75, 0.5, 0.25], { seed: ['p'] }), {
    low: 0.25,
    high: 0.25,
  });
  // 2) Two ids with differences 0 and 1: a resample of 2 ids has mean 0 (prob 1/4), 0.5 (1/2) or 1 (1/4). Of 2,000
  //    sorted means about 500 are 0 and 500 are 1, so the 2.5% point (position 0.025·1999 ≈ 50) is 0 and the 97.5%
  //    point (≈ 1949) is 1: the interval is [0, 1].
  assert.deepEqual(pairedBootstrapInterval([0, 0], [0, 1], { seed: ['p'] }), { low: 0, high: 1 });
  // 3) 100 ids of 0/1 scores: 30 right only under B (d = +1), 10 only under A (d = −1), 60 the same (d = 0).
  //    mean d = (30 − 10)/100 = 0.20; the bootstrap variance of the mean is σ̂²/n with σ̂² = E[d²] − d̄² =
  //    0.40 − 0.04 = 0.36, so SE = 0.06 and the normal approximation is 0.20 ± 1.96·0.06 = [0.0824, 0.3176].
  //    The percentile interval of 2,000 resamples lands within 0.015 of each end.
  const a = [...new Array(30).fill(0), ...new Array(10).fill(1), ...new Array(30).fill(1), ...new Array(30).fill(0)];
  const b = [...new Array(30).fill(1), ...new Array(10).fill(0), ...new Array(30).fill(1), ...new Array(30).fill(0)];
  const ci = pairedBootstrapInterval(a, b, { seed: ['p'] });
  assert.ok(Math.abs(ci.low - 0.0824) < 0.015 && Math.abs(ci.high - 0.3176) < 0.015, JSON.stringify(ci));
  //    The same table through pairedDifference: McNemar b = 10 (only A), c = 30 (only B):
  //    p = 2·P(X ≤ 10), X ~ Bin(40, 1/2) = 2·Σ_{k≤10} C(40,k)/2^40 = 2·1,221,246,132 / 1,099,511,627,776 ≈ 0.0022215.
  const d = pairedDifference(a, b, ['p']);
  assert.equal(d.test, 'mcnemar-exact');
  assert.equal(d.onlyA, 10);
  assert.equal(d.onlyB, 30);
  assert.ok(Math.abs(d.diff - 0.2) < 1e-12);
  assert.ok(Math.abs(d.p - (2 * 1221246132) / 1099511627776) < 1e-12, String(d.p));
  assert.deepEqual([d.ci95_low, d.ci95_high], [ci.low, ci.high]);
});

test('pairing narrows the interval when the two sides agree on most ids', () => {
  // 45/100 vs 55/100, B right on every id A is right on: 10 discordant pairs, all +1 (McNemar p = 2/2^10). The
  // paired SE is √((0.10 − 0.01)/100) = 0.03, so the interval is about 0.10 ± 0.06 and excludes 0, while the two
  // Wilson intervals, [0.355, 0.548] and [0.452, 0.645], overlap.
  const a = Array.from({ length: 100 }, (_, i) => (i < 45 ? 1 : 0));
  const b = Array.from({ length: 100 }, (_, i) => (i < 55 ? 1 : 0));
  const paired = pairedBootstrapInterval(a, b, { seed: ['w'] });
  const wa = scoreInterval(a, ['a']);
  const wb = scoreInterval(b, ['b']);
  assert.ok(paired.high - paired.low < wa.high - wa.low, "paired interval narrower than one score's interval");
  assert.ok(paired.low > 0, 'and it excludes 0');
  assert.ok(wb.low < wa.high, 'while the two unpaired Wilson intervals overlap');
});

test('scoreInterval: Wilson for 0/1 groups, bootstrap otherwise', () => {
  assert.equal(scoreInterval([1, 0, 1, 1], ['x']).method, 'wilson');
  assert.equal(scoreInterval([1, 0, 0.5], ['x']).method, 'bootstrap');
  const ci = scoreInterval([0, 0, 0], ['x']);
  assert.equal(ci.low, 0);
  assert.ok(ci.high > 0.4, 'Wilson does not collapse at 0/3');
});
