// The `rdw` bin in a checkout: `npm run build` (which `npm test`, `npm start` and `npm pack` run) leaves
// dist/cli/main.js executable. tsc writes a new file 0644; npm sets the mode only when it installs a package, and
// `npx rdw` in the checkout links the file as it is: after `npm pack` (which rebuilds dist/ from nothing) it said
// "sh: 1: rdw: Permission denied", exit 127 (a new user's trial, session 35).

import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../support/run-built-cli.js';

const run = promisify(execFile);

describe('the built rdw bin', () => {
  it('is executable after the build and runs by its shebang, without naming node', async () => {
    expect(statSync(BUILT_CLI).mode & 0o111).toBe(0o111);
    const { stdout } = await run(BUILT_CLI, ['--version'], { env: { PATH: process.env.PATH ?? '' } });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
