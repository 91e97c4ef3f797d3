import { closeSync, linkSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `file` holding `text`, failing with EEXIST when it exists. The text is written to a temporary first and
 * hard-linked into place, so no other process ever sees the lock empty (where links are not supported: create, write).
 */
function createFilled(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  try {
    linkSync(temp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw err;
    const fd = openSync(file, 'wx');
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * An exclusive lock on a run directory: `run.lock` holds host and pid. A lock left by a killed process on this host
 * is taken over at once (a pid check, not a staleness timeout, so `kill -9` then rerun works immediately), and so is
 * an empty or unreadable-as-"host pid" lock (a crash or a full disk between creating it and writing it). Each
 * takeover is reported through `onTakeover` (one line for stderr).
 */
export function lockRunDir(dir: string, onTakeover: (message: string) => void = () => {}): () => void {
  const file = join(dir, 'run.lock');
  const me = `${hostname()} ${process.pid}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createFilled(file, me);
      return () => {
        try {
          if (readFileSync(file, 'utf8') === me) rmSync(file);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = '';
      try {
        owner = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      const [host, pidText] = owner.trim().split(' ');
      const pid = Number(pidText);
      if (!/^\S+ \d+$/.test(owner.trim())) {
        // Written by no live run: a lock is created and filled in one step, so an empty or garbled one is a leftover.
        onTakeover(`taking over a stale lock in ${dir} (${owner.trim() === '' ? 'empty' : 'unreadable'} ${file})`);
        rmSync(file, { force: true });
        continue;
      }
      if (host === hostname() && Number.isInteger(pid) && !alive(pid)) {
        onTakeover(`taking over a stale lock from pid ${pid} (not running) in ${dir}`);
        rmSync(file, { force: true });
        continue;
      }
      throw new UserError(
        `run directory ${dir} is in use by another bench run (${owner}); wait for it or use another --out`,
      );
    }
  }
  throw new UserError(`cannot lock run directory ${dir}; remove ${file} if no run is using it`);
}
