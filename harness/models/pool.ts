// A Model that spreads calls over several endpoint Models: least requests in flight first (ties: lowest index),
// at most `maxInFlightPerEndpoint` each, FIFO queue when all are full. Each endpoint's limit adapts AIMD-style:
// halved when the endpoint rate-limits (at most once a second), grown by 1/limit per success back to the maximum.
import type { Model, ModelRequest, ModelResponse } from '../types.js';

export interface PoolOptions {
  /** Requests in flight per endpoint. Default 8. */
  maxInFlightPerEndpoint?: number;
  /** Recorded model id. Default: the endpoint ids joined with ",". */
  id?: string;
}

export interface PoolModel extends Model {
  readonly endpoints: readonly Model[];
  /** Tell the pool that endpoint `index` answered 429 (the client reports each one through its onRetry hook). */
  rateLimited(index: number): void;
  /** The current adaptive limit per endpoint. */
  limits(): number[];
  /** Requests in flight per endpoint, in endpoint order. */
  inFlight(): number[];
  /** Calls waiting for a free slot. */
  queued(): number;
}

interface Waiter {
  grant(index: number): void;
  fail(reason: unknown): void;
}

export function createPool(endpoints: Model[], options: PoolOptions = {}): PoolModel {
  if (endpoints.length === 0) throw new Error('createPool needs at least one endpoint');
  const limit = options.maxInFlightPerEndpoint ?? 8;
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`maxInFlightPerEndpoint must be a positive integer, got ${limit}`);
  const inFlight = endpoints.map(() => 0);
  const limits = endpoints.map(() => limit);
  const lastCut = endpoints.map(() => -Infinity);
  const queue: Waiter[] = [];

  function pick(): number {
    let best = -1;
    for (let i = 0; i < inFlight.length; i++) {
      if (inFlight[i] < Math.max(1, Math.floor(limits[i])) && (best < 0 || inFlight[i] < inFlight[best])) best = i;
    }
    return best;
  }

  function acquire(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    const free = pick();
    if (free >= 0) {
      inFlight[free]++;
      return Promise.resolve(free);
    }
    return new Promise<number>((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(waiter);
        if (at >= 0) queue.splice(at, 1);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        grant(index) {
          signal?.removeEventListener('abort', onAbort);
          resolve(index);
        },
        fail: reject,
      };
      queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function release(index: number): void {
    inFlight[index]--;
    while (queue.length > 0) {
      const free = pick();
      if (free < 0) break;
      inFlight[free]++;
      queue.shift()!.grant(free);
    }
  }

  return {
    id: options.id ?? endpoints.map((m) => m.id).join(','),
    isReferenceReader: endpoints.every((m) => m.isReferenceReader),
    endpoints,
    inFlight: () => [...inFlight],
    limits: () => [...limits],
    rateLimited(index: number) {
      const now = performance.now();
      if (now - lastCut[index] < 1000) return;
      lastCut[index] = now;
      limits[index] = Math.max(1, limits[index] / 2);
    },
    queued: () => queue.length,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      const index = await acquire(signal);
      try {
        const res = await endpoints[index].generate(request, signal);
        limits[index] = Math.min(limit, limits[index] + 1 / limits[index]);
        return res;
      } finally {
        release(index);
      }
    },
    async close() {
      const pending = queue.splice(0);
      for (const w of pending) w.fail(new Error('pool closed'));
      await Promise.all(endpoints.map((m) => m.close?.()));
    },
  };
}
