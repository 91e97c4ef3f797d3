// Discrete-event model of a continuous-batching server (vLLM/SGLang style), in simulated seconds. Pure: no clock.
//
// The GPU runs steps back to back. At the start of a step, waiting requests join the running batch first come first
// served while it has fewer than maxBatch sequences. A step decodes one token for every sequence past its prefill
// and spends the rest of its token budget (prefillChunkTokens) on prefill chunks, oldest first. Its duration is
// stepBaseMs + stepPerSeqMs × decoding sequences + prefill tokens ÷ prefill rate. The step that finishes a prompt's
// prefill also yields its first output token; a request is done at the end of the step that yields its last token.
// A request arriving during a step waits for the next step boundary.
import { stepSeconds, validateGpuParams, type GpuParams } from './gpu-params.js';

export interface SimRequest {
  promptTokens: number;
  /** Tokens generated (at least 1 is simulated). */
  outputTokens: number;
}

export interface Completion {
  id: number;
  /** Simulated seconds. */
  arrivedAt: number;
  admittedAt: number;
  firstTokenAt: number;
  doneAt: number;
  promptTokens: number;
  outputTokens: number;
}

export interface EngineStats {
  steps: number;
  /** Seconds the GPU spent in steps. */
  busyS: number;
  prefillTokens: number;
  decodeTokens: number;
  completed: number;
  /** Σ decoding sequences × step duration: divided by busyS, the mean decode batch. */
  batchSeconds: number;
  /** Seconds of steps that ran with the batch at maxBatch. */
  fullBatchS: number;
}

/** What the benchmark and the live server need from a simulated server (one GPU or several). */
export interface GpuServer {
  readonly params: GpuParams;
  readonly now: number;
  readonly running: number;
  readonly waiting: number;
  readonly idle: boolean;
  readonly stats: EngineStats;
  submit(request: SimRequest, at?: number): number;
  cancel(id: number): boolean;
  advance(until: number, stopAtCompletion?: boolean): Completion[];
  nextCompletionAt(): number;
}

interface Seq {
  id: number;
  promptTokens: number;
  outputTokens: number;
  arrivedAt: number;
  admittedAt: number;
  firstTokenAt: number;
  prefillLeft: number;
  /** Engine step count at whose end the last token is out. */
  finishStep: number;
  cancelled: boolean;
}

