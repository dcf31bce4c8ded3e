// childError: the error a failed benchmark script died of, from its stderr, as the bench runner shows it.

import { describe, expect, it } from 'vitest';
import { childError } from './support/child-error.js';

/** What Node printed when kernel-start.bench.ts removed the parent of TMPDIR (issue 27), progress line first. */
const EBUSY = `round 1: nbconvert 2.57 s; kernel ready 1.26 s, first output +0.65 s
node:internal/fs/promises:822
  return await PromisePrototypeThen(
         ^

Error: EBUSY: resource busy or locked, rmdir '/'
    at async rmdir (node:internal/fs/promises:822:10)
    at async main (/work/test/bench/kernel-start.bench.ts:108:5)
    at async <anonymous> (/work/test/bench/kernel-start.bench.ts:140:1) {
  errno: -16,
  code: 'EBUSY',
  syscall: 'rmdir',
  path: '/'
}

Node.js v20.20.2
`;

describe('childError', () => {
  it.each([
    ['an uncaught fs error: its line, code, syscall and path', EBUSY, "Error: EBUSY: resource busy or locked, rmdir '/' (code 'EBUSY', syscall 'rmdir', path '/')"],
    ['the bracketed form of an inspected error', "[Error: EBUSY: resource busy or locked, rmdir '/'] {\n  errno: -16,\n  code: 'EBUSY'\n}\n", "Error: EBUSY: resource busy or locked, rmdir '/' (code 'EBUSY')"],
    ['a typed error with a code of Node', 'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string\n    at x (y.js:1:1)\n', 'TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string'],
    ['the last of two reports', 'Error: first\n    at a (b:1:1)\nRangeError: second\n    at c (d:1:1)\n', 'RangeError: second'],
    ['no report: the last line naming an error', 'progress 1\nscenario failed: error in worker\nbye\n', 'scenario failed: error in worker'],
    ['no report and no error named: the last line', 'progress 1\nprogress 2\n', 'progress 2'],
    ['nothing printed', '', ''],
  ])('%s', (_name, stderr, expected) => {
    expect(childError(stderr)).toBe(expected);
  });
});
