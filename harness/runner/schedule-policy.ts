// Scheduling policy for runs against a model server: which sample starts next, and which ready call goes to the
// server next. Measured against a simulated continuous-batching server by bench/schedule.ts (docs/SIMULATION.md).
// Order never changes results: every call of a sample is the same whatever runs beside it.
import type { Model, ModelRequest, ModelResponse } from '../types.js';
import { PriorityQueue } from '../util/priority-queue.js';

/** Items by longest chain first; ties keep their given (canonical) order. */
export function longestChainFirst<T>(items: readonly T[], chain: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i, c: chain(item) }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .map((x) => x.item);
}

/**
 * At most `slots` model calls out at once (set it to the server's batch: max_num_seqs × data-parallel replicas).
 * When full, the waiting call with the highest priority goes next (ties: first come), so with more samples in flight
 * than the server batch, the longest remaining chains keep their place in the batch instead of queueing FIFO
 * behind short samples at the server.
 */
export class CallGate {
  private out = 0;
  private readonly queue = new PriorityQueue<() => void>();

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1)
      throw new RangeError(`CallGate slots must be an integer >= 1, got ${slots}`);
  }

  get active(): number {
    return this.out;
  }

  get waiting(): number {
    return this.queue.size;
  }

  /** Resolves with a release function once the call may go out. Rejects with the signal's reason if aborted first. */
  acquire(priority: number, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.out--;
        this.pump();
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.out++;
        resolve(release);
      };
      const onAbort = () => {
        if (this.queue.remove(grant)) reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(grant, priority);
      this.pump();
    });
  }

  private pump(): void {
    while (this.out < this.slots && this.queue.size > 0) this.queue.pop()!();
  }
}

/** `model`, with every call passing through `gate` at priority `priority()` (e.g. the unit's remaining calls).
 *  The wrapper does not own the model: it has no close(); close the wrapped model once, as now. */
export function gatedModel(model: Model, gate: CallGate, priority: () => number): Model {
  return {
    id: model.id,
    isReferenceReader: model.isReferenceReader,
    async generate(request: ModelRequest, signal?: AbortSignal): Promise<ModelResponse> {
      const release = await gate.acquire(priority(), signal);
      try {
        return await model.generate(request, signal);
      } finally {
        release();
      }
    },
  };
}
