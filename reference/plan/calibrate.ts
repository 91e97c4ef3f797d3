// `bench plan --calibrate RUN_DIR`: fits the simulated server's timing parameters (reference/simulator/gpu-params.ts:
// prefillTokensPerS, stepBaseMs, stepPerSeqMs) and the completion lengths per call kind to a finished run's
// calls.jsonl, so that `bench plan` predicts with the hardware that run actually met.
//
// Closed form (used when no more calls were in flight than the preset's slots, so nothing queued): the simulator's
// step rule without queueing. A call in flight from s to e (latency L) lives through about
// S = ceil(prompt / chunk) + completion − 1 engine steps; each step costs
//   step-ms + step-per-seq-ms × (sequences decoding) + (prefill tokens in the step) ÷ prefill-tps.
// Summed over the call's steps:
//   L ≈ overhead + (own prompt + prompts of the calls that arrived while it ran ÷ replicas) ÷ prefill-tps
//         + S × step-ms + (S × mean other calls in flight ÷ replicas + completion − 1) × step-per-seq-ms
// where "calls that arrived while it ran" and "mean other calls in flight" come from the start times and latencies
// in calls.jsonl (CallRecord.startedAt), and overhead is a per-call constant for what the server model leaves out
// (network, tokenization, the client). Non-negative least squares with Huber weights (stalls only ever lengthen a
// call), over every ok, uncached, unretried call sent after the first call finished (the cold start is left out).
// Replay (when calls queued beyond the slots, or the closed form fails): the recorded arrivals are replayed through
// the simulator (reference/simulator/engine.ts, which models the queue and chunked prefill), and Nelder–Mead
// minimises the squared difference between measured latencies and replayed latency + a constant overhead.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../harness/errors.js';
import { jsonlRows } from '../../harness/run-dir/jsonl.js';
import type { CallRecord } from '../../harness/types.js';
import { createGpuServer } from '../simulator/cluster.js';
import { serverSlots, validateGpuParams, type GpuParams } from '../simulator/gpu-params.js';
import type { LengthDist } from '../simulator/workload.js';
import type { OutputAssumption } from './chains.js';

/** One call as the fit sees it, times in (simulated) seconds. */
export interface TimedCall {
  startS: number;
  latencyS: number;
  promptTokens: number;
  completionTokens: number;
  kind: string;
  /** Whether the call enters the fit (ok, not cached, not retried); every timed call counts as load on the server. */
  usable: boolean;
  /** Sent before any call had finished: the cold start (connections, warm-up) inflates these latencies, so they count
   *  as load but stay out of the fit (set by fitCalibration). */
  warmup?: boolean;
}

const inFit = (c: TimedCall) => c.usable && !c.warmup;

export interface CalibrationFit extends TimingFit {
  /** Which fit gave the parameters. */
  method: 'closed form (queue-free)' | 'replay through the simulator';
  /** The closed-form queue-free fit (undefined when the data could not determine it). */
  linear?: TimingFit;
  /** Calls in the fit; warm-up calls (sent before any call finished); other timed calls only counted as load. */
  fitted: number;
  warmup: number;
  skipped: number;
  /** Time-weighted mean and the peak of calls in flight. */
  meanInFlight: number;
  peakInFlight: number;
  /** Completion lengths per call kind: log-normal median and sigma of the fitted calls. */
  outputs: Record<string, LengthDist>;
}

/** Calls from a run directory's calls.jsonl, with wall-clock times multiplied by timeScale (a `bench serve
 *  --time-scale X` server's simulated seconds). Throws UserError when the run has no start times. */
