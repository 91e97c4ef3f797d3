// Drives the discrete-event GPU model in real time for `bench serve --simulate`: each request waits until the model
// says the server would have finished it, with simulated time running `timeScale` times faster than the wall clock.
import { createGpuServer } from './cluster.js';
import type { GpuServer } from './engine.js';
import type { GpuParams } from './gpu-params.js';

/** The hook `startServer` calls once an answer is ready: resolves when the simulated server would have sent it. */
export type DelayFn = (
  promptTokens: number,
  maxTokens: number,
  completionTokens: number,
  signal?: AbortSignal,
) => Promise<void>;

export interface LiveSimulatorOptions {
  /** Simulated seconds per wall-clock second. Default 1. */
  timeScale?: number;
  /** Milliseconds clock (default performance.now). */
  clock?: () => number;
}

export interface LiveSimulator {
  delay: DelayFn;
  /** The engine, for stats; do not submit to it directly. */
  readonly engine: GpuServer;
  readonly timeScale: number;
  /** Simulated seconds since start. */
  simNow(): number;
  /** Stops the timer; pending delays resolve at once. */
  close(): void;
}

export function createLiveSimulator(params: GpuParams, options: LiveSimulatorOptions = {}): LiveSimulator {
  const scale = options.timeScale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale))
    throw new RangeError(`timeScale must be a positive number, got ${scale}`);
  const clock = options.clock ?? (() => performance.now());
  const engine = createGpuServer(params);
  const t0 = clock();
  const simNow = () => ((clock() - t0) / 1000) * scale;
  const waiters = new Map<number, () => void>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const sync = () => {
    for (const c of engine.advance(simNow())) {
      const w = waiters.get(c.id);
      waiters.delete(c.id);
      w?.();
    }
  };
  const plan = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (closed || waiters.size === 0) return;
    const next = engine.nextCompletionAt();
    if (!Number.isFinite(next)) return;
    const waitMs = Math.max(0, ((next - simNow()) / scale) * 1000);
    timer = setTimeout(() => {
      sync();
      plan();
    }, Math.ceil(waitMs));
  };

  const delay: DelayFn = (promptTokens, _maxTokens, completionTokens, signal) => {
    if (closed || signal?.aborted) return Promise.resolve();
    sync();
    const id = engine.submit({ promptTokens, outputTokens: completionTokens }, simNow());
    return new Promise<void>((resolve) => {
      const onAbort = () => {
        if (!waiters.delete(id)) return;
        engine.cancel(id);
        resolve();
        plan();
      };
      waiters.set(id, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      plan();
    });
  };

  return {
    delay,
    engine,
    timeScale: scale,
    simNow,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of waiters.values()) w();
      waiters.clear();
    },
  };
}
