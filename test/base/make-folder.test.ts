// makeFolder: mkdir -p that returns where Node's recursive mkdir spins forever (/proc), with Node's own errors.

import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFolder, makeTemporaryFolder, removeTree } from '../../src/base/index.js';

let root: string;
beforeAll(async () => {
  root = await makeTemporaryFolder('rdw-make-folder-');
});
afterAll(async () => {
  await removeTree(root);
});

describe('makeFolder', () => {
  it('makes every missing folder of a path, and does nothing for one that exists', async () => {
    const deep = path.join(root, 'a', 'b', 'c');
    await makeFolder(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    await writeFile(path.join(deep, 'kept'), 'x');
    await makeFolder(deep);
    await makeFolder(path.join(root, 'a'));
    expect((await stat(path.join(deep, 'kept'))).size).toBe(1);
  });

  it('resolves a relative path against the working directory', async () => {
    const relative = path.relative(process.cwd(), path.join(root, 'rel', 'x'));
    await makeFolder(relative);
    expect((await stat(path.join(root, 'rel', 'x'))).isDirectory()).toBe(true);
  });

  it('refuses a file where a folder must be, above the target or at it (ENOTDIR, nothing made)', async () => {
    const file = path.join(root, 'file');
    await writeFile(file, 'x');
    await expect(makeFolder(path.join(file, 'sub', 'deeper'))).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(makeFolder(file)).rejects.toMatchObject({ code: 'ENOTDIR', syscall: 'mkdir', path: file });
    expect((await stat(file)).isFile()).toBe(true);
  });

  it('returns under two concurrent callers making the same folders', async () => {
    const shared = path.join(root, 'race', 'x', 'y');
    await Promise.all([makeFolder(shared), makeFolder(shared), mkdir(path.join(root, 'race'), { recursive: true })]);
    expect((await stat(shared)).isDirectory()).toBe(true);
  });

  it.runIf(process.platform === 'linux')("says ENOENT for a folder /proc will not hold (Node's recursive mkdir never returns there)", async () => {
    await expect(makeFolder('/proc/rdw-not-a-process/sub')).rejects.toMatchObject({ code: 'ENOENT', syscall: 'mkdir', path: '/proc/rdw-not-a-process' });
  });
});
