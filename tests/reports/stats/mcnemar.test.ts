import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mcnemarExact } from '../../../reports/stats/mcnemar.js';
import { signFlipTest } from '../../../reports/stats/signflip.js';

test('exact McNemar p-values match hand computation and published tables', () => {
  // b = 1 (only A right), c = 7 (only B right), m = 8 discordant pairs:
  //   P(X ≤ 1) = (C(8,0) + C(8,1)) / 2^8 = (1 + 8) / 256 = 9/256;  p = 2 · 9/256 = 18/256 = 0.0703125.
  // Fagerland, Lydersen & Laake 2013 (BMC Med Res Methodol 13:91), AHR example: exact conditional p = 0.070.
  assert.equal(mcnemarExact(1, 7), 18 / 256);
  assert.equal(mcnemarExact(7, 1), 18 / 256);
  // b = 0, c = 5: p = 2 · (1/2)^5 = 1/16.
  assert.equal(mcnemarExact(0, 5), 1 / 16);
  // b = 1, c = 9: p = 2 · (1 + 10)/1024 = 22/1024 = 0.021484375.
  assert.equal(mcnemarExact(1, 9), 22 / 1024);
  // b = c: the two tails cover everything, p = 1; no discordant pairs: p = 1.
  assert.equal(mcnemarExact(4, 4), 1);
  assert.equal(mcnemarExact(0, 0), 1);
  // Agresti, Categorical Data Analysis (3rd ed., Table 11.1, presidential approval): b = 150, c = 86.
  // scipy.stats.binomtest(86, 236, 0.5).pvalue = 3.7159361395713866e-05.
  const p = mcnemarExact(150, 86);
  assert.ok(Math.abs(p - 3.7159361395713866e-5) < 1e-15, String(p));
  // Thousands of pairs: no overflow, a tiny p where the split is lopsided, 1 where it is even.
  assert.ok(mcnemarExact(900, 1100) < 1e-5);
  assert.equal(mcnemarExact(1000, 1000), 1);
  assert.throws(() => mcnemarExact(-1, 2), RangeError);
});

test('the sign-flip test is exact for few differences and equals McNemar on 0/1 scores', () => {
  // d = [0.5, 0.25, −0.25], T = |0.5| = 0.5. The 8 sign patterns give Σ = ±1, ±0.5, ±0.5, 0, 0 … precisely:
  // +++ 1.0, ++− 0.5, +−+ 0.5, +−− 0, −++ 0, −+− −0.5, −−+ −0.5, −−− −1.0 → |Σ| ≥ 0.5 in 6 of 8: p = 0.75.
  assert.equal(signFlipTest([0.5, 0.25, -0.25], ['t']), 0.75);
  // Zero differences do not count; none at all: p = 1.
  assert.equal(signFlipTest([0, 0.5, 0, 0.25, -0.25], ['t']), 0.75);
  assert.equal(signFlipTest([0, 0], ['t']), 1);
  // 0/1 scores: 7 pairs +1 and 1 pair −1 is McNemar b = 1, c = 7.
  assert.equal(signFlipTest([1, 1, 1, 1, 1, 1, 1, -1], ['t']), mcnemarExact(1, 7));
  // Above 16 nonzero differences: Monte Carlo with 9,999 rounds; 20 equal differences have exact p = 2/2^20, so
  // almost no random pattern reaches T and p = (1 + ~0)/10,000.
  const p = signFlipTest(new Array(20).fill(0.5), ['t']);
  assert.ok(p >= 1 / 10000 && p <= 2 / 10000, String(p));
  // Seeded: the same call gives the same p; a balanced set of 40 differences is far from significant.
  const balanced = Array.from({ length: 40 }, (_, i) => (i % 2 ? 0.3 : -0.3) * (1 + (i % 5) / 10));
  assert.equal(signFlipTest(balanced, ['x']), signFlipTest(balanced, ['x']));
  assert.ok(signFlipTest(balanced, ['x']) > 0.5);
});
