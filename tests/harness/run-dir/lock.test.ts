// run.lock (harness/run-dir/lock.ts): a lock is taken over only when it is provably stale on THIS host. A lock written
// by another host (a shared or network filesystem) is never taken over, whatever its pid means here.
import { test } from 'vitest';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockRunDir } from '../../../harness/run-dir/lock.js';

/** The pid of a process that has exited (so it is not running on this host). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const pid = Number(child.stdout);
  assert.ok(Number.isInteger(pid) && pid > 0, child.stdout);
  return pid;
}

function lockedDir(owner: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lock-'));
  const file = join(dir, 'run.lock');
  writeFileSync(file, owner);
  return { dir, file };
}

const otherHost = `${hostname()}-elsewhere`;

test('a lock held on another host is not taken over, even when its pid is not running here', () => {
  for (const pid of [deadPid(), process.pid, 999_999_999]) {
    const owner = `${otherHost} ${pid}`;
    const { dir, file } = lockedDir(owner);
    const takeovers: string[] = [];
    assert.throws(
      () => lockRunDir(dir, (m) => takeovers.push(m)),
      (e: Error) =>
        e.name === 'UserError' && e.message.includes('in use by another bench run') && e.message.includes(otherHost),
    );
    assert.deepEqual(takeovers, []);
    assert.equal(readFileSync(file, 'utf8'), owner, 'the other host keeps its lock');
  }
});

test('the same lock written on this host by a process that has exited is taken over, and released after', () => {
  const pid = deadPid();
  const { dir, file } = lockedDir(`${hostname()} ${pid}`);
  const takeovers: string[] = [];
  const release = lockRunDir(dir, (m) => takeovers.push(m));
  assert.equal(takeovers.length, 1);
  assert.match(takeovers[0], new RegExp(`stale lock from pid ${pid} \\(not running\\)`));
  assert.equal(readFileSync(file, 'utf8'), `${hostname()} ${process.pid}`);
  release();
  assert.equal(existsSync(file), false);
});

test('a lock held by a live process on this host is not taken over', () => {
  const owner = `${hostname()} ${process.pid}`;
  const { dir, file } = lockedDir(owner);
  assert.throws(() => lockRunDir(dir), /in use by another bench run/);
  assert.equal(readFileSync(file, 'utf8'), owner);
});
