// Scheduling policy for runs against a model server: which sample starts next, and which ready call goes to the
// server next. Measured against a simulated continuous-batching server by bench/schedule.ts (docs/SIMULATION.md).
// Order never changes results: every call of a sample is the same whatever runs beside it.
import type { Model, ModelRequest, ModelResponse } from '../types.js';

/** Items by longest chain first; ties keep their given (canonical) order. */
export function longestChainFirst<T>(items: readonly T[], chain: (item: T) => number): T[] {
  return items
    .map((item, i) => ({ item, i, c: chain(item) }))
    .sort((a, b) => b.c - a.c || a.i - b.i)
    .map((x) => x.item);
}

/** Max-priority queue; equal priorities leave in insertion order. */
export class PriorityQueue<T> {
  private heap: { item: T; priority: number; seq: number }[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  private before(i: number, j: number): boolean {
    const a = this.heap[i];
    const b = this.heap[j];
    return a.priority > b.priority || (a.priority === b.priority && a.seq < b.seq);
  }

  private swap(i: number, j: number): void {
    [this.heap[i], this.heap[j]] = [this.heap[j], this.heap[i]];
  }

  push(item: T, priority: number): void {
    this.heap.push({ item, priority, seq: this.seq++ });
    this.up(this.heap.length - 1);
  }

  pop(): T | undefined {
    if (this.heap.length === 0) return undefined;
    const top = this.heap[0].item;
    this.removeAt(0);
    return top;
  }

  /** Removes the entry holding `item`; true if found. */
  remove(item: T): boolean {
    const i = this.heap.findIndex((e) => e.item === item);
    if (i < 0) return false;
    this.removeAt(i);
    return true;
  }

  private removeAt(i: number): void {
    const last = this.heap.pop()!;
    if (i === this.heap.length) return;
    this.heap[i] = last;
    this.up(i);
    this.down(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.before(l, m)) m = l;
      if (r < n && this.before(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
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
