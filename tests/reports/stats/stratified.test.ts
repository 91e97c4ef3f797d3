import { test } from 'vitest';
import assert from 'node:assert/strict';
import { rngFor } from '../../../harness/util/rng.js';
import { bootstrapMeanInterval, stratifiedMeanOfMeansInterval } from '../../../reports/stats/bootstrap.js';

test('stratified bootstrap: hand-computed case, seeding, constant groups', () => {
  // Group A is always 1; group B = [0, 1] resamples to a mean of 0 (prob 1/4), 0.5 (1/2) or 1 (1/4). The mean of
  // the two means is 0.5, 0.75 or 1 with those probabilities: of 2,000 sorted values about 500 are 0.5 and 500 are 1,
  // so the 2.5% and 97.5% points are 0.5 and 1.
  assert.deepEqual(
    stratifiedMeanOfMeansInterval(
      [
        [1, 1, 1, 1],
        [0, 1],
      ],
      { seed: ['s'] },
    ),
    { low: 0.5, high: 1 },
  );
  const groups = [
    Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? 1 : 0)),
    Array.from({ length: 10 }, (_, i) => i / 10),
  ];
  const a = stratifiedMeanOfMeansInterval(groups, { seed: ['s', 1] });
  assert.deepEqual(stratifiedMeanOfMeansInterval(groups, { seed: ['s', 1] }), a);
  assert.notDeepEqual(stratifiedMeanOfMeansInterval(groups, { seed: ['s', 2] }), a);
  assert.deepEqual(stratifiedMeanOfMeansInterval([[0.25, 0.25], [1]], { seed: ['s'] }), { low: 0.625, high: 0.625 });
  assert.throws(() => stratifiedMeanOfMeansInterval([[1], []], { seed: ['s'] }), RangeError);
});

test('it is centred on the mean of means, not on the pooled mean', () => {
  // 100 samples at 1 and 4 at 0 or 1: pooled mean 102/104 ≈ 0.98, mean of means (1 + 0.5)/2 = 0.75.
  const groups = [new Array(100).fill(1), [0, 1, 0, 1]];
  const strat = stratifiedMeanOfMeansInterval(groups, { seed: ['c'] });
  const pooled = bootstrapMeanInterval(groups.flat(), { seed: ['c'] });
  assert.ok(strat.low < 0.75 && 0.75 < strat.high, JSON.stringify(strat));
  assert.ok(pooled.low > 0.9, JSON.stringify(pooled));
});

test('it covers the mean of the true task rates in 88–98% of seeded datasets', () => {
  // 11 tasks of 0/1 scores at rates 0.3 … 0.95, 32 samples each (a RULER suite cell at small n).
  const rates = Array.from({ length: 11 }, (_, t) => 0.3 + (0.65 * t) / 10);
  const truth = rates.reduce((a, b) => a + b, 0) / rates.length;
  const rng = rngFor('test', 'stratified-coverage');
  const datasets = 200;
  let covered = 0;
  for (let d = 0; d < datasets; d++) {
    const groups = rates.map((p) => Array.from({ length: 32 }, () => (rng.float() < p ? 1 : 0)));
    const ci = stratifiedMeanOfMeansInterval(groups, { seed: ['coverage', d], resamples: 1000 });
    if (ci.low <= truth && truth <= ci.high) covered++;
  }
  const share = covered / datasets;
  assert.ok(share >= 0.88 && share <= 0.98, `coverage ${share}`);
});
