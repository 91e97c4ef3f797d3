// Runs the built `bench` binary (bin/bench.js → dist/) as the README's reader would, remembering each command's
// output so that several claims read one run.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface BenchOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type BenchRunner = (args: string[], opts?: { cwd?: string; expectCode?: number }) => Promise<BenchOutput>;

function spawnBench(root: string, args: string[], cwd: string): Promise<BenchOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'bench.js'), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A runner that runs each distinct (args, cwd) once and fails on an exit code other than the expected one (0). */
export function benchRunner(root: string): BenchRunner {
  const memo = new Map<string, Promise<BenchOutput>>();
  return async (args, opts = {}) => {
    const cwd = opts.cwd ?? root;
    const key = JSON.stringify([cwd, args]);
    if (!memo.has(key)) memo.set(key, spawnBench(root, args, cwd));
    const out = await memo.get(key)!;
    const want = opts.expectCode ?? 0;
    if (out.code !== want) {
      throw new Error(
        `bench ${args.join(' ')} exited ${out.code} (expected ${want}): ${out.stderr.trim().slice(-2000)}`,
      );
    }
    return out;
  };
}
