import { defineConfig } from 'vitest/config';

// Tests spawn real child processes and servers and build multi-million-token contexts on a 2-core machine, so no
// per-test wall-clock limit applies (as with node's runner). No test asserts on measured time or throughput: timings
// that are fitted or compared come from the simulator's clock or fake timers, and the live comparisons are in bench/
// (`npm run bench:*`). Child processes get kill guards (tests/helpers/cli.ts) that only stop a run that hangs.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 0,
    hookTimeout: 0,
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
