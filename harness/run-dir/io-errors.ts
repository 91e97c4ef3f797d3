// File-system failures inside a run directory (a full disk, permissions or a read-only mount changing mid-run, a
// directory where a file should be) as one line naming the path and the fix. Every write of a run directory
// (samples.jsonl, calls.jsonl, checkpoints, prompts, manifest, summary) goes through guardIO, so the run stops with
// a RunDirIOError (a UserError: exit 2, no stack trace) and what was written before stays; a rerun resumes it.
import { UserError } from '../errors.js';

/** A run directory write that failed for a file-system reason: `code` is the errno code, `path` the file. */
export class RunDirIOError extends UserError {
  constructor(
    message: string,
    readonly path: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'RunDirIOError';
  }
}

const WHAT: Record<string, [string, string]> = {
  ENOSPC: ['no space left on device', 'free space or use another --out'],
  EDQUOT: ['disk quota exceeded', 'free space or use another --out'],
  EACCES: ['permission denied', 'make it writable or use another --out'],
  EPERM: ['operation not permitted', 'make it writable or use another --out'],
  EROFS: ['read-only file system', 'remount it read-write or use another --out'],
  EISDIR: ['a directory is in the way', 'remove or rename that directory or use another --out'],
  EEXIST: ['a file is in the way', 'remove or rename that file or use another --out'],
  ENOTDIR: ['a file is in the way of a directory', 'remove or rename that file or use another --out'],
  ENOENT: ['the directory disappeared', 'check the --out directory or use another --out'],
  EIO: ['an I/O error', 'check the disk or use another --out'],
  EMFILE: ['too many open files', 'raise the open-file limit (ulimit -n)'],
};

/** The errno code of a file-system error, or undefined for anything else. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

/** A file-system error as a RunDirIOError naming `path`; anything else is returned as it was. */
export function translateIOError(err: unknown, action: string, path: string): unknown {
  if (err instanceof UserError) return err;
  const code = errnoCode(err);
  if (!code) return err;
  const [what, fix] = WHAT[code] ?? [`${code}`, 'check the --out directory or use another --out'];
  return new RunDirIOError(`${what} ${action} ${path}: ${fix}; finished samples are saved`, path, code);
}

/** Runs `fn`, turning a file-system error into a RunDirIOError "<what> <action> <path>: <fix>". */
export function guardIO<T>(action: string, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw translateIOError(err, action, path);
  }
}
