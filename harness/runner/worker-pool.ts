import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunConfig } from '../config/run-config.js';
import { UserError, WorkerOutOfMemoryError } from '../errors.js';
import { translateIOError } from '../run-dir/io-errors.js';
import type { CallRecord, SampleRecord } from '../types.js';
import type { UnitSpec } from './execute.js';
import type { MemoryTraceLine } from '../memory/trace-line.js';
import type { FromWorker, ToWorker, UnitWorkerData } from './unit-worker.js';
import { isWorkerOutOfMemory, WORKER_HEAP_MB } from './worker-heap.js';

/** A young generation larger than V8's default: each update's prompt, scan and memory die young, and a bigger
 *  nursery lets them die there instead of being promoted and marked again (bench/sweep.ts: GC time about halved). */
const YOUNG_GENERATION_MB = 96;

export interface UnitRunner {
  run(
    spec: UnitSpec,
    onCalls: (calls: CallRecord[]) => void,
    onMemory: (lines: MemoryTraceLine[]) => void,
  ): Promise<SampleRecord | null>;
  abort(): void;
  close(): Promise<void>;
}

/** What a worker does before its first unit, as the out-of-memory line names it. */
const SETTING_UP = 'while loading the tokenizer, the tasks and the model';

/** "memagent on ruler-hqa at 1m, sample 3": the unit as the out-of-memory line names it. */
export function describeUnit(spec: UnitSpec): string {
  return `${spec.method} on ${spec.task} at ${spec.length.label}, sample ${spec.index}`;
}

/** Worker threads that each hold the tokenizer, the prepared tasks and the embedded model, rebuilt from the module
 *  at `setup` (worker-setup.ts); one unit at a time each. A worker that dies (out of its heap: a
 *  WorkerOutOfMemoryError) fails its unit and leaves the pool; once none is left, every unit waiting fails too. */
export function createWorkerPool(
  size: number,
  config: RunConfig,
  runDir: string,
  setup: string,
): UnitRunner & { size: number } {
  const here = fileURLToPath(import.meta.url);
  const entry = new URL(`./unit-worker${extname(here)}`, import.meta.url);
  type Job = {
    spec: UnitSpec;
    onCalls: (c: CallRecord[]) => void;
    onMemory: (lines: MemoryTraceLine[]) => void;
    resolve: (r: SampleRecord | null) => void;
    reject: (e: Error) => void;
  };
  const heapMb = config.workerHeapMb ?? WORKER_HEAP_MB;
  const workers = Array.from(
    { length: size },
    () =>
      new Worker(entry, {
        workerData: { config, runDir, setup } satisfies UnitWorkerData,
        resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      }),
  );
  const current = new Map<Worker, Job>();
  const idle: Worker[] = [...workers];
  const waiting: Job[] = [];
  const live = new Set(workers);
  /** Why the last worker died: units that can no longer run fail with it. */
  let dead: Error | undefined;
  const dispatch = () => {
    if (live.size === 0 && dead) for (const job of waiting.splice(0)) job.reject(dead);
    while (idle.length && waiting.length) {
      const w = idle.pop()!;
      const job = waiting.shift()!;
      current.set(w, job);
      w.postMessage({ type: 'unit', spec: job.spec } satisfies ToWorker);
    }
  };
  const ready = new Set<Worker>();
  for (const w of workers) {
    w.on('message', (msg: FromWorker) => {
      if (msg.type === 'ready') {
        ready.add(w);
        return;
      }
      const job = current.get(w);
      if (!job) return;
      if (msg.type === 'calls') job.onCalls(msg.calls);
      else if (msg.type === 'memory') job.onMemory(msg.lines);
      else {
        current.delete(w);
        idle.push(w);
        if (msg.type === 'done') job.resolve(msg.record);
        else job.reject(msg.user ? new UserError(msg.message) : new Error(`${msg.key}: ${msg.message}`));
        dispatch();
      }
    });
    w.on('error', (err) => {
      const job = current.get(w);
      current.delete(w);
      live.delete(w);
      const at = idle.indexOf(w);
      if (at >= 0) idle.splice(at, 1);
      dead = isWorkerOutOfMemory(err)
        ? new WorkerOutOfMemoryError(heapMb, ready.has(w) ? job && `running ${describeUnit(job.spec)}` : SETTING_UP)
        : (translateIOError(err, 'writing in', runDir) as Error);
      job?.reject(dead);
      dispatch();
    });
  }
  return {
    size,
    run(spec, onCalls, onMemory) {
      return new Promise((resolve, reject) => {
        waiting.push({ spec, onCalls, onMemory, resolve, reject });
        dispatch();
      });
    },
    abort() {
      for (const w of live) w.postMessage({ type: 'abort' } satisfies ToWorker);
      for (const job of waiting.splice(0)) job.resolve(null);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
