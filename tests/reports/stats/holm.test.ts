import { test } from 'vitest';
import assert from 'node:assert/strict';
import { holmAdjust, holmReject } from '../../../reports/stats/holm.js';

const near = (a: number[], b: number[]) => a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < 1e-12, `${a} vs ${b}`));

test('Holm: the textbook example of four hypotheses (Wikipedia "Holm–Bonferroni method", α = 0.05)', () => {
  // p = (H1 0.01, H2 0.04, H3 0.03, H4 0.005). Sorted: 0.005 < 0.05/4 = 0.0125 → reject H4; 0.01 < 0.05/3 = 0.0167 →
  // reject H1; 0.03 > 0.05/2 = 0.025 → stop: H3 and H2 are not rejected.
  // Adjusted: 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06.
  const p = [0.01, 0.04, 0.03, 0.005];
  near(holmAdjust(p), [0.03, 0.06, 0.06, 0.02]);
  assert.deepEqual(holmReject(p, 0.05), [true, false, false, true]);
});

test('Holm matches R p.adjust(c(0.01, 0.04, 0.20, 0.03, 0.005, 0.07), "holm")', () => {
  // Sorted 0.005·6 = 0.03, 0.01·5 = 0.05, 0.03·4 = 0.12, 0.04·3 = 0.12, 0.07·2 = 0.14, 0.20·1 = 0.20 (already monotone).
  near(holmAdjust([0.01, 0.04, 0.2, 0.03, 0.005, 0.07]), [0.05, 0.12, 0.2, 0.12, 0.03, 0.14]);
  // Capped at 1, monotone after sorting, empty in → empty out.
  near(holmAdjust([0.5, 0.4]), [0.8, 0.8]);
  assert.deepEqual(holmAdjust([]), []);
  assert.throws(() => holmAdjust([1.5]), RangeError);
});
