// The sign-flip test beyond SIGN_FLIP_EXACT_MAX nonzero differences (the Monte Carlo branch, what `bench report` and
// `bench compare` use for F1/ROUGE rows of more than 16 differing ids), against a brute-force count of all 2^m patterns.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { SIGN_FLIP_EXACT_MAX, SIGN_FLIP_ROUNDS, signFlipTest } from '../../../reports/stats/signflip.js';

/** Two-sided exact p by enumeration: the share of the 2^m sign patterns with |Σ sᵢ·dᵢ| ≥ |Σ dᵢ|. */
function bruteForceP(differences: readonly number[]): number {
  const d = differences.filter((x) => x !== 0);
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  let extreme = 0;
  for (let mask = 0; mask < 2 ** d.length; mask++) {
    let t = 0;
    for (let i = 0; i < d.length; i++) t += mask & (1 << i) ? -d[i] : d[i];
    if (Math.abs(t) >= observed - 1e-9) extreme++;
  }
  return extreme / 2 ** d.length;
}

// 18 mixed F1 differences (B − A per id), most in B's favour, plus two ties that the test ignores.
const DIFFS = [
  0.5, -0.25, 0.4, 0.1, -0.3, 0.6, 0.2, -0.15, 0.35, 0, 0.45, -0.5, 0.3, 0.05, -0.1, 0.25, 0.7, -0.2, 0.15, 0,
];

test('Monte Carlo branch (> 16 differing ids): the two-sided p matches the brute-force p, and so does the negated one', () => {
  const nonzero = DIFFS.filter((x) => x !== 0).length;
  assert.equal(nonzero, 18);
  assert.ok(nonzero > SIGN_FLIP_EXACT_MAX, 'the data must reach the Monte Carlo branch');
  const exact = bruteForceP(DIFFS);
  // A p in the middle of the range, so a one-sided p (half of it) or 1 − p/2 is far outside the tolerance.
  assert.ok(exact > 0.05 && exact < 0.3, `exact p = ${exact}`);
  // Monte Carlo SE at R = 9,999 is √(p(1−p)/R) ≤ 0.005: allow 5 SE.
  const tol = 5 * Math.sqrt((exact * (1 - exact)) / SIGN_FLIP_ROUNDS);
  const p = signFlipTest(DIFFS, ['signflip-test']);
  assert.ok(Math.abs(p - exact) < tol, `Monte Carlo p = ${p}, brute force ${exact}, tolerance ${tol}`);
  // Two-sided: swapping A and B (every difference negated) gives the same p.
  const negated = DIFFS.map((x) => -x);
  assert.equal(bruteForceP(negated), exact);
  const pNeg = signFlipTest(negated, ['signflip-test']);
  assert.ok(Math.abs(pNeg - exact) < tol, `negated: Monte Carlo p = ${pNeg}, brute force ${exact}`);
  // Another seed, the same answer within Monte Carlo error.
  assert.ok(Math.abs(signFlipTest(DIFFS, ['another seed']) - exact) < tol);
});

test('Monte Carlo branch: a clear difference gets a small p, the same for negated differences, never 0', () => {
  const strong = [0.5, 0.4, 0.6, 0.3, 0.45, 0.55, 0.35, 0.5, -0.05, 0.4, 0.6, 0.3, 0.25, 0.5, 0.45, 0.35, 0.4, 0.3];
  const exact = bruteForceP(strong);
  assert.ok(exact < 0.001, `exact p = ${exact}`);
  for (const d of [strong, strong.map((x) => -x)]) {
    const p = signFlipTest(d, ['strong']);
    assert.ok(p > 0 && p <= 0.002, `p = ${p}`);
  }
});
