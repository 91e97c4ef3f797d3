// The simulated GPU's timing model, on simulated time only (no clock is read).
import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  GpuCluster,
  GpuEngine,
  createGpuSimulator,
  gpuParams,
  stepSeconds,
  decodeTokensPerS,
  type GpuParams,
} from '../../../reference/simulator/index.js';

const P: GpuParams = {
  name: 't',
  prefillTokensPerS: 10_000,
  stepBaseMs: 10,
  stepPerSeqMs: 1,
  maxBatch: 4,
  prefillChunkTokens: 4096,
};
const close = (a: number, b: number, msg?: string) =>
  assert.ok(Math.abs(a - b) < 1e-9 * Math.max(1, Math.abs(b)), `${msg ?? ''} ${a} != ${b}`);

function runAll(e: GpuEngine | GpuCluster) {
  return e.advance(Infinity);
}

test('prefill time is proportional to prompt tokens', () => {
  const doneAt = (prompt: number) => {
    const e = new GpuEngine(P);
    e.submit({ promptTokens: prompt, outputTokens: 1 });
    const [c] = runAll(e);
    return c.doneAt;
  };
  // one step: base + tokens / rate
  close(doneAt(1000), 0.01 + 1000 / 10_000);
  close(doneAt(2000) - doneAt(1000), 1000 / 10_000, 'extra 1000 tokens');
  close(doneAt(4000) - doneAt(2000), 2000 / 10_000, 'extra 2000 tokens');
  // longer than one step's budget: chunked over ceil(10000 / 4096) = 3 steps, each paying the base once
  close(doneAt(10_000), 3 * 0.01 + 10_000 / 10_000);
});

test('decode latency per token grows with the number of sequences in the batch', () => {
  const perToken = (batch: number) => {
    const e = new GpuEngine({ ...P, maxBatch: 64 });
    for (let i = 0; i < batch; i++) e.submit({ promptTokens: 10, outputTokens: 101 });
    const done = runAll(e);
    assert.equal(done.length, batch);
    const c = done[0];
    return (c.doneAt - c.firstTokenAt) / 100;
  };
  const l1 = perToken(1);
  const l8 = perToken(8);
  const l32 = perToken(32);
  close(l1, stepSeconds(P, 1));
  close(l8, stepSeconds(P, 8));
  close(l32, stepSeconds(P, 32));
  assert.ok(l1 < l8 && l8 < l32);
  // ...while throughput still grows with the batch
  assert.ok(decodeTokensPerS(P, 32) > decodeTokensPerS(P, 8));
});

test('requests beyond the max batch queue until a sequence finishes', () => {
  const e = new GpuEngine(P); // maxBatch 4
  const ids = Array.from({ length: 8 }, () => e.submit({ promptTokens: 100, outputTokens: 20 }));
  const done = runAll(e);
  assert.deepEqual(
    done.map((c) => c.id).sort((a, b) => a - b),
    ids,
  );
  const first = done.filter((c) => c.admittedAt === 0);
  const second = done.filter((c) => c.admittedAt > 0);
  assert.equal(first.length, 4);
  assert.equal(second.length, 4);
  const firstWaveEnd = Math.max(...first.map((c) => c.doneAt));
  for (const c of second) {
    close(c.admittedAt, firstWaveEnd, 'admitted when the first wave left');
    assert.ok(c.doneAt > firstWaveEnd);
  }
  assert.equal(e.idle, true);
  assert.equal(e.stats.completed, 8);
  assert.equal(e.stats.prefillTokens, 800);
  assert.equal(e.stats.decodeTokens, 8 * 20);
});

test('a request arriving during a step waits for the next step boundary', () => {
  const e = new GpuEngine(P);
  e.submit({ promptTokens: 10, outputTokens: 50 });
  const step = stepSeconds(P, 1);
  e.advance(0.5); // mid-run: only whole steps that end by 0.5
  assert.ok(e.now <= 0.5);
  const late = e.submit({ promptTokens: 10, outputTokens: 1 }, 0.5);
  const done = runAll(e);
  const c = done.find((d) => d.id === late)!;
  assert.ok(c.admittedAt >= 0.5 && c.admittedAt < 0.5 + step + 1e-12, `admitted at ${c.admittedAt}`);
});

test('advancing in pieces gives the same completions as one run, and nextCompletionAt predicts them', () => {
  const load = (e: GpuEngine) => {
    for (let i = 0; i < 10; i++) e.submit({ promptTokens: 500 + 300 * i, outputTokens: 5 + 7 * i });
  };
  const whole = new GpuEngine(P);
  load(whole);
  const expected = runAll(whole);
  const pieces = new GpuEngine(P);
  load(pieces);
  const got = [];
  // `now` stays at the start of a step that does not fit before the target, so the target moves on by itself
  for (let target = 0.037; !pieces.idle; target += 0.037) {
    assert.ok(target < 1e4, 'the engine makes progress');
    const predicted = pieces.nextCompletionAt();
    const batch = pieces.advance(target);
    for (const c of batch) assert.ok(c.doneAt >= predicted - 1e-9);
    got.push(...batch);
  }
  assert.equal(got.length, expected.length);
  got.forEach((c, i) => {
    assert.equal(c.id, expected[i].id);
    close(c.doneAt, expected[i].doneAt);
  });
  const probe = new GpuEngine(P);
  load(probe);
  close(probe.nextCompletionAt(), expected[0].doneAt);
  assert.equal(probe.stats.steps, 0, 'probing does not advance the engine');
});

test('cancel frees the slot for the next queued request', () => {
  const e = new GpuEngine({ ...P, maxBatch: 1 });
  const a = e.submit({ promptTokens: 10, outputTokens: 1000 });
  const b = e.submit({ promptTokens: 10, outputTokens: 1 });
  e.advance(0.2);
  assert.equal(e.running, 1);
  assert.equal(e.waiting, 1);
  assert.equal(e.cancel(a), true);
  assert.equal(e.cancel(a), false);
  const done = runAll(e);
  assert.deepEqual(
    done.map((c) => c.id),
    [b],
  );
  assert.ok(done[0].doneAt < 0.5);
});

test('replicas: requests spread over copies, so two finish as fast as one does alone', () => {
  const one = createGpuSimulator({ ...P, replicas: 1 });
  one.submit({ promptTokens: 1000, outputTokens: 50 });
  const [alone] = one.advance(Infinity);
  const two = createGpuSimulator({ ...P, replicas: 2 });
  assert.ok(two instanceof GpuCluster);
  two.submit({ promptTokens: 1000, outputTokens: 50 });
  two.submit({ promptTokens: 1000, outputTokens: 50 });
  const done = two.advance(Infinity, true);
  assert.equal(done.length, 2);
  for (const c of done) close(c.doneAt, alone.doneAt);
  assert.equal(two.stats.completed, 2);
});

test('presets exist and bad parameters are refused', () => {
  const p7 = gpuParams('qwen2.5-7b-h100');
  const p14 = gpuParams('qwen2.5-14b-h100');
  assert.ok(p14.prefillTokensPerS < p7.prefillTokensPerS);
  assert.ok(stepSeconds(p14, 8) > stepSeconds(p7, 8));
  assert.throws(() => gpuParams('nope'), /unknown --simulate preset 'nope'/);
  assert.throws(() => new GpuEngine({ ...P, maxBatch: 0 }), /max-batch/);
  assert.throws(() => new GpuEngine({ ...P, prefillChunkTokens: 2 }), /prefill-chunk/);
});
