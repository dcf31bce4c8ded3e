import { mkdtemp, utimes, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/client/file-lock.js';

describe('withFileLock', () => {
  it('runs critical sections one at a time', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rdw-lock-'));
    const lock = join(dir, 'x.lock');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        withFileLock(lock, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 1));
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('breaks a stale lock left by a dead process', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rdw-lock-'));
    const lock = join(dir, 'x.lock');
    await writeFile(lock, '999999\n');
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect(await withFileLock(lock, async () => 'ran', { staleMs: 10_000, timeoutMs: 2_000 })).toBe('ran');
  });

  it('gives up after its timeout while a fresh lock is held', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rdw-lock-'));
    const lock = join(dir, 'x.lock');
    await writeFile(lock, '1\n');
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 50 })).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
