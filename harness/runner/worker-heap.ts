// A worker thread's heap: its default, its floor, and how Node says a worker outgrew it (the run then stops with
// harness/errors.ts WorkerOutOfMemoryError).

/** A worker's old-generation heap cap: V8 otherwise lets garbage from millions of decoded chunks grow to GBs before
 *  collecting. A unit's live data (cached pool ids, the reader's lexed bodies, one window, one memory, one 120K-token
 *  prompt, a rival's per-sample state over a 1M-token document) is far smaller; 384 MB was too little for the six
 *  methods of issue 19 together at 1M. `--worker-heap-mb` changes it. */
export const WORKER_HEAP_MB = 512;
/** The smallest `--worker-heap-mb`: V8 starts a worker below it, but nothing of a run fits. */
export const MIN_WORKER_HEAP_MB = 8;

/** Node's error code for a worker thread terminated at its resourceLimits. */
export const WORKER_OOM_CODE = 'ERR_WORKER_OUT_OF_MEMORY';

/** True for the error a worker thread is terminated with when it runs out of its heap. */
export function isWorkerOutOfMemory(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === WORKER_OOM_CODE;
}
