import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
 * An exclusive lock on a run directory: `run.lock` holds host and pid. A lock left by a killed process on this host
 * is taken over at once (a pid check, not a staleness timeout, so `kill -9` then rerun works immediately).
 */
export function lockRunDir(dir: string): () => void {
  const file = join(dir, 'run.lock');
  const me = `${hostname()} ${process.pid}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, me);
      closeSync(fd);
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
      const [host, pidText] = owner.split(' ');
      const pid = Number(pidText);
      if (host === hostname() && Number.isInteger(pid) && !alive(pid)) {
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
