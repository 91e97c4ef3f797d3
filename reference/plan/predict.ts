// Predicted wall time of a planned run on simulated hardware: the harness's own schedule (longest chain first,
// --concurrency lanes, --server-batch gate), the length-by-length schedule, the lower bound, and the smallest
// concurrency that reaches the bound. Discrete-event simulation (reference/simulator/sweep.ts): nothing sleeps.
import { serverSlots, type GpuParams } from '../simulator/gpu-params.js';
import { simulateSweep, sweepLowerBound, type LowerBound, type SweepResult } from '../simulator/sweep.js';
import type { SimChain } from '../simulator/workload.js';

/** A concurrency "reaches the bound" when its makespan is within this factor of the lower bound. */
export const REACH_TOLERANCE = 1.02;

export interface ScheduleSettings {
  /** Samples in flight (--concurrency). */
  concurrency: number;
  /** Calls at the server at once (--server-batch); undefined: no gate. */
  gate?: number;
}

export interface ConcurrencyPoint {
  concurrency: number;
  makespanS: number;
}

export interface Prediction {
  params: GpuParams;
  replicas: number;
  bound: LowerBound;
  /** The harness's schedule with the run's settings. */
  harness: SweepResult;
  /** One (task, length) after another, same concurrency. */
  byLength: SweepResult;
  /** The concurrencies simulated, ascending, with the harness's schedule and gate. */
  sweep: ConcurrencyPoint[];
  /** The smallest concurrency of the sweep within REACH_TOLERANCE of min(bound, best). */
  reaching?: ConcurrencyPoint;
  /** The fastest point of the sweep. */
  best: ConcurrencyPoint;
}

/** Concurrencies to try: powers of two from an eighth of the server's slots (fewer in flight cannot fill the batch)
 *  up to the number of samples (beyond it nothing changes), then that number. */
export function sweepConcurrencies(samples: number, slots: number): number[] {
  const out: number[] = [];
  let c = 1;
  while (c * 2 <= Math.max(1, slots / 8)) c *= 2;
  for (; c < samples; c *= 2) out.push(c);
  out.push(Math.max(1, samples));
  return out;
}

/** GPU-hours of a makespan: every replica's GPU is held for the whole wall time (one GPU per replica, as the presets). */
export function gpuHours(makespanS: number, params: GpuParams): number {
  return (makespanS / 3600) * (params.replicas ?? 1);
}

/**
 * Simulates the run's units on the server: the harness's schedule (scheduleUnits order, `concurrency` lanes, the
 * --server-batch gate), length by length, and a sweep of concurrencies. The sweep stops once doubling the
 * concurrency gains less than 1% (then `best` is the fastest seen). `reaching` is the smallest concurrency within
 * REACH_TOLERANCE of min(bound, best): the bound, max(work, longest chain at full-batch latency), is not strict, and a
 * small run can beat it; then the fastest simulated schedule is the target.
 */
export function predict(
  params: GpuParams,
  order: readonly SimChain[],
  phases: readonly (readonly SimChain[])[],
  s: ScheduleSettings,
): Prediction {
  const bound = sweepLowerBound(params, order);
  const run = (concurrency: number) =>
    simulateSweep(params, { kind: 'ordered', name: 'harness', order, concurrency, gate: s.gate });
  const harness = run(s.concurrency);
  const byLength = simulateSweep(params, {
    kind: 'phased',
    name: 'length-by-length',
    phases,
    concurrency: s.concurrency,
  });
  const sweep: ConcurrencyPoint[] = [];
  for (const c of sweepConcurrencies(order.length, serverSlots(params))) {
    const point = { concurrency: c, makespanS: c === s.concurrency ? harness.makespanS : run(c).makespanS };
    const prev = sweep[sweep.length - 1];
    sweep.push(point);
    if (prev && point.makespanS > prev.makespanS * 0.99) break;
  }
  const best = sweep.reduce((a, b) => (b.makespanS < a.makespanS ? b : a));
  const target = Math.min(bound.boundS, best.makespanS) * REACH_TOLERANCE;
  const reaching = sweep.find((p) => p.makespanS <= target);
  return { params, replicas: params.replicas ?? 1, bound, harness, byLength, sweep, reaching, best };
}

/** Seconds → "16.85 h", "12.3 min" or "41.2 s". */
export function formatDuration(s: number): string {
  if (s >= 3600) return `${(s / 3600).toFixed(2)} h`;
  if (s >= 60) return `${(s / 60).toFixed(1)} min`;
  return `${s.toFixed(1)} s`;
}
