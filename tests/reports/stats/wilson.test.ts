import { test } from 'vitest';
import assert from 'node:assert/strict';
import { rngFor } from '../../../harness/util/rng.js';
import { wilsonInterval, Z95 } from '../../../reports/stats/wilson.js';

const close = (actual: number, expected: number, tol: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected} (±${tol})`);

test('Wilson interval reproduces Newcombe (1998) Table I, method 3, to the 4 decimals printed there', () => {
  // Newcombe RG. Two-sided confidence intervals for the single proportion: comparison of seven methods.
  // Stat Med 1998;17:857–872, Table I ("Score method without continuity correction").
  const published: Array<[number, number, number, number]> = [
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1.0],
  ];
  for (const [x, n, low, high] of published) {
    const ci = wilsonInterval(x, n);
    close(ci.low, low, 5e-5, `${x}/${n} low`);
    close(ci.high, high, 5e-5, `${x}/${n} high`);
  }
  // Full precision, cross-checked with scipy.stats.binomtest(81, 263).proportion_ci(method="wilson").
  const ci = wilsonInterval(81, 263);
  close(ci.low, 0.2552885198782742, 1e-12, 'low');
  close(ci.high, 0.36620957698280004, 1e-12, 'high');
  assert.deepEqual(wilsonInterval(0, 5).low, 0);
  assert.deepEqual(wilsonInterval(5, 5).high, 1);
  assert.equal(Z95, 1.959963984540054);
});

test('Wilson 95% interval covers p = 0.35 in 93–97% of 2,000 seeded Binomial(128, 0.35) draws', () => {
  // Its exact coverage at n = 128, p = 0.35 is 94.87% (Σ over k of Binomial(128, 0.35) pmf(k) where the interval
  // for k/128 contains 0.35); 2,000 draws put the simulated share within ±1.5 points of that with ~99.7% probability.
  const rng = rngFor('test', 'wilson-coverage');
  const p = 0.35;
  const n = 128;
  const draws = 2000;
  let covered = 0;
  for (let d = 0; d < draws; d++) {
    let x = 0;
    for (let i = 0; i < n; i++) if (rng.float() < p) x++;
    const ci = wilsonInterval(x, n);
    if (ci.low <= p && p <= ci.high) covered++;
  }
  const share = covered / draws;
  assert.ok(share >= 0.93 && share <= 0.97, `coverage ${share}`);
});

test('Wilson rejects impossible counts', () => {
  assert.throws(() => wilsonInterval(3, 2), RangeError);
  assert.throws(() => wilsonInterval(0, 0), RangeError);
});
