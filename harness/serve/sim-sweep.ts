// A client running a sweep of call chains against the simulated server, as a discrete-event simulation (no sleeping).
// Each in-flight sample has exactly one call at the server; the next call is sent the moment the previous one ends
// (client overhead is not modelled: the harness's own per-call CPU is measured by bench/overhead.ts).
import { GpuEngine } from './sim-engine.js';
import { stepSeconds, type GpuParams } from './sim-model.js';
import type { SimChain } from './sim-workload.js';

/** What the client can see when deciding whether to start another sample. */
export interface ClientView {
  /** Samples in flight. */
  inFlight: number;
  /** Samples not yet started. */
  remaining: number;
}

export type SweepSchedule =
  /** One queue: lanes take the next sample in `order` whenever fewer than `concurrency` are in flight. */
  | { kind: 'ordered'; name: string; order: readonly SimChain[]; concurrency: number }
  /** Phases run one after another (a barrier between them), each with up to `concurrency` samples in flight. */
  | { kind: 'phased'; name: string; phases: readonly (readonly SimChain[])[]; concurrency: number };

export interface SweepResult {
  name: string;
  makespanS: number;
  /** Seconds the GPU was in a step. */
  busyS: number;
  /** Mean decoding sequences per step, time-weighted. */
  meanBatch: number;
  /** Share of the makespan the decode batch was at maxBatch. */
  fullBatchShare: number;
  calls: number;
  samples: number;
  /** When the last sample of each group finished (simulated seconds). */
  groupDoneS: Record<string, number>;
}

interface Flight {
  chain: SimChain;
  next: number;
}

/** Runs a schedule to the end and returns its makespan and utilisation. */
export function simulateSweep(params: GpuParams, schedule: SweepSchedule): SweepResult {
  const engine = new GpuEngine(params);
  const phases = schedule.kind === 'phased' ? schedule.phases : [schedule.order];
  const flights = new Map<number, Flight>();
  const groupDoneS: Record<string, number> = {};
  let calls = 0;
  let samples = 0;
  let fullS = 0;

  const send = (f: Flight) => {
    const c = f.chain.calls[f.next++];
    flights.set(engine.submit({ promptTokens: c.prompt, outputTokens: c.output }), f);
    calls++;
  };

  for (const phase of phases) {
    let started = 0;
    const fill = () => {
      while (started < phase.length && flights.size < schedule.concurrency) send({ chain: phase[started++], next: 0 });
    };
    fill();
    while (flights.size > 0) {
      const before = engine.now;
      const full = engine.running >= params.maxBatch;
      const done = engine.advance(Infinity, true);
      if (full) fullS += engine.now - before;
      for (const c of done) {
        const f = flights.get(c.id)!;
        flights.delete(c.id);
        if (f.next < f.chain.calls.length) send(f);
        else {
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
    busyS: st.busyS,
    meanBatch: st.busyS > 0 ? st.batchSeconds / st.busyS : 0,
    fullBatchShare: engine.now > 0 ? fullS / engine.now : 0,
    calls,
    samples,
    groupDoneS,
  };
}

export interface LowerBound {
  /** Σ over calls of the GPU time it costs at full batch: prefill ÷ rate + (output − 1) × step(maxBatch) ÷ maxBatch. */
  workS: number;
  /** The longest chain with every call at full-batch latency: its own prefill + (output − 1) × step(maxBatch). */
  chainS: number;
  chainKey: string;
  boundS: number;
}

/**
 * max(total work ÷ server capacity, longest chain × per-call latency at full batch). The work term is a true lower
 * bound (a step's cost per decoded token is smallest at full batch; prefill costs the same however it is batched).
 */
export function sweepLowerBound(params: GpuParams, chains: readonly SimChain[]): LowerBound {
  const full = stepSeconds(params, params.maxBatch);
  const perToken = full / params.maxBatch;
  let workS = 0;
  let chainS = 0;
  let chainKey = '';
  for (const ch of chains) {
    let own = 0;
    for (const c of ch.calls) {
      const prefill = c.prompt / params.prefillTokensPerS;
      // the first token comes with the prefill step; each later one is one decode step
      workS += prefill + (c.output - 1) * perToken;
      own += prefill + (c.output - 1) * full;
    }
    if (own > chainS) {
      chainS = own;
      chainKey = ch.key;
    }
  }
  return { workS, chainS, chainKey, boundS: Math.max(workS, chainS) };
}
