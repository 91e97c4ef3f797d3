// Typed errors. Every error that reaches the user carries a one-line message saying what is wrong and what to do.

/** Bad input from the user (flags, files, task names): exit code 2, no stack trace. */
export class UserError extends Error {
  readonly exitCode = 2;
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
