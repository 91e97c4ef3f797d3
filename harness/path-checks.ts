// Argument-level checks of input and output paths, done before any work so that a bad --out or --junit is one line and exit 2
// instead of an error (or "internal error") after the work. What happens inside a run directory once it is open
// (a full disk, permissions changing mid-run) is the run directory's business.
import { accessSync, constants, existsSync, realpathSync, statSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './errors.js';
import { refuseNonRegular } from './text-file.js';

/** The path itself if it exists, else its nearest existing ancestor. */
function nearestExisting(path: string): string {
  let p = resolve(path);
  while (!existsSync(p)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return p;
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** statfs magic numbers of kernel file systems where no file of ours can be written. */
const KERNEL_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x64626720: 'debugfs',
  0x1cd1: 'devpts',
};

/** The kernel file system (proc, sysfs, ...) `path` lies on, or null. */
function kernelFileSystem(path: string): string | null {
  let real = path;
  try {
    real = realpathSync(path);
  } catch {
    // checked by path only
  }
  try {
    const type = KERNEL_FS[statfsSync(real).type];
    if (type) return type;
  } catch {
    // statfs unavailable: fall back to the path
  }
  const top = /^\/(proc|sys)(\/|$)/.exec(real);
  return top ? (top[1] === 'proc' ? 'proc' : 'sysfs') : null;
}

/** Refuses a path on /proc, /sys and the like (a recursive mkdir there never ends). */
function checkNotKernelFs(at: string, flag: string, path: string, fix: string): void {
  const fs = kernelFileSystem(at);
  if (fs) throw new UserError(`${flag} ${path}: ${at} is on the kernel's ${fs} file system, not a disk; ${fix}`);
}

/** Where a missing directory `dir` would be created: refuses when an ancestor is a file or is not writable. */
function checkCreatable(dir: string, flag: string, path: string, fix: string): void {
  const at = nearestExisting(dir);
  checkNotKernelFs(at, flag, path, fix);
  if (!statSync(at).isDirectory())
    throw new UserError(`${flag} ${path}: ${at} is a file, so no directory can be made under it; ${fix}`);
  if (!writable(at)) throw new UserError(`${flag} ${path}: cannot write in ${at} (permission denied); ${fix}`);
}

/** A directory the command will create or write into (e.g. `bench run --out`). */
export function checkOutputDir(path: string, flag: string, fix: string): void {
  if (path.trim() === '') throw new UserError(`${flag} is empty; ${fix}`);
  if (existsSync(path)) {
    checkNotKernelFs(resolve(path), flag, path, fix);
    if (!statSync(path).isDirectory()) throw new UserError(`${flag} ${path} is a file, not a directory; ${fix}`);
    if (!writable(path))
      throw new UserError(`${flag} ${path}: the directory is not writable (permission denied); ${fix}`);
    return;
  }
  checkCreatable(path, flag, path, fix);
}

/** A file the command will write (created with its parent directories if missing), e.g. `bench gate --junit`. */
export function checkOutputFile(path: string, flag: string, fix: string): void {
  if (path.trim() === '') throw new UserError(`${flag} is empty; ${fix}`);
  if (existsSync(path)) {
    if (statSync(path).isDirectory()) throw new UserError(`${flag} ${path} is a directory, not a file; ${fix}`);
    if (!writable(path) || !writable(dirname(resolve(path))))
      throw new UserError(`${flag} ${path}: cannot write it (permission denied); ${fix}`);
    return;
  }
  checkCreatable(dirname(resolve(path)), flag, path, fix);
}

/**
 * A file the command will read (e.g. `--templates`): a pipe, a device or a socket is refused (one never ends, or
 * grows memory without bound, and none can be read twice). A missing file or a directory is the reader's to name.
 * `flag` names the option in the message (none for a positional path).
 */
export function checkInputFile(path: string, flag = ''): void {
  let st;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  refuseNonRegular(st, flag ? `${flag} ${path}` : path);
}
