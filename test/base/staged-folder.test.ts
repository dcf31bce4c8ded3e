// writeFolderStaged on real folders: a fill that fails leaves the target as it was (absent stays absent, an
// existing folder keeps its files and gets none) and no staging folder; a fill that succeeds moves every file
// in (replacing same-named ones); the error names the target, not the staging folder.

import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeFolderStaged } from '../../src/base/index.js';
import { withTempHome } from '../support/temp-home.js';

const list = async (dir: string) => (await readdir(dir, { recursive: true })).map(String).sort();

describe('writeFolderStaged', () => {
  it('an absent target: made whole on success (mode from the umask), absent after a failure, no staging left', async () => {
    await withTempHome(async (root) => {
      const target = path.join(root, 'out');
      const failure = await writeFolderStaged(target, async (staging) => {
        await writeFile(path.join(staging, 'a.txt'), 'a');
        await writeFile(path.join(staging, 'missing', 'b.txt'), 'b'); // ENOENT, with the staging path in it
      }).catch((error: unknown) => error as NodeJS.ErrnoException);
      expect(failure.code).toBe('ENOENT');
      expect(failure.path).toBe(path.join(target, 'missing', 'b.txt'));
      expect(failure.message).toContain(path.join(target, 'missing', 'b.txt'));
      expect(await list(root)).toEqual([]);

      const value = await writeFolderStaged(target, async (staging) => {
        await mkdir(path.join(staging, 'day=1'));
        await writeFile(path.join(staging, 'day=1', 'data.parquet'), 'p');
        return 7;
      });
      expect(value).toBe(7);
      expect(await list(root)).toEqual(['out', 'out/day=1', 'out/day=1/data.parquet']);
      expect((await stat(target)).mode & 0o777).toBe(0o777 & ~process.umask());
    });
  });

  it('an existing folder: same-named files replaced, others kept; after a failure exactly as before', async () => {
    await withTempHome(async (root) => {
      await writeFile(path.join(root, 'report.html'), 'old');
      await writeFile(path.join(root, 'notes.txt'), 'mine');
      await writeFolderStaged(root, async (staging) => writeFile(path.join(staging, 'report.html'), 'new'));
      expect(await list(root)).toEqual(['notes.txt', 'report.html']);
      expect(await readFile(path.join(root, 'report.html'), 'utf8')).toBe('new');

      await expect(
        writeFolderStaged(root, async (staging) => {
          await writeFile(path.join(staging, 'report.html'), 'partial');
          throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
        }),
      ).rejects.toMatchObject({ code: 'ENOSPC', path: root });
      expect(await list(root)).toEqual(['notes.txt', 'report.html']);
      expect(await readFile(path.join(root, 'report.html'), 'utf8')).toBe('new');
    });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('%s mid-write: ends the process as the signal does and leaves no staging folder', async (signal) => {
    await withTempHome(async (root) => {
      const target = path.join(root, 'export');
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('fixtures/staged-write-until-signal.ts', import.meta.url)), target], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
      expect((await readdir(root)).length).toBe(1); // the staging folder beside the target
      const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, by) => resolve(by)));
      child.kill(signal);
      expect(await ended).toBe(signal);
      expect(await readdir(root)).toEqual([]);
    });
  }, 30_000);
});