export function readTimedCalls(runDir: string, timeScale = 1): { calls: TimedCall[]; withoutTimes: number } {
  const file = join(runDir, 'calls.jsonl');
  if (!existsSync(file))
    throw new UserError(
      `--calibrate: ${runDir} has no calls.jsonl; pass a run directory of a finished bench run against an endpoint`,
    );
  const calls: TimedCall[] = [];
  let withoutTimes = 0;
  for (const { value } of jsonlRows<CallRecord>(file, { mode: 'lenient' })) {
    if (value.cached) continue;
    if (typeof value.startedAt !== 'number' || typeof value.latencyMs !== 'number' || !(value.latencyMs > 0)) {
      withoutTimes++;
      continue;
    }
    const usage = value.usage ?? { promptTokens: 0, completionTokens: 0 };
    calls.push({
      startS: (value.startedAt / 1000) * timeScale,
      latencyS: (value.latencyMs / 1000) * timeScale,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      kind: value.kind,
      usable: value.status === 'ok' && value.retries === 0 && usage.promptTokens > 0 && usage.completionTokens > 0,
    });
  }
  // Times from the first call's start: simulated seconds stay small enough for the engine's step arithmetic.
  const t0 = calls.reduce((m, c) => Math.min(m, c.startS), Infinity);
  for (const c of calls) c.startS -= t0;
  if (calls.length === 0) {
    throw new UserError(
      withoutTimes > 0
        ? `--calibrate: ${file} records no call start times (runs before startedAt was recorded); rerun the run to calibrate`
        : `--calibrate: ${file} has no uncached model calls to fit; run against an endpoint with --no-cache`,
    );
  }
  return { calls, withoutTimes };
}

/** First index in sorted `xs` with xs[i] >= x. */
function lowerBound(xs: Float64Array, x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** ∫ (calls in flight) dt as a function of time, from every call's [start, end). */
function inFlightIntegral(calls: readonly TimedCall[]): {
  at: (t: number) => number;
  peak: number;
  span: [number, number];
} {
  const events: [number, number][] = [];
  for (const c of calls) events.push([c.startS, 1], [c.startS + c.latencyS, -1]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const times = new Float64Array(events.length);
  const area = new Float64Array(events.length); // ∫ up to times[i]
  const level = new Float64Array(events.length); // calls in flight just after times[i]
  let n = 0;
  let acc = 0;
  let peak = 0;
  events.forEach(([t, d], i) => {
    if (i > 0) acc += n * (t - times[i - 1]);
    n += d;
    peak = Math.max(peak, n);
    times[i] = t;
    area[i] = acc;
    level[i] = n;
  });
  const at = (t: number) => {
    const i = lowerBound(times, t + 1e-12) - 1; // last event at or before t
    if (i < 0) return 0;
    return area[i] + level[i] * (t - times[i]);
  };
  return { at, peak, span: [times[0], times[times.length - 1]] };
}

/** Non-negative least squares for a few columns: unconstrained fit, drop the most negative coefficient, repeat. */
export function nnls(rows: readonly number[][], y: readonly number[]): number[] {
  const k = rows[0].length;
  const active = new Set([...Array(k).keys()]);
  for (;;) {
    const cols = [...active];
    const beta = solveLeastSquares(
      rows.map((r) => cols.map((j) => r[j])),
      y,
    );
    const out = new Array<number>(k).fill(0);
    cols.forEach((j, i) => (out[j] = beta[i]));
    let worst = -1;
    cols.forEach((j, i) => {
      if (beta[i] < 0 && (worst < 0 || beta[i] < out[worst])) worst = j;
    });
    if (worst < 0) return out;
    active.delete(worst);
    if (active.size === 0) return out.fill(0);
  }
}

/**
 * NNLS with Huber weights by iterated reweighting: a residual beyond 1.345 robust standard deviations (1.4826 × the
 * median absolute residual) counts linearly, not squared. Latencies carry one-sided stalls (a busy client or server
 * thread delays a reply, never speeds it up), which plain least squares lets pull the fit.
 */
export function robustNnls(rows: readonly number[][], y: readonly number[], iterations = 20): number[] {
  let beta = nnls(rows, y);
  for (let it = 0; it < iterations; it++) {
    const resid = rows.map((r, n) => r.reduce((a, v, j) => a + v * beta[j], 0) - y[n]);
    const sorted = resid.map(Math.abs).sort((a, b) => a - b);
    const scale = 1.4826 * sorted[sorted.length >> 1];
    if (!(scale > 0)) break;
    const k = 1.345 * scale;
    const w = resid.map((r) => Math.sqrt(Math.abs(r) <= k ? 1 : k / Math.abs(r)));
    const next = nnls(
      rows.map((r, n) => r.map((v) => v * w[n])),
      y.map((v, n) => v * w[n]),
    );
    const moved = next.reduce((a, v, j) => Math.max(a, Math.abs(v - beta[j]) / (Math.abs(beta[j]) + 1e-12)), 0);
    beta = next;
    if (moved < 1e-6) break;
  }
  return beta;
}

/** Ordinary least squares via normal equations on RMS-scaled columns (Gaussian elimination, partial pivoting). */
function solveLeastSquares(rows: readonly number[][], y: readonly number[]): number[] {
  const k = rows[0]?.length ?? 0;
  if (k === 0) return [];
  const scale = Array.from(
    { length: k },
    (_, j) => Math.sqrt(rows.reduce((s, r) => s + r[j] * r[j], 0) / rows.length) || 1,
  );
  const a = Array.from({ length: k }, () => new Array<number>(k + 1).fill(0));
  for (let n = 0; n < rows.length; n++) {
    const r = rows[n].map((v, j) => v / scale[j]);
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) a[i][j] += r[i] * r[j];
      a[i][k] += r[i] * y[n];
    }
  }
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    if (Math.abs(a[c][c]) < 1e-12) continue; // a column the data cannot tell apart: left at 0
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = a[r][c] / a[c][c];
      for (let j = c; j <= k; j++) a[r][j] -= f * a[c][j];
    }
  }
  return a.map((row, i) => (Math.abs(row[i]) < 1e-12 ? 0 : row[k] / row[i] / scale[i]));
}

