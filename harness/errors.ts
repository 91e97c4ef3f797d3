// Typed errors. Every error that reaches the user carries a one-line message saying what is wrong and what to do.

/** Bad input from the user (flags, files, task names): exit code 2, no stack trace. */
export class UserError extends Error {
  readonly exitCode: number = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * 'fatal': the endpoint cannot serve this run at all (key rejected, model or route missing, answers that are not chat
 * completions, no answer to any attempt of its first call, a Retry-After beyond the retry budget), or it fails every
 * call: before any success, a few calls failing the same way; after successes, a long run of failed calls in a row
 * (the run-level rule, harness/models/openai/retry-loop.ts). The runner stops the whole run on the first one.
 */
export type ModelErrorKind = 'transient' | 'rate-limited' | 'permanent' | 'context-length' | 'timeout' | 'fatal';

/** A failed model call, classified so the client knows whether to retry and the runner how to end the sample. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/**
 * The abort reason of a run stopped by a fatal endpoint error: calls it cuts off were not answered, so (attempts 0)
 * they are not recorded as model calls.
 */
export class RunStoppedError extends ModelCallError {
  readonly attempts = 0;
  constructor(cause: ModelCallError) {
    super(cause.message, 'fatal', cause.status);
    this.name = 'RunStoppedError';
  }
}

/** True for an error that means the endpoint cannot serve the run (see ModelErrorKind 'fatal'). */
export function isFatalModelError(err: unknown): err is ModelCallError {
  return err instanceof ModelCallError && err.kind === 'fatal';
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A task's data file is not there (e.g. one LongBench dataset missing from --data DIR): reported once, task skipped. */
export class DatasetMissingError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'DatasetMissingError';
  }
}

/** Where a stopped run stands: its finished samples are saved in `dir`, and the same command resumes it. */
export interface RunProgress {
  finished: number;
  planned: number;
  dir: string;
}

/**
 * A worker thread terminated at its heap limit (--worker-heap-mb), setting up or running a unit: the run stops, exit 3
 * (cli/commands/run.ts EXIT.sampleErrors). Thrown by the worker pool without `progress`; the runner adds it
 * (`stoppedAt`) so the one line says what was saved.
 */
export class WorkerOutOfMemoryError extends UserError {
  override readonly exitCode: number = 3;
  constructor(
    readonly heapMb: number,
    /** What the worker was doing, e.g. "running memagent on ruler-hqa at 1m, sample 3"; undefined between units. */
    readonly doing: string | undefined,
    readonly progress?: RunProgress,
  ) {
    const where = doing ? ` ${doing}` : '';
    const saved = progress
      ? `; run stopped: ${progress.finished} of ${progress.planned} samples finished and saved in ${progress.dir}`
      : '';
    super(
      `a worker thread ran out of memory (its ${heapMb} MB heap)${where}${saved}; ` +
        `rerun with fewer methods per run, --workers 1, or a larger --worker-heap-mb (e.g. ${heapMb * 2}) to resume`,
    );
    this.name = 'WorkerOutOfMemoryError';
  }

  stoppedAt(progress: RunProgress): WorkerOutOfMemoryError {
    return new WorkerOutOfMemoryError(this.heapMb, this.doing, progress);
  }
}
