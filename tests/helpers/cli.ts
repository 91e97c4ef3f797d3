// Running the real `bench` binary (dist/, built by `npm test`) as a child process, for CLI and bad-input tests.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { BIN } from './bench-serve.js';

export interface BenchResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `bench ARGS`; asynchronous, so a test can serve HTTP from the same process meanwhile. Killed after timeoutMs. */
export function runBench(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {},
): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.stdin.end(opts.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** The contract for bad input: the exit code, exactly one non-empty stderr line matching `message`, no stack trace. */
export function assertOneLine(r: BenchResult, code: number, message: RegExp): void {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(r.code, code, `exit ${r.code} (expected ${code}); stderr: ${r.stderr}`);
  assert.equal(lines.length, 1, `expected one stderr line, got:\n${r.stderr}`);
  assert.match(lines[0], message);
  assert.ok(!/\n\s+at .+:\d+:\d+/.test(r.stderr), `stack trace on stderr:\n${r.stderr}`);
}

/** A content fingerprint of every file under dir (paths and bytes), to show a refused command changed nothing. */
export function dirFingerprint(dir: string): string {
  const h = createHash('sha256');
  if (!existsSync(dir)) return 'absent';
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(p).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(dir);
  return h.digest('hex');
}
