import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree, replaceFile } from '../../src/base/index.js';

describe('replaceFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTemporaryFolder('rdw-replace-file-');
  });
  afterAll(async () => {
    await removeTree(dir);
  });

  it('replaces a file whole and leaves no temporary file', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(file, 'old');
    await replaceFile(file, '{"new":true}\n');
    expect(await readFile(file, 'utf8')).toBe('{"new":true}\n');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('throws where it cannot write, keeping the old file and no temporary file', async () => {
    const folder = path.join(dir, 'target-is-a-folder');
    await mkdir(folder);
    await expect(replaceFile(folder, 'x')).rejects.toThrow();
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    await expect(replaceFile(path.join(dir, 'missing', 'f.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
