// Several simulated GPUs behind one endpoint (data parallel): each request goes to the copy with the fewest requests
// queued or running (ties: the lowest index), as a least-outstanding-requests router would send it.
import { GpuEngine, type Completion, type EngineStats, type GpuServer, type SimRequest } from './engine.js';
import { validateGpuParams, type GpuParams } from './gpu-params.js';

export class GpuCluster implements GpuServer {
  readonly params: GpuParams;
  readonly engines: GpuEngine[];
  private t = 0;
  private nextId = 1;
  private where = new Map<number, { e: number; local: number }>();
  private global: Map<number, number>[];
  /** Cached next completion time per engine; NaN when it must be probed again. */
  private next: number[];

  constructor(params: GpuParams) {
    this.params = validateGpuParams({ ...params });
    const n = params.replicas ?? 1;
    this.engines = Array.from({ length: n }, () => new GpuEngine({ ...params, replicas: 1 }));
    this.global = this.engines.map(() => new Map());
    this.next = this.engines.map(() => NaN);
  }

  get now(): number {
    return this.t;
  }
  get running(): number {
    return this.engines.reduce((n, e) => n + e.running, 0);
  }
  get waiting(): number {
    return this.engines.reduce((n, e) => n + e.waiting, 0);
  }
  get idle(): boolean {
    return this.engines.every((e) => e.idle);
  }
  /** Summed over the copies (busyS and fullBatchS are GPU-seconds). */
  get stats(): EngineStats {
    const out: EngineStats = {
      steps: 0,
      busyS: 0,
      prefillTokens: 0,
      decodeTokens: 0,
      completed: 0,
      batchSeconds: 0,
      fullBatchS: 0,
    };
    for (const e of this.engines) for (const k of Object.keys(out) as (keyof EngineStats)[]) out[k] += e.stats[k];
    return out;
  }

  submit(request: SimRequest, at: number = this.t): number {
    let best = 0;
    let load = Infinity;
    this.engines.forEach((e, i) => {
      const l = e.running + e.waiting;
      if (l < load) {
        load = l;
        best = i;
      }
    });
    const local = this.engines[best].submit(request, Math.max(at, this.t));
    const id = this.nextId++;
    this.where.set(id, { e: best, local });
    this.global[best].set(local, id);
    this.next[best] = NaN;
    return id;
  }

  cancel(id: number): boolean {
    const w = this.where.get(id);
    if (!w) return false;
    this.where.delete(id);
    this.global[w.e].delete(w.local);
    this.next[w.e] = NaN;
    return this.engines[w.e].cancel(w.local);
  }

  nextCompletionAt(): number {
    let min = Infinity;
    for (let i = 0; i < this.engines.length; i++) {
      if (Number.isNaN(this.next[i])) this.next[i] = this.engines[i].nextCompletionAt();
      min = Math.min(min, this.next[i]);
    }
    return min;
  }

  advance(until: number, stopAtCompletion = false): Completion[] {
    if (!stopAtCompletion) return this.advanceTo(until);
    for (let tries = 0; tries < 3; tries++) {
      const first = this.nextCompletionAt();
      if (first === Infinity && until === Infinity) return [];
      const done = this.advanceTo(Math.min(first, until));
      if (done.length > 0 || first > until) return done;
      this.next.fill(NaN); // rounding left the predicted step just short: probe again from the exact state
    }
    throw new Error('simulated cluster: predicted completion did not happen');
  }

  private advanceTo(to: number): Completion[] {
    const done: Completion[] = [];
    this.engines.forEach((e, i) => {
      const got = e.advance(to);
      if (got.length === 0) return;
      this.next[i] = NaN;
      for (const c of got) {
        const id = this.global[i].get(c.id)!;
        this.global[i].delete(c.id);
        this.where.delete(id);
        done.push({ ...c, id });
      }
    });
    if (to !== Infinity) this.t = Math.max(this.t, to);
    else this.t = Math.max(this.t, ...this.engines.map((e) => e.now));
    return done.sort((a, b) => a.doneAt - b.doneAt || a.id - b.id);
  }
}

/** One engine for one GPU, a cluster for replicas > 1. */
export function createGpuServer(params: GpuParams): GpuServer {
  return (params.replicas ?? 1) > 1 ? new GpuCluster(params) : new GpuEngine(params);
}
