// File-system failures inside a run directory (a full disk, permissions or a read-only mount changing mid-run, a
// directory where a file should be) as one line naming the path and the fix. Every write of a run directory
// (samples.jsonl, calls.jsonl, checkpoints, prompts, manifest, summary) goes through guardIO, so the run stops with
// a RunDirIOError (a UserError: exit 2, no stack trace) and what was written before stays; a rerun resumes it. The
// commands that read or write files outside a run (report, export, merge) use the same translation (fileIOError)
// without the "finished samples are saved" tail, and cli/main.ts routes any other file-system error through it.
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

/** How a file error is worded: the flag that picks another place, and whether a run's samples are at stake. */
export interface IOContext {
  /** The flag naming the place to change ("--out"). Default "--out". */
  flag?: string;
  /** Ends the line with "finished samples are saved" (a run's writes). Default false. */
  saved?: boolean;
  /** The failure was while reading: a permission problem asks for read access, not write access. */
  reading?: boolean;
}

/** `path` without the suffix of an atomic write's temporary (`<file>.tmp-<pid>-<thread>-<n>`): the file meant. */
function meantPath(path: string): string {
  return path.replace(/\.tmp-\d+-\d+-\d+$/, '');
}

/** A file-system error as a RunDirIOError "<what> <action> <path>: <fix>"; anything else is returned as it was. */
export function fileIOError(err: unknown, action: string, path: string, ctx: IOContext = {}): unknown {
  if (err instanceof UserError) return err;
  const code = errnoCode(err);
  if (!code) return err;
  const flag = ctx.flag ?? '--out';
  let [what, fix] = WHAT[code] ?? [`${code}`, 'check the --out directory or use another --out'];
  if (ctx.reading && (code === 'EACCES' || code === 'EPERM'))
    fix = 'make it readable (it may belong to another user) or run as its owner';
  else fix = fix.replace(/--out/g, flag);
  const where = meantPath(path);
  return new RunDirIOError(
    `${what} ${action} ${where}: ${fix}${ctx.saved ? '; finished samples are saved' : ''}`,
    where,
    code,
  );
}

/** A run directory's file-system error as a RunDirIOError naming `path`; anything else is returned as it was. */
export function translateIOError(err: unknown, action: string, path: string): unknown {
  return fileIOError(err, action, path, { saved: true });
}

/** What a failed system call was doing, as the action of fileIOError ("creating", "renaming", ...); `fallback` for
 * an open, read or write, where the caller knows best whether it was reading or writing. */
export function actionOf(err: unknown, fallback = 'opening'): string {
  const syscall = (err as NodeJS.ErrnoException | null)?.syscall;
  switch (syscall) {
    case 'mkdir':
      return 'creating';
    case 'rename':
      return 'renaming';
    case 'unlink':
    case 'rmdir':
    case 'rm':
      return 'removing';
    case 'scandir':
    case 'stat':
    case 'lstat':
      return 'reading';
    case 'copyfile':
      return 'copying';
    default:
      return fallback;
  }
}

/** Runs `fn`, turning a file-system error into a RunDirIOError worded by `ctx`, naming the failed call's own path. */
export function guardFiles<T>(action: string, fallbackPath: string, ctx: IOContext, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw fileIOError(err, actionOf(err, action), (err as NodeJS.ErrnoException | null)?.path ?? fallbackPath, ctx);
  }
}

/** guardFiles for an async `fn`. */
export async function guardFilesAsync<T>(
  action: string,
  fallbackPath: string,
  ctx: IOContext,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw fileIOError(err, actionOf(err, action), (err as NodeJS.ErrnoException | null)?.path ?? fallbackPath, ctx);
  }
}

/** Runs `fn`, turning a file-system error into a RunDirIOError "<what> <action> <path>: <fix>". */
export function guardIO<T>(action: string, path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw translateIOError(err, action, path);
  }
}
