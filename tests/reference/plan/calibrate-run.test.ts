// End to end without a clock: a real `bench run` (the embedded reader) writes its calls.jsonl; the calls' times are
// replaced by the simulated GPU server's own clock (sim-trace.ts: the discrete-event engine, closed loop, as a run
// against `bench serve --simulate … --time-scale 4` would record them, only exactly); then `bench plan --calibrate`
// on that run directory must recover the hardware the times were made with, starting from a preset far from it.
// Nothing here measures time, so busy CPUs cannot move the fit. The comparison against a live simulated server, with
// its wall-clock noise, is `npm run bench:plan` (bench/plan.ts).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gpuParams, parseSimulateSpec, type GpuParams } from '../../../reference/simulator/gpu-params.js';
import type { CallRecord } from '../../../harness/types.js';
import { runBench } from '../../helpers/cli.js';
import { retimedRecords } from './sim-trace.js';

const TIME_SCALE = 4;
const PRESET = 'qwen2.5-7b-h100';
/** The hardware the times are made with: not the preset the calibration starts from. */
const TRUTH: GpuParams = {
  ...gpuParams(PRESET),
  prefillTokensPerS: gpuParams(PRESET).prefillTokensPerS * 0.6,
  stepBaseMs: gpuParams(PRESET).stepBaseMs * 1.6,
  stepPerSeqMs: gpuParams(PRESET).stepPerSeqMs * 1.4,
};
const FITTED = ['prefillTokensPerS', 'stepBaseMs', 'stepPerSeqMs'] as const;

test('bench plan --calibrate recovers the hardware of a run timed by the simulator, not the preset it starts from', async () => {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-calibrate-run-')), 'run');
  // Memory chains (3-4 calls, decode-heavy) beside one-shot full-context calls (prefill-heavy).
  const run = await runBench(
    [
      'run',
      'ruler-hqa',
      '--lengths',
      'docs:50..100',
      '--samples',
      '8',
      '--method',
      'memagent,full-context',
      '--no-progress',
      '--out',
      out,
    ],
    // A guard against a hung run only (no time is measured): busy CPUs may stretch these ~10 s a lot.
    { timeoutMs: 600_000 },
  );
  assert.equal(run.code, 0, run.stderr);
  const file = join(out, 'calls.jsonl');
  const records = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as CallRecord);
  assert.equal(records.length, 74);
  // 16 of the 32 chains (sample × method) in flight, the next one sent as one ends (bench run --concurrency 16).
  const timed = retimedRecords(records, TRUTH, 16, TIME_SCALE);
  writeFileSync(file, timed.map((r) => JSON.stringify(r)).join('\n') + '\n');

  const plan = await runBench([
    'plan',
    '--calibrate',
    out,
    '--simulate',
    PRESET,
    '--time-scale',
    String(TIME_SCALE),
    '--json',
  ]);
  assert.equal(plan.code, 0, plan.stderr);
  const { calibration } = JSON.parse(plan.stdout) as {
    calibration: {
      simulate: string;
      fit: { prefillTokensPerS: number; stepBaseMs: number; stepPerSeqMs: number; fitted: number; warmup: number };
    };
  };
  const { fit } = calibration;
  assert.equal(fit.fitted + fit.warmup, 74, 'every call is fitted or counted as warm-up load');
  const preset = gpuParams(PRESET);
  for (const k of FITTED) {
    // The start is at least 25% off, so a fit that stayed near it fails here.
    assert.ok(Math.abs(preset[k] / TRUTH[k] - 1) >= 0.25, k);
    const ratio = fit[k] / TRUTH[k];
    assert.ok(Math.abs(ratio - 1) <= 0.05, `${k}: fitted ${fit[k]}, true ${TRUTH[k]} (ratio ${ratio.toFixed(3)})`);
  }
  // The printed --simulate value is reusable as it stands.
  const reused = parseSimulateSpec(calibration.simulate);
  for (const k of FITTED) assert.ok(Math.abs(reused[k] / fit[k] - 1) < 1e-3, `${k}: ${calibration.simulate}`);
});