/** Binary min-heap of sequences by finishStep (ties by id, so the order is deterministic). */
class FinishHeap {
  items: Seq[] = [];
  private less(a: Seq, b: Seq): boolean {
    return a.finishStep < b.finishStep || (a.finishStep === b.finishStep && a.id < b.id);
  }
  push(s: Seq): void {
    const a = this.items;
    a.push(s);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  peek(): Seq | undefined {
    return this.items[0];
  }
  pop(): Seq | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

/** Seconds by which a time computed along one path may differ from the same time computed along another (a probe
 *  jumps many steps at once, the live path stops at arrivals): a nanosecond, or a few ulps at long simulated times
 *  (at 10⁶ s one ulp is 2·10⁻¹⁰ s, so an absolute 10⁻⁹ alone made a cluster miss its predicted completion). */
function roundingSlack(until: number): number {
  return 1e-9 + Math.abs(until) * 1e-14;
}

export class GpuEngine implements GpuServer {
  readonly params: GpuParams;
  /** Start of the next step (the end of the last one), or the time the engine has been advanced to when idle. */
  private t = 0;
  private stepCount = 0;
  private nextId = 1;
  /** Waiting requests in arrival order; `head` avoids O(n) shifts. */
  private queue: Seq[] = [];
  private head = 0;
  private prefilling: Seq[] = [];
  private decoding = new FinishHeap();
  private liveDecoding = 0;
  private byId = new Map<number, Seq>();
  readonly stats: EngineStats = {
    steps: 0,
    busyS: 0,
    prefillTokens: 0,
    decodeTokens: 0,
    completed: 0,
    batchSeconds: 0,
    fullBatchS: 0,
  };

  constructor(params: GpuParams) {
    this.params = validateGpuParams({ ...params });
  }

  /** Simulated time the engine has reached. */
  get now(): number {
    return this.t;
  }

  /** Sequences in the running batch (prefilling or decoding). */
  get running(): number {
    return this.prefilling.length + this.liveDecoding;
  }

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** True when nothing is queued or running. */
  get idle(): boolean {
    return this.running === 0 && this.waiting === 0;
  }

  /** Adds a request arriving at `at` (default: now; never before now). Returns its id. */
  submit(request: SimRequest, at: number = this.t): number {
    if (!(request.promptTokens >= 0) || !Number.isFinite(request.promptTokens))
      throw new RangeError(`promptTokens must be >= 0, got ${request.promptTokens}`);
    const last = this.queue.length > this.head ? this.queue[this.queue.length - 1].arrivedAt : -Infinity;
    const arrivedAt = Math.max(at, this.t, last);
    const seq: Seq = {
      id: this.nextId++,
      promptTokens: Math.round(request.promptTokens),
      outputTokens: Math.max(1, Math.round(request.outputTokens)),
      arrivedAt,
      admittedAt: NaN,
      firstTokenAt: NaN,
      prefillLeft: Math.max(1, Math.round(request.promptTokens)),
      finishStep: Infinity,
      cancelled: false,
    };
    this.queue.push(seq);
    this.byId.set(seq.id, seq);
    return seq.id;
  }

  /** Drops a request (the client went away); true if it was still pending. */
  cancel(id: number): boolean {
    const s = this.byId.get(id);
    if (!s || s.cancelled) return false;
    s.cancelled = true;
    this.byId.delete(id);
    const qi = this.queue.indexOf(s, this.head);
    if (qi >= 0) this.queue.splice(qi, 1);
    const pi = this.prefilling.indexOf(s);
    if (pi >= 0) this.prefilling.splice(pi, 1);
    else if (qi < 0) this.liveDecoding--; // decoding: removed lazily from the heap
    return true;
  }

  /**
   * Runs whole steps that end by `until` (simulated seconds) and returns the requests they finished, in order.
   * With `stopAtCompletion`, returns after the first step that finishes any request. When idle, time moves to `until`.
   */
  advance(until: number, stopAtCompletion = false): Completion[] {
    const done: Completion[] = [];
    const p = this.params;
    for (;;) {
      const s = this.t;
      if (this.running === 0) {
        if (this.waiting === 0) {
          if (until !== Infinity && until > this.t) this.t = until;
          return done;
        }
        const a = this.queue[this.head].arrivedAt;
        if (a > s) {
          if (a > until) {
            this.t = until;
            return done;
          }
          this.t = a;
          continue;
        }
      }
      this.admit(s);
      this.dropCancelledTop();
      if (this.prefilling.length > 0) {
        const budget = p.prefillChunkTokens - this.liveDecoding;
        let tokens = 0;
        for (const q of this.prefilling) {
          if (tokens >= budget) break;
          tokens += Math.min(q.prefillLeft, budget - tokens);
        }
        const dur = stepSeconds(p, this.liveDecoding, tokens);
        if (s + dur > until + roundingSlack(until)) return done; // a probe's time may differ from this path's by rounding
        this.runSteps(1, dur, tokens);
        let left = tokens;
        const finished: Seq[] = [];
        while (left > 0 && this.prefilling.length > 0) {
          const q = this.prefilling[0];
          const take = Math.min(q.prefillLeft, left);
          q.prefillLeft -= take;
          left -= take;
          if (q.prefillLeft > 0) break;
          this.prefilling.shift();
          finished.push(q);
        }
        this.collectDecoders(done);
        for (const q of finished) {
          q.firstTokenAt = this.t;
          this.stats.decodeTokens++;
          if (q.outputTokens === 1) this.complete(q, done);
          else {
            q.finishStep = this.stepCount + q.outputTokens - 1;
            this.decoding.push(q);
            this.liveDecoding++;
          }
        }
      } else {
        const top = this.decoding.peek();
        if (!top) return done; // unreachable: running > 0 means someone decodes or prefills
        const dur = stepSeconds(p, this.liveDecoding);
        let n = top.finishStep - this.stepCount;
        if (until !== Infinity) n = Math.min(n, Math.floor((until - s + roundingSlack(until)) / dur));
        if (this.waiting > 0 && this.running < p.maxBatch) {
          // someone arrives mid-run and has room: stop at the first boundary at or after the arrival
          n = Math.min(n, Math.max(1, Math.ceil((this.queue[this.head].arrivedAt - s) / dur - 1e-9)));
        }
        if (n <= 0) return done;
        this.runSteps(n, dur, 0);
        this.collectDecoders(done);
      }
      if (stopAtCompletion && done.length > 0) return done;
    }
  }

  /** Time the next request would finish if nothing else arrived (Infinity when idle). Does not change the engine. */
  nextCompletionAt(): number {
    if (this.idle) return Infinity;
    const probe = this.clone();
    const done = probe.advance(Infinity, true);
    return done.length > 0 ? done[0].doneAt : Infinity;
  }

  /** An independent copy (for probing the future). */
  clone(): GpuEngine {
    const c = new GpuEngine(this.params);
    const copy = new Map<Seq, Seq>();
    const dup = (s: Seq) => {
      let d = copy.get(s);
      if (!d) copy.set(s, (d = { ...s }));
      return d;
    };
    c.t = this.t;
    c.stepCount = this.stepCount;
    c.nextId = this.nextId;
    c.queue = this.queue.slice(this.head).map(dup);
    c.prefilling = this.prefilling.map(dup);
    c.decoding.items = this.decoding.items.map(dup);
    c.liveDecoding = this.liveDecoding;
    for (const [id, s] of this.byId) c.byId.set(id, dup(s));
    Object.assign(c.stats, this.stats);
    return c;
  }

  private admit(at: number): void {
    while (
      this.running < this.params.maxBatch &&
      this.head < this.queue.length &&
      this.queue[this.head].arrivedAt <= at
    ) {
      const q = this.queue[this.head++];
      q.admittedAt = at;
      this.prefilling.push(q);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }

  private runSteps(n: number, dur: number, prefillTokens: number): void {
    this.stepCount += n;
    this.t += n * dur;
    const st = this.stats;
    st.steps += n;
    st.busyS += n * dur;
    st.prefillTokens += prefillTokens;
    st.decodeTokens += n * this.liveDecoding;
    st.batchSeconds += n * dur * this.liveDecoding;
    if (this.running >= this.params.maxBatch) st.fullBatchS += n * dur;
  }

  private dropCancelledTop(): void {
    while (this.decoding.peek()?.cancelled) this.decoding.pop();
  }

  private collectDecoders(done: Completion[]): void {
    for (;;) {
      const top = this.decoding.peek();
      if (!top || top.finishStep > this.stepCount) break;
      this.decoding.pop();
      if (top.cancelled) continue;
      this.liveDecoding--;
      this.complete(top, done);
    }
  }

  private complete(s: Seq, done: Completion[]): void {
    this.byId.delete(s.id);
    this.stats.completed++;
    done.push({
      id: s.id,
      arrivedAt: s.arrivedAt,
      admittedAt: s.admittedAt,
      firstTokenAt: s.firstTokenAt,
      doneAt: this.t,
      promptTokens: s.promptTokens,
      outputTokens: s.outputTokens,
    });
  }
}
