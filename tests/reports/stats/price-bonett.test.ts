import { test } from 'vitest';
import assert from 'node:assert/strict';
import { rngFor } from '../../../harness/util/rng.js';
import { priceBonettMeanInterval } from '../../../reports/stats/price-bonett.js';

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 5e-4, `${what}: ${a} vs ${b}`);

test('hand-computed cases: plus four for one group, two groups at 100% and 0%, partial credit', () => {
  // m = 1: (16 + 2)/(16 + 4) = 0.9, SE = √(0.9 · 0.1 / 20) = 0.06708, 0.9 ± 1.96 · 0.06708 = [0.7685, 1.0315] → 1.
  const one = priceBonettMeanInterval([new Array(16).fill(1)]);
  close(one.low, 0.7685, 'low');
  assert.equal(one.high, 1);
  // m = 2, 16/16 and 0/16: p̃ = 17/18 and 1/18, mean 0.5; SE = ½ √(2 · (17/18)(1/18)/18) = 0.03818; ± 0.07483.
  const two = priceBonettMeanInterval([new Array(16).fill(1), new Array(16).fill(0)]);
  close(two.low, 0.5 - 0.07483, 'low');
  close(two.high, 0.5 + 0.07483, 'high');
  // Partial credit: 4 scores of 0.5 (m = 1): p̃ = (2 + 2)/8 = 0.5, v = (1 + 2)/8 − 0.25 = 0.125, SE = √(0.125/8).
  const half = priceBonettMeanInterval([[0.5, 0.5, 0.5, 0.5]]);
  close(half.high - 0.5, 1.959964 * Math.sqrt(0.125 / 8), 'half width');
  assert.throws(() => priceBonettMeanInterval([[1], []]), RangeError);
  assert.throws(() => priceBonettMeanInterval([[1.5]]), RangeError);
});

test('it covers the mean of the true task rates in 92–98.5% of seeded datasets, tasks near 100% included', () => {
  // 11 tasks of 0/1 scores, 32 samples each, rates 0.60 … 1.00 (a RULER suite cell of a strong model at small n).
  const rates = Array.from({ length: 11 }, (_, t) => 0.6 + (0.4 * t) / 10);
  const truth = rates.reduce((a, b) => a + b, 0) / rates.length;
  const rng = rngFor('test', 'price-bonett-coverage');
  const datasets = 400;
  let covered = 0;
  for (let d = 0; d < datasets; d++) {
    const groups = rates.map((p) => Array.from({ length: 32 }, () => (rng.float() < p ? 1 : 0)));
    const ci = priceBonettMeanInterval(groups);
    if (ci.low <= truth && truth <= ci.high) covered++;
  }
  const share = covered / datasets;
  assert.ok(share >= 0.92 && share <= 0.985, `coverage ${share}`);
});
