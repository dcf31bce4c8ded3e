import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Benchmark scripts are *.bench.ts (not included); test/bench/bench-smoke.test.ts runs them in --quick mode.
    exclude: ['node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One TMPDIR per run, removed at its end (test/support/test-temp-dir.ts).
    globalSetup: ['test/support/test-temp-dir.ts'],
  },
});
