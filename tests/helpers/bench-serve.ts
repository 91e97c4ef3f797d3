import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(process.cwd(), 'bin', 'bench.js');

/** Starts the real `bench serve` binary on a free port; resolves with its base URL once it prints it. */
export function startBenchServe(
  extra: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...extra], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) resolve({ url: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`bench serve exited ${code}: ${out}`)));
  });
}
