// The Quick start's main job, timed: `npm run bench:quickstart [-- --cold] [-- --keep] [-- RUN-ARGS]` (needs
// `npm run build`). Runs `bench run ruler-hqa --lengths 32k..3.5m` (or that command with RUN-ARGS in place of the
// lengths, e.g. `--lengths 32k..512k --samples 16`) in a child process under /usr/bin/time -v and prints wall time,
// CPU time (user + sys of the process and its worker threads), peak RSS and the load average before and after.
// --cold starts from an empty pool cache (BENCH_CACHE_DIR), as a first run does; --keep keeps the run directory
// (to compare its records with another run's, e.g. `bench gate DIR --baseline FILE --exact`).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUICKSTART } from '../scripts/readme/claims.js';
import { timed } from '../scripts/readme/measurements.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const cold = args.includes('--cold');
const keep = args.includes('--keep');
const runArgs = args.filter((a) => a !== '--cold' && a !== '--keep');
const command = runArgs.length > 0 ? [...QUICKSTART.slice(0, 2), ...runArgs] : QUICKSTART;

const dir = mkdtempSync(join(tmpdir(), 'bench-quickstart-'));
const out = join(dir, 'run');
const env = { ...process.env, ...(cold ? { BENCH_CACHE_DIR: join(dir, 'cache') } : {}) };
const before = loadavg()[0];
const t = await timed(
  root,
  [process.execPath, join(root, 'bin', 'bench.js'), ...command, '--no-progress', '--out', out],
  env,
);
const after = loadavg()[0];
if (!keep) rmSync(dir, { recursive: true, force: true });
if (t.code !== 0) {
  console.error(`bench:quickstart: the run exited ${t.code}`);
  process.exit(1);
}
console.log(`bench:quickstart: bench ${command.join(' ')}`);
console.log(
  `  ${availableParallelism()} CPUs, load average ${before.toFixed(2)} before and ${after.toFixed(2)} after, ` +
    `${cold ? 'empty pool cache' : "the working directory's .bench-cache"}`,
);
console.log(
  `  wall ${t.wallS.toFixed(1)} s, CPU ${(t.userS + t.sysS).toFixed(1)} s (user ${t.userS.toFixed(1)} + sys ` +
    `${t.sysS.toFixed(1)})${t.maxRssMb ? `, peak RSS ${t.maxRssMb.toFixed(0)} MB` : ''}`,
);
if (keep) console.log(`  run directory: ${out}`);
