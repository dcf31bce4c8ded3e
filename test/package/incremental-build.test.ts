// `npm run build` (tsc -b tsconfig.json, build info in dist/.tsbuildinfo) after a type-check that emitted nothing:
// the build info a `tsc --noEmit -p tsconfig.json` writes must not tell the next build that dist/ is up to date.
// TypeScript 5.9 records what was left unemitted; this keeps a TypeScript upgrade from silently breaking it
// (README: why there is one tsconfig). About 22 s on 2 cores: two type-checks and two builds of src/.

import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const BUILD_ARGS = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build
  .split(' ')
  .slice(2); // `node node_modules/typescript/bin/tsc -b tsconfig.json` → its arguments

let temp: string;

beforeAll(async () => {
  temp = await makeTemporaryFolder('rdw-build-');
  for (const entry of ['package.json', 'tsconfig.json', 'src']) cpSync(path.join(ROOT, entry), path.join(temp, entry), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(temp, 'node_modules'), 'dir');
});

afterAll(async () => {
  if (temp) await removeTree(temp);
});

/** Runs tsc in the copy; a failure names tsc's diagnostics. */
async function tsc(args: string[]): Promise<void> {
  await run(process.execPath, [TSC, ...args], { cwd: temp, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc ${args.join(' ')} failed:\n${error.stdout ?? String(error)}`);
  });
}

describe('npm run build after tsc --noEmit', () => {
  it('emits the whole tree, and then an edit the type-check saw first', async () => {
    expect(BUILD_ARGS).toEqual(['-b', 'tsconfig.json']);
    await tsc(['--noEmit', '-p', 'tsconfig.json']);
    expect(existsSync(path.join(temp, 'dist/.tsbuildinfo'))).toBe(true);
    expect(existsSync(path.join(temp, 'dist/index.js'))).toBe(false);
    await tsc(BUILD_ARGS);
    expect(existsSync(path.join(temp, 'dist/index.js'))).toBe(true);

    appendFileSync(path.join(temp, 'src/base/index.ts'), '\nexport const BUILD_PROBE = 42;\n');
    await tsc(['--noEmit', '-p', 'tsconfig.json']);
    await tsc(BUILD_ARGS);
    expect(readFileSync(path.join(temp, 'dist/base/index.js'), 'utf8')).toContain('BUILD_PROBE = 42');
  }, 180_000);
});
