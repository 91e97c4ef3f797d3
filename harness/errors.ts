// Typed errors. Every error that reaches the user carries a one-line message saying what is wrong and what to do.

/** Bad input from the user (flags, files, task names): exit code 2, no stack trace. */
export class UserError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UserError';
  }
}

export type ModelErrorKind = 'transient' | 'rate-limited' | 'permanent' | 'context-length' | 'timeout';

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
