import { defineConfig } from 'vitest/config';

// Tests spawn real child processes and servers and build multi-million-token contexts on a 2-core machine, so no
// per-test wall-clock limit applies (as with node's runner); performance is measured in bench/, never asserted here.
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
