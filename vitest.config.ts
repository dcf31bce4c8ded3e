import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Benchmark scripts are *.bench.ts (not included); test/bench/bench-smoke.test.ts runs them in --quick mode.
    exclude: ['node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // At least two test files at once: most files spend their time waiting on a child process, a socket or a
    // timer, so on a 2-core machine vitest's default (cores − 1 = one fork) leaves a core idle. A clean-clone CI
    // took 37.5 min with one fork and 26 min with two, under the same load.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One TMPDIR per run, removed at its end (test/support/test-temp-dir.ts).
    globalSetup: ['test/support/test-temp-dir.ts'],
  },
});
