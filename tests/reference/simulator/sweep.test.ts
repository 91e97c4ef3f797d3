// The synthetic MemAgent sweep, the client-side simulation of schedules, and the lower bound.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import {
  DEFAULT_WORKLOAD,
  memagentChain,
  memagentSweep,
  type SimChain,
} from '../../../reference/simulator/workload.js';
import { RULER_HQA_LENGTHS } from '../../../generators/ruler-hqa/sweep-grid.js';
import { simulateSweep, sweepLowerBound } from '../../../reference/simulator/sweep.js';
import { gpuParams, type GpuParams } from '../../../reference/simulator/gpu-params.js';
import { longestChainFirst } from '../../../harness/runner/schedule-policy.js';
import { scheduleUnits, type WorkUnit } from '../../../harness/runner/units.js';
import type { PreparedTask, TaskDefinition } from '../../../harness/types.js';

test('a MemAgent chain: ceil(tokens / 5000) updates carrying the previous memory, then the final call', () => {
  const w = DEFAULT_WORKLOAD;
  for (const length of [RULER_HQA_LENGTHS[0], RULER_HQA_LENGTHS[5]]) {
    const ch = memagentChain(w, length, 3);
    assert.ok(ch.contextTokens >= length.minTokens && ch.contextTokens <= length.maxTokens);
    const updates = Math.ceil(ch.contextTokens / 5000);
    assert.equal(ch.calls.length, updates + 1);
    let chunks = 0;
    ch.calls.forEach((c, i) => {
      assert.ok(c.output >= 1 && c.output <= 1024);
      const memory = i === 0 ? w.initialMemory : ch.calls[i - 1].output;
      if (i < updates) {
        const chunk = c.prompt - w.updateOverhead - memory;
        assert.ok(chunk > 0 && chunk <= 5000);
        chunks += chunk;
      } else assert.equal(c.prompt, w.finalOverhead + memory);
    });
    assert.equal(chunks, ch.contextTokens);
  }
  assert.deepEqual(memagentChain(w, RULER_HQA_LENGTHS[2], 7), memagentChain(w, RULER_HQA_LENGTHS[2], 7));
  assert.notDeepEqual(
    memagentChain(w, RULER_HQA_LENGTHS[2], 7).calls,
    memagentChain({ ...w, seed: 1 }, RULER_HQA_LENGTHS[2], 7).calls,
  );
  const longest = memagentChain(w, RULER_HQA_LENGTHS[9], 0); // ~3.6M tokens
  assert.ok(longest.calls.length >= 713 && longest.calls.length <= 735, `${longest.calls.length} calls`);
});

const P: GpuParams = { ...gpuParams('qwen2.5-7b-h100'), maxBatch: 8 };
const small = memagentSweep({ samples: 6, lengths: RULER_HQA_LENGTHS.slice(0, 5) });

test('every schedule runs every call, within its limits, and never beats the strict lower bound', () => {
  const bound = sweepLowerBound(P, small);
  const total = small.reduce((n, c) => n + c.calls.length, 0);
  const groups = [...new Set(small.map((c) => c.group))].map((g) => small.filter((c) => c.group === g));
  const lcf = longestChainFirst(small, (c) => c.calls.length);
  const runs = [
    simulateSweep(P, { kind: 'phased', name: 'lbl', phases: groups, concurrency: 4 }),
    simulateSweep(P, { kind: 'ordered', name: 'canonical', order: small, concurrency: 4 }),
    simulateSweep(P, { kind: 'ordered', name: 'lcf', order: lcf, concurrency: 16 }),
    simulateSweep(P, { kind: 'ordered', name: 'gated', order: lcf, concurrency: 30, gate: 8 }),
  ];
  for (const r of runs) {
    assert.equal(r.calls, total, r.name);
    assert.equal(r.samples, small.length, r.name);
    assert.ok(r.makespanS >= bound.strictS * (1 - 1e-9), `${r.name}: ${r.makespanS} < ${bound.strictS}`);
    assert.ok(r.busyS <= r.makespanS + 1e-9);
  }
  assert.ok(runs[0].peakInFlight <= 4 && runs[1].peakInFlight <= 4 && runs[2].peakInFlight <= 16);
  assert.equal(runs[3].peakInFlight, 30);
  assert.equal(runs[3].peakAtServer, 8);
  // phases are barriers: each length finishes before the next one's last sample
  const done = groups.map((g) => runs[0].groupDoneS[g[0].group]);
  for (let i = 1; i < done.length; i++) assert.ok(done[i] > done[i - 1]);
});

test('longest chain first starts the long sample early instead of last', () => {
  const chain = (key: string, n: number): SimChain => ({
    key,
    group: key,
    index: 0,
    contextTokens: 0,
    calls: Array.from({ length: n }, () => ({ prompt: 6000, output: 300 })),
  });
  const canonical = [chain('a', 1), chain('b', 1), chain('c', 1), chain('d', 1), chain('long', 30)];
  const lcf = longestChainFirst(canonical, (c) => c.calls.length);
  assert.equal(lcf[0].key, 'long');
  const slow = simulateSweep(P, { kind: 'ordered', name: 'canonical', order: canonical, concurrency: 2 });
  const fast = simulateSweep(P, { kind: 'ordered', name: 'lcf', order: lcf, concurrency: 2 });
  assert.ok(fast.makespanS < slow.makespanS, `${fast.makespanS} vs ${slow.makespanS}`);
  assert.ok(fast.makespanS >= sweepLowerBound(P, canonical).strictS);
});

test("longestChainFirst orders like the runner's scheduleUnits", () => {
  const task = { name: 't' } as TaskDefinition;
  const prepared = {} as PreparedTask;
  const chains = [3, 724, 47, 724, 3, 13, 182, 47];
  const units: WorkUnit[] = chains.map((chain, index) => ({
    task,
    prepared,
    length: { kind: 'docs', value: index, label: `docs:${index}` },
    index,
    method: 'memagent',
    key: `k${index}`,
    chain,
  }));
  assert.deepEqual(
    longestChainFirst(units, (u) => u.chain).map((u) => u.key),
    scheduleUnits(units).map((u) => u.key),
  );
});

test('the work bound scales with replicas; the chain bound does not', () => {
  const one = sweepLowerBound(P, small);
  const four = sweepLowerBound({ ...P, replicas: 4 }, small);
  assert.ok(Math.abs(four.workS * 4 - one.workS) < 1e-6 * one.workS);
  assert.equal(four.chainS, one.chainS);
  assert.ok(one.chainAloneS < one.chainS);
});
