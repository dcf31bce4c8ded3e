import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One TMPDIR per run, removed at its end (test/support/test-temp-dir.ts).
    globalSetup: ['test/support/test-temp-dir.ts'],
  },
});
