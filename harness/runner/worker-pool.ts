import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunConfig } from '../config/run-config.js';
import { UserError } from '../errors.js';
import { translateIOError } from '../run-dir/io-errors.js';
import type { CallRecord, SampleRecord } from '../types.js';
import type { UnitSpec } from './execute.js';
import type { MemoryTraceLine } from '../memory/trace-line.js';
import type { FromWorker, ToWorker, UnitWorkerData } from './unit-worker.js';

/** A worker's old-generation heap cap: V8 otherwise lets garbage from millions of decoded chunks grow to GBs before
 *  collecting. A unit's live data (cached pool ids, the reader's lexed bodies, one window, one memory, one 120K-token
 *  prompt, a rival's per-sample state over a 1M-token document) is far smaller; 384 MB was too little for the six
 *  methods of issue 19 together at 1M. */
const WORKER_HEAP_MB = 512;
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

/** Worker threads that each hold the tokenizer, the prepared tasks and the embedded model, rebuilt from the module
 *  at `setup` (worker-setup.ts); one unit at a time each. */
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
  const workers = Array.from(
    { length: size },
    () =>
      new Worker(entry, {
        workerData: { config, runDir, setup } satisfies UnitWorkerData,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      }),
  );
  const current = new Map<Worker, Job>();
  const idle: Worker[] = [...workers];
  const waiting: Job[] = [];
  const dispatch = () => {
    while (idle.length && waiting.length) {
      const w = idle.pop()!;
      const job = waiting.shift()!;
      current.set(w, job);
      w.postMessage({ type: 'unit', spec: job.spec } satisfies ToWorker);
    }
  };
  for (const w of workers) {
    w.on('message', (msg: FromWorker) => {
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
      job?.reject(translateIOError(err, 'writing in', runDir) as Error);
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
      for (const w of workers) w.postMessage({ type: 'abort' } satisfies ToWorker);
      for (const job of waiting.splice(0)) job.resolve(null);
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
