// bench plan --calibrate on a noisy trace: real runs carry one-sided stalls (a busy client or server thread delays a
// reply, never speeds it up). The closed-form fit weights residuals with Huber weights (robustNnls), so a tenth of the
// calls stalled by a second must move the fitted parameters by a few percent at most (plain least squares: 10–50%).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { fitCalibration } from '../../../reference/plan/calibrate.js';
import { gpuParams } from '../../../reference/simulator/gpu-params.js';
import { memagentSweep } from '../../../reference/simulator/workload.js';
import { RULER_HQA_LENGTHS } from '../../../generators/ruler-hqa/sweep-grid.js';
import { simulatedTrace } from './sim-trace.js';

/** Largest relative move allowed per parameter: the per-sequence cost is the least determined of the three. */
const TOLERANCE = { prefillTokensPerS: 0.03, stepBaseMs: 0.03, stepPerSeqMs: 0.1 } as const;

test('10% of the calls stalled by +1 s (median latency 6 s) moves the closed-form fit by a few percent at most', () => {
  const truth = gpuParams('qwen2.5-7b-h100');
  const trace = () => simulatedTrace(truth, memagentSweep({ samples: 8, lengths: RULER_HQA_LENGTHS.slice(0, 3) }), 32);
  const clean = fitCalibration(trace(), truth);
  assert.equal(clean.method, 'closed form (queue-free)');
  // Two different tenths of the calls (by send order), so the result does not hang on which calls stall.
  for (const phase of [3, 5]) {
    const noisy = trace();
    let stalled = 0;
    noisy.forEach((c, i) => {
      if (i % 10 !== phase) return;
      c.latencyS += 1;
      stalled++;
    });
    assert.ok(stalled >= 10 && stalled <= Math.ceil(noisy.length / 10), `${stalled} of ${noisy.length} stalled`);
    const fit = fitCalibration(noisy, truth);
    assert.equal(fit.method, 'closed form (queue-free)');
    for (const [k, tol] of Object.entries(TOLERANCE) as [keyof typeof TOLERANCE, number][]) {
      const ratio = fit[k] / clean[k];
      assert.ok(
        Math.abs(ratio - 1) <= tol,
        `phase ${phase}, ${k}: noisy ${fit[k]}, clean ${clean[k]} (ratio ${ratio.toFixed(3)}, allowed ±${tol})`,
      );
    }
  }
});
