// bench plan --calibrate on exact traces of the simulated server (no clock): the fit recovers the parameters the
// trace was made with, from a start far away; calibrate-run.test.ts does the same through the CLI on a real run's
// calls.jsonl, and the live comparison (wall clock) is `npm run bench:plan`.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fitCalibration, readTimedCalls, nnls } from '../../../reference/plan/calibrate.js';
import { gpuParams, type GpuParams } from '../../../reference/simulator/gpu-params.js';
import { memagentSweep } from '../../../reference/simulator/workload.js';
import { RULER_HQA_LENGTHS } from '../../../generators/ruler-hqa/sweep-grid.js';
import { UserError } from '../../../harness/errors.js';
import { asCallRecords, simulatedTrace } from './sim-trace.js';

/** A start the fit must walk away from: half the prefill rate, twice the step, a third of the per-sequence cost. */
const wrong = (p: GpuParams): GpuParams => ({
  ...p,
  prefillTokensPerS: p.prefillTokensPerS / 2,
  stepBaseMs: p.stepBaseMs * 2,
  stepPerSeqMs: p.stepPerSeqMs / 3,
});

function assertRecovers(
  truth: GpuParams,
  fit: { prefillTokensPerS: number; stepBaseMs: number; stepPerSeqMs: number },
  tolerance: number,
): void {
  for (const k of ['prefillTokensPerS', 'stepBaseMs', 'stepPerSeqMs'] as const) {
    const ratio = fit[k] / truth[k];
    assert.ok(Math.abs(ratio - 1) <= tolerance, `${k}: fitted ${fit[k]}, true ${truth[k]} (ratio ${ratio.toFixed(3)})`);
  }
}

test('queue-free run: the closed form recovers prefill-tps, step-ms and step-per-seq-ms within 5%', () => {
  const truth = gpuParams('qwen2.5-7b-h100');
  const calls = simulatedTrace(truth, memagentSweep({ samples: 8, lengths: RULER_HQA_LENGTHS.slice(0, 3) }), 32);
  const fit = fitCalibration(calls, wrong(truth));
  assert.equal(fit.method, 'closed form (queue-free)');
  assertRecovers(truth, fit, 0.05);
  assert.equal(fit.warmup, 24, 'the 24 calls sent before the first finished are left out');
  assert.equal(fit.fitted + fit.warmup, calls.length);
  assert.ok(fit.outputs.update.median > 300 && fit.outputs.update.median < 550, JSON.stringify(fit.outputs));
});

test('a run that queued beyond the batch: the replay through the simulator recovers the parameters within 3%', () => {
  const truth = gpuParams('qwen2.5-14b-h100'); // 28 slots, 64 samples in flight
  const calls = simulatedTrace(truth, memagentSweep({ samples: 16, lengths: RULER_HQA_LENGTHS.slice(0, 3) }), 64);
  const fit = fitCalibration(calls, wrong(truth));
  assert.equal(fit.method, 'replay through the simulator');
  assert.ok(fit.peakInFlight > 28);
  assertRecovers(truth, fit, 0.03);
});

test('calls.jsonl in wall-clock time at --time-scale X reads back in simulated seconds', () => {
  const truth = gpuParams('qwen2.5-7b-h100');
  const calls = simulatedTrace(truth, memagentSweep({ samples: 8, lengths: RULER_HQA_LENGTHS.slice(0, 3) }), 16);
  const dir = mkdtempSync(join(tmpdir(), 'bench-calib-'));
  const records = asCallRecords(calls, 50);
  // a cached call and a retried call only count as load; a call without a start time is not read
  records.push({ ...records[0], cached: true, latencyMs: 0 });
  records[1] = { ...records[1], retries: 2 };
  const { startedAt: _s, ...old } = records[2];
  records.push(old);
  writeFileSync(join(dir, 'calls.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const read = readTimedCalls(dir, 50);
  assert.equal(read.withoutTimes, 1);
  assert.equal(read.calls.length, calls.length);
  assert.equal(read.calls.filter((c) => !c.usable).length, 1);
  assert.ok(Math.abs(read.calls[5].latencyS - calls[5].latencyS) < 1e-6);
  assert.ok(Math.abs(read.calls[5].startS - read.calls[0].startS - (calls[5].startS - calls[0].startS)) < 1e-3);
  assertRecovers(truth, fitCalibration(read.calls, wrong(truth)), 0.05);
});

test('a run directory without start times, or without calls.jsonl, is a one-line usage error', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-calib-'));
  const isUsage = (re: RegExp) => (e: unknown) =>
    e instanceof UserError && re.test(e.message) && !e.message.includes('\n');
  assert.throws(() => readTimedCalls(dir), isUsage(/has no calls.jsonl/));
  writeFileSync(
    join(dir, 'calls.jsonl'),
    JSON.stringify({
      sampleId: 'a',
      method: 'memagent',
      step: 0,
      kind: 'update',
      latencyMs: 5,
      usage: { promptTokens: 1, completionTokens: 1 },
      status: 'ok',
      retries: 0,
      cached: false,
    }) + '\n',
  );
  assert.throws(() => readTimedCalls(dir), isUsage(/records no call start times/));
});

test('nnls drops a column whose unconstrained coefficient is negative', () => {
  const rows = [
    [1, 0],
    [1, 1],
    [1, 2],
    [1, 3],
  ];
  assert.deepEqual(
    nnls(rows, [3, 2, 1, 0]).map((x) => Math.round(x * 1e9) / 1e9),
    [1.5, 0],
  );
  const exact = nnls(
    [
      [1, 1],
      [1, 2],
      [2, 1],
    ],
    [5, 8, 7],
  );
  assert.ok(Math.abs(exact[0] - 2) < 1e-9 && Math.abs(exact[1] - 3) < 1e-9, String(exact));
});
