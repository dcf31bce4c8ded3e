// A cross-process lock on a path: created with O_EXCL ('wx'), released by removal, broken when stale.
// Hand-written (no dependency): the critical sections it guards are a read-modify-write of a tiny file.

import { open, rename, rm, stat } from 'node:fs/promises';

export interface FileLockOptions {
  /** A lock older than this is treated as left by a dead process and broken, in ms. Default 10_000. */
  staleMs?: number;
  /** Pause between attempts while another holder has the lock, in ms. Default 5. */
  retryMs?: number;
  /** Give up (throw) after this long, in ms. Default 30_000. */
  timeoutMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` while holding `lockPath`. Lock timing uses real time: it guards real file I/O. */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? 10_000;
  const retryMs = options.retryMs ?? 5;
  const deadline = performance.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
      } catch (error) {
        // A full disk: the lock was not taken; leave no empty lock behind for others to wait on.
        await handle.close().catch(() => undefined);
        await rm(lockPath, { force: true });
        throw error;
      }
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const info = await stat(lockPath).catch(() => undefined);
      if (info !== undefined && Date.now() - info.mtimeMs > staleMs) {
        // Rename first so that only one of several waiters breaks the stale lock.
        const aside = `${lockPath}.stale-${process.pid}-${Math.floor(performance.now() * 1000)}`;
        if (await rename(lockPath, aside).then(() => true, () => false)) await rm(aside, { force: true });
        continue;
      }
      if (performance.now() > deadline) throw error;
      await pause(retryMs);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockPath, { force: true });
  }
}
