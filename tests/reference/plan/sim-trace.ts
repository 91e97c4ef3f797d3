// A closed-loop client on the discrete-event GPU model (no clock): each chain's next call is sent the moment its
// previous one finishes, and every call is recorded as calls.jsonl would record it. Ground truth for calibration tests.
import { createGpuServer } from '../../../reference/simulator/cluster.js';
import type { GpuParams } from '../../../reference/simulator/gpu-params.js';
import type { SimChain } from '../../../reference/simulator/workload.js';
import type { TimedCall } from '../../../reference/plan/calibrate.js';
import type { CallRecord } from '../../../harness/types.js';

/** Calls in the order they were sent, with their simulated start and latency. */
export function simulatedTrace(params: GpuParams, chains: readonly SimChain[], concurrency: number): TimedCall[] {
  return simulatedRun(params, chains, concurrency).map((s) => s.call);
}

/** simulatedTrace, with each call's chain and step (index into chains[chain].calls). */
export function simulatedRun(
  params: GpuParams,
  chains: readonly SimChain[],
  concurrency: number,
): { chain: number; step: number; call: TimedCall }[] {
  const engine = createGpuServer(params);
  const calls: { chain: number; step: number; call: TimedCall }[] = [];
  const sent = new Map<number, { chain: number; step: number; call: TimedCall }>();
  let next = 0;
  const send = (chain: number, step: number) => {
    const c = chains[chain].calls[step];
    const call: TimedCall = {
      startS: engine.now,
      latencyS: 0,
      promptTokens: c.prompt,
      completionTokens: c.output,
      kind: step === chains[chain].calls.length - 1 ? 'final' : 'update',
      usable: true,
    };
    const entry = { chain, step, call };
    sent.set(engine.submit({ promptTokens: c.prompt, outputTokens: c.output }), entry);
    calls.push(entry);
  };
  while (next < chains.length && next < concurrency) send(next++, 0);
  while (!engine.idle) {
    for (const done of engine.advance(Infinity, true)) {
      const s = sent.get(done.id)!;
      s.call.startS = done.arrivedAt;
      s.call.latencyS = done.doneAt - done.arrivedAt;
      if (s.step + 1 < chains[s.chain].calls.length) send(s.chain, s.step + 1);
      else if (next < chains.length) send(next++, 0);
    }
  }
  return calls;
}

/**
 * A run's own calls.jsonl lines with their times replaced by the simulated server's clock: each sample × method is
 * one chain of its calls in step order, all chains sent closed-loop with `concurrency` in flight, and times written
 * as a run against a server `timeScale` times faster than the simulated one would record them (bench serve
 * --time-scale). Tokens, kinds and ids stay the run's.
 */
export function retimedRecords(
  records: readonly CallRecord[],
  params: GpuParams,
  concurrency: number,
  timeScale: number,
  epochMs = 1.7e12,
): CallRecord[] {
  const byChain = new Map<string, CallRecord[]>();
  for (const r of records) {
    const key = `${r.sampleId}\0${r.method}`;
    byChain.set(key, [...(byChain.get(key) ?? []), r]);
  }
  // Chains in a fixed order (the run appends calls as they finish, in an order the CPU decides).
  const keys = [...byChain.keys()].sort();
  const groups = keys.map((k) => [...byChain.get(k)!].sort((a, b) => a.step - b.step));
  const chains: SimChain[] = groups.map((g, index) => ({
    key: `${g[0].sampleId}/${g[0].method}`,
    group: g[0].method,
    index,
    contextTokens: 0,
    calls: g.map((r) => ({ prompt: r.usage.promptTokens, output: r.usage.completionTokens })),
  }));
  return simulatedRun(params, chains, concurrency).map(({ chain, step, call }) => ({
    ...groups[chain][step],
    latencyMs: (call.latencyS / timeScale) * 1000,
    startedAt: epochMs + (call.startS / timeScale) * 1000,
  }));
}

/** The trace as calls.jsonl lines of a run against a server `timeScale` times faster than the simulated one. */
export function asCallRecords(calls: readonly TimedCall[], timeScale: number, epochMs = 1.7e12): CallRecord[] {
  return calls.map((c, i) => ({
    sampleId: `s/${i}`,
    method: 'memagent',
    step: 0,
    kind: c.kind,
    latencyMs: (c.latencyS / timeScale) * 1000,
    startedAt: epochMs + (c.startS / timeScale) * 1000,
    usage: { promptTokens: c.promptTokens, completionTokens: c.completionTokens },
    status: 'ok',
    retries: 0,
    cached: false,
  }));
}