/** Log-normal median and sigma of each kind's completion tokens. */
function outputLengths(calls: readonly TimedCall[]): Record<string, LengthDist> {
  const byKind = new Map<string, number[]>();
  for (const c of calls)
    if (c.usable) (byKind.get(c.kind) ?? byKind.set(c.kind, []).get(c.kind)!).push(Math.log(c.completionTokens));
  const out: Record<string, LengthDist> = {};
  for (const [kind, logs] of byKind) {
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / logs.length);
    out[kind] = { median: Math.exp(mean), sigma: sd, min: 1, max: Number.MAX_SAFE_INTEGER };
  }
  return out;
}

/** The timing parameters a fit determines; the rest come from the preset. */
export interface TimingFit {
  prefillTokensPerS: number;
  stepBaseMs: number;
  stepPerSeqMs: number;
  /** Per-call seconds the server model leaves out (not part of the preset). */
  overheadS: number;
  /** Root-mean-square residual ÷ mean latency. */
  rmsRelative: number;
}

/** Closed-form fit of the queue-free model in this file's header. Undefined when the data cannot determine it. */
export function linearFit(
  calls: readonly TimedCall[],
  base: Pick<GpuParams, 'prefillChunkTokens' | 'replicas'>,
): TimingFit | undefined {
  const usable = calls.filter(inFit);
  const replicas = base.replicas ?? 1;
  const flight = inFlightIntegral(calls);
  const order = calls.map((_, i) => i).sort((a, b) => calls[a].startS - calls[b].startS);
  const sortedStarts = Float64Array.from(order, (i) => calls[i].startS);
  const promptPrefix = new Float64Array(order.length + 1);
  order.forEach((i, n) => (promptPrefix[n + 1] = promptPrefix[n] + calls[i].promptTokens));
  const rows: number[][] = [];
  const y: number[] = [];
  for (const c of usable) {
    const end = c.startS + c.latencyS;
    // Prompts of the other calls that arrived while this one ran: their prefill shares this call's steps. A call that
    // arrives during the last step waits for the next one, and a closed-loop client sends the next call the moment
    // this one ends, so the last 1% of the call is left out (recorded times are rounded).
    const othersPrompt = Math.max(
      0,
      promptPrefix[lowerBound(sortedStarts, end - 0.01 * c.latencyS)] -
        promptPrefix[lowerBound(sortedStarts, c.startS)] -
        c.promptTokens,
    );
    const othersInFlight = Math.max(0, (flight.at(end) - flight.at(c.startS) - c.latencyS) / c.latencyS);
    const steps = Math.max(1, Math.ceil(c.promptTokens / base.prefillChunkTokens)) + c.completionTokens - 1;
    rows.push([
      1,
      c.promptTokens + othersPrompt / replicas,
      steps,
      steps * (othersInFlight / replicas) + (c.completionTokens - 1),
    ]);
    y.push(c.latencyS);
  }
  const [overheadS, secPerToken, stepS, perSeqS] = robustNnls(rows, y);
  if (!(secPerToken > 0) || !(stepS > 0)) return undefined;
  const resid = rows.map((r, n) => r[0] * overheadS + r[1] * secPerToken + r[2] * stepS + r[3] * perSeqS - y[n]);
  return {
    prefillTokensPerS: 1 / secPerToken,
    stepBaseMs: stepS * 1000,
    stepPerSeqMs: perSeqS * 1000,
    overheadS,
    rmsRelative: rms(resid) / mean(y),
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const rms = (xs: readonly number[]) => Math.sqrt(xs.reduce((a, b) => a + b * b, 0) / xs.length);

/** Calls replayed at most (by start time, from the first): the replay of a window is exact for the calls that ended
 *  before the window's last arrival. */
export const REPLAY_WINDOW = 5_000;

/**
 * The server latency the simulator gives each call when the run's calls arrive at their recorded start times (open
 * loop: the arrivals are what they were). Queueing, chunked prefill and the batch are the engine's own.
 */
export function replayLatencies(calls: readonly TimedCall[], params: GpuParams): Float64Array {
  const engine = createGpuServer(params);
  const out = new Float64Array(calls.length).fill(NaN);
  const ids = new Map<number, number>();
  const collect = (done: { id: number; arrivedAt: number; doneAt: number }[]) => {
    for (const d of done) out[ids.get(d.id)!] = d.doneAt - d.arrivedAt;
  };
  calls.forEach((c, i) => {
    collect(engine.advance(c.startS));
    ids.set(
      engine.submit({ promptTokens: c.promptTokens, outputTokens: Math.max(1, c.completionTokens) }, c.startS),
      i,
    );
  });
  collect(engine.advance(Infinity));
  return out;
}

/** Nelder–Mead minimisation (standard coefficients) from x0 with initial steps `step`. */
export function nelderMead(
  f: (x: number[]) => number,
  x0: number[],
  step: number[],
  maxEvals = 400,
  tol = 1e-6,
): number[] {
  const n = x0.length;
  let simplex = [x0, ...x0.map((_, i) => x0.map((v, j) => (i === j ? v + step[i] : v)))].map((x) => ({ x, v: f(x) }));
  let evals = n + 1;
  const comb = (a: number[], b: number[], t: number) => a.map((v, i) => v + t * (b[i] - v));
  while (evals < maxEvals) {
    simplex.sort((a, b) => a.v - b.v);
    const best = simplex[0];
    const worst = simplex[n];
    if (Math.abs(worst.v - best.v) <= tol * (Math.abs(best.v) + 1e-30)) break;
    const centroid = x0.map((_, i) => simplex.slice(0, n).reduce((s, p) => s + p.x[i], 0) / n);
    const reflect = comb(centroid, worst.x, -1);
    const fr = f(reflect);
    evals++;
    if (fr < best.v) {
      const expand = comb(centroid, worst.x, -2);
      const fe = f(expand);
      evals++;
      simplex[n] = fe < fr ? { x: expand, v: fe } : { x: reflect, v: fr };
    } else if (fr < simplex[n - 1].v) {
      simplex[n] = { x: reflect, v: fr };
    } else {
      const contract = fr < worst.v ? comb(centroid, reflect, 0.5) : comb(centroid, worst.x, 0.5);
      const fc = f(contract);
      evals++;
      if (fc < Math.min(fr, worst.v)) simplex[n] = { x: contract, v: fc };
      else {
        simplex = simplex.map((p, i) => (i === 0 ? p : { x: comb(best.x, p.x, 0.5), v: f(comb(best.x, p.x, 0.5)) }));
        evals += n;
      }
    }
  }
  simplex.sort((a, b) => a.v - b.v);
  return simplex[0].x;
}

/** Refines a fit by replaying the run's arrivals through the simulator: minimises the squared difference between
 *  measured latencies and replayed latency + a constant overhead, over prefill-tps, step-ms and step-per-seq-ms. */
export function replayFit(
  calls: readonly TimedCall[],
  base: GpuParams,
  starts: readonly Omit<TimingFit, 'overheadS' | 'rmsRelative'>[],
): TimingFit {
  const sorted = [...calls]
    .filter((c) => c.promptTokens > 0)
    .sort((a, b) => a.startS - b.startS)
    .slice(0, REPLAY_WINDOW);
  const cutoff = sorted.length === REPLAY_WINDOW ? sorted[sorted.length - 1].startS : Infinity;
  const judged = sorted.map((c, i) => (inFit(c) && c.startS + c.latencyS <= cutoff ? i : -1)).filter((i) => i >= 0);
  const evaluate = (x: number[]) => {
    const params = validateGpuParams({
      ...base,
      prefillTokensPerS: Math.exp(x[0]),
      stepBaseMs: Math.exp(x[1]),
      stepPerSeqMs: Math.exp(x[2]),
    });
    const pred = replayLatencies(sorted, params);
    const gaps = judged.map((i) => sorted[i].latencyS - pred[i]);
    const overheadS = Math.max(0, mean(gaps));
    return { overheadS, resid: gaps.map((g) => g - overheadS) };
  };
  const objective = (v: number[]) => rms(evaluate(v).resid);
  // The objective is piecewise (whole engine steps) and not convex, so a simplex can stall: each start is restarted
  // from its best point, and the best of the starts wins.
  let x: number[] = [];
  let best = Infinity;
  for (const start of starts) {
    let v = [
      Math.log(start.prefillTokensPerS),
      Math.log(start.stepBaseMs),
      Math.log(Math.max(start.stepPerSeqMs, start.stepBaseMs * 1e-3)),
    ];
    for (const size of [0.5, 0.1, 0.02]) v = nelderMead(objective, v, [size, size, 2 * size]);
    const value = objective(v);
    if (value < best) [x, best] = [v, value];
  }
  const { overheadS, resid } = evaluate(x);
  return {
    prefillTokensPerS: Math.exp(x[0]),
    stepBaseMs: Math.exp(x[1]),
    stepPerSeqMs: Math.exp(x[2]),
    overheadS,
    rmsRelative: rms(resid) / mean(judged.map((i) => sorted[i].latencyS)),
  };
}

/** Fits the timing parameters to the calls: the closed-form queue-free fit, refined by replaying the arrivals through
 *  the simulator (which also models queueing beyond the batch). `base` supplies what latencies cannot tell
 *  (max batch, chunk budget, replicas) and the starting point when the closed form fails. */
export function fitCalibration(calls: readonly TimedCall[], base: GpuParams): CalibrationFit {
  const firstEnd = calls.reduce((m, c) => Math.min(m, c.startS + c.latencyS), Infinity);
  for (const c of calls) c.warmup = c.startS < firstEnd;
  const usable = calls.filter(inFit);
  if (usable.length < 8) {
    throw new UserError(
      `--calibrate: only ${usable.length} usable calls (ok, uncached, not retried, sent after the first call finished); a fit needs at least 8`,
    );
  }
  const linear = linearFit(calls, base);
  const flight = inFlightIntegral(calls);
  // Queue-free (no more calls in flight than the server's slots): the closed form's model holds, and it is the less
  // sensitive of the two to noise in the recorded start times. Otherwise calls waited, which only the replay models.
  const queued = flight.peak > serverSlots(base);
  const fit = linear && !queued ? linear : replayFit(calls, base, linear ? [linear, base] : [base]);
  if (!(fit.rmsRelative < 1)) {
    throw new UserError(
      '--calibrate: the latencies do not determine a prefill rate and a step time (too few calls, or calls of one shape); calibrate on a longer run',
    );
  }
  const span = flight.span[1] - flight.span[0];
  return {
    ...fit,
    method: linear && !queued ? 'closed form (queue-free)' : 'replay through the simulator',
    linear,
    fitted: usable.length,
    warmup: calls.filter((c) => c.warmup).length,
    skipped: calls.filter((c) => !c.usable && !c.warmup).length,
    meanInFlight: span > 0 ? flight.at(flight.span[1]) / span : 0,
    peakInFlight: flight.peak,
    outputs: outputLengths(calls),
  };
}

/** The fitted output lengths on top of an assumption (kinds the run did not make keep theirs). */
export function fittedOutputs(fit: CalibrationFit, base: OutputAssumption): OutputAssumption {
  const out: Record<string, LengthDist> = { ...base };
  for (const [k, d] of Object.entries(fit.outputs))
    out[k] = { ...d, min: Math.min(base[k]?.min ?? 1, Math.round(d.median)) };
  return out;
}
