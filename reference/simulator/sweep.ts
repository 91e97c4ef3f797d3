// A client running a sweep of call chains against the simulated server, as a discrete-event simulation (no sleeping).
// Each in-flight sample has exactly one call at the server; the next call is sent the moment the previous one ends
// (client overhead is not modelled: the harness's own per-call CPU is measured by bench/overhead.ts).
import { createGpuServer } from './cluster.js';
import { stepSeconds, type GpuParams } from './gpu-params.js';
import type { SimChain } from './workload.js';
import { PriorityQueue } from '../../harness/util/priority-queue.js';

export type SweepSchedule =
  /** One queue: lanes take the next sample in `order` whenever fewer than `concurrency` are in flight. With `gate`,
   *  at most that many calls are at the server; ready calls wait at the client, longest remaining chain first
   *  (CallGate in harness/runner/schedule-policy.ts). */
  | { kind: 'ordered'; name: string; order: readonly SimChain[]; concurrency: number; gate?: number }
  /** Phases run one after another (a barrier between them), each with up to `concurrency` samples in flight. */
  | { kind: 'phased'; name: string; phases: readonly (readonly SimChain[])[]; concurrency: number };

export interface SweepResult {
  name: string;
  makespanS: number;
  /** Seconds a GPU was in a step (mean over replicas). */
  busyS: number;
  /** Mean decoding sequences per step on a GPU, time-weighted. */
  meanBatch: number;
  /** Share of GPU time over the makespan with the batch at maxBatch. */
  fullBatchShare: number;
  calls: number;
  samples: number;
  /** Most samples in flight at once, and most calls at the server at once. */
  peakInFlight: number;
  peakAtServer: number;
  /** When the last sample of each group finished (simulated seconds). */
  groupDoneS: Record<string, number>;
}

interface Flight {
  chain: SimChain;
  next: number;
}

/** Runs a schedule to the end and returns its makespan and utilisation. */
export function simulateSweep(params: GpuParams, schedule: SweepSchedule): SweepResult {
  const engine = createGpuServer(params);
  const replicas = params.replicas ?? 1;
  const phases = schedule.kind === 'phased' ? schedule.phases : [schedule.order];
  const flights = new Map<number, Flight>();
  const groupDoneS: Record<string, number> = {};
  let calls = 0;
  let samples = 0;

  const gate = schedule.kind === 'ordered' ? (schedule.gate ?? Infinity) : Infinity;
  const ready = new PriorityQueue<Flight>();
  let inFlight = 0;
  let peakInFlight = 0;
  let peakAtServer = 0;
  const submit = (f: Flight) => {
    const c = f.chain.calls[f.next++];
    flights.set(engine.submit({ promptTokens: c.prompt, outputTokens: c.output }), f);
    calls++;
    peakAtServer = Math.max(peakAtServer, flights.size);
  };
  const dispatch = () => {
    while (flights.size < gate && ready.size > 0) submit(ready.pop()!);
  };
  // Without a gate a call goes out at once, in the order the samples become ready (as the runner's lanes do).
  const send = (f: Flight) => (gate === Infinity ? submit(f) : ready.push(f, f.chain.calls.length - f.next));

  for (const phase of phases) {
    let started = 0;
    const fill = () => {
      while (started < phase.length && inFlight < schedule.concurrency) {
        peakInFlight = Math.max(peakInFlight, ++inFlight);
        send({ chain: phase[started++], next: 0 });
      }
      dispatch();
    };
    fill();
    while (flights.size > 0) {
      const done = engine.advance(Infinity, true);
      for (const c of done) {
        const f = flights.get(c.id)!;
        flights.delete(c.id);
        if (f.next < f.chain.calls.length) send(f);
        else {
          inFlight--;
          samples++;
          groupDoneS[f.chain.group] = Math.max(groupDoneS[f.chain.group] ?? 0, c.doneAt);
        }
      }
      fill();
    }
  }
  const st = engine.stats;
  return {
    name: schedule.name,
    makespanS: engine.now,
    busyS: st.busyS / replicas,
    meanBatch: st.busyS > 0 ? st.batchSeconds / st.busyS : 0,
    fullBatchShare: engine.now > 0 ? st.fullBatchS / replicas / engine.now : 0,
    calls,
    samples,
    peakInFlight,
    peakAtServer,
    groupDoneS,
  };
}

export interface LowerBound {
  /** Σ over calls of the GPU time it costs at full batch, prefill ÷ rate + (output − 1) × step(maxBatch) ÷ maxBatch, ÷ replicas. */
  workS: number;
  /** The longest chain with every call at full-batch latency: its own prefill + (output − 1) × step(maxBatch). */
  chainS: number;
  /** The same chain alone on the server: its own prefill + (output − 1) × step(1). A strict lower bound. */
  chainAloneS: number;
  chainKey: string;
  /** max(workS, chainS): the bound as the issue defines it; a schedule may beat it by running the longest chains in
   *  a smaller batch. */
  boundS: number;
  /** max(workS, chainAloneS): no schedule can beat it. */
  strictS: number;
}

/** Lower bounds on the makespan of a sweep (see LowerBound). Work is a true bound: a step's cost per decoded token is
 *  smallest at full batch, and prefill costs the same however it is batched. */
export function sweepLowerBound(params: GpuParams, chains: readonly SimChain[]): LowerBound {
  const full = stepSeconds(params, params.maxBatch);
  const alone = stepSeconds(params, 1);
  const perToken = full / params.maxBatch;
  let workS = 0;
  let chainS = 0;
  let chainAloneS = 0;
  let chainKey = '';
  for (const ch of chains) {
    let own = 0;
    let solo = 0;
    for (const c of ch.calls) {
      const prefill = c.prompt / params.prefillTokensPerS;
      // the first token comes with the prefill step; each later one is one decode step
      workS += prefill + (c.output - 1) * perToken;
      own += prefill + (c.output - 1) * full;
      solo += prefill + (c.output - 1) * alone;
    }
    if (own > chainS) {
      chainS = own;
      chainKey = ch.key;
    }
    chainAloneS = Math.max(chainAloneS, solo);
  }
  workS /= params.replicas ?? 1;
  return {
    workS,
    chainS,
    chainAloneS,
    chainKey,
    boundS: Math.max(workS, chainS),
    strictS: Math.max(workS, chainAloneS),
  };
}
