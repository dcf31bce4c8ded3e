// The home's sync lock: `<home>/sync.lock`, created with O_EXCL and holding the PID, host and start time of
// the `rdw sync` that owns the home. A second sync exits at once; a lock left by a dead process is taken over.

import { hostname } from 'node:os';
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { SyncBusyError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';
import { makeFolder } from '../base/index.js';

/** File name of the sync lock inside the home. */
export const SYNC_LOCK_FILE = 'sync.lock';

/** Who holds (or held) a sync lock. */
export interface SyncLockHolder {
  pid: number;
  hostname: string;
  /** When that sync started, ISO UTC. */
  startedAt: string;
}

/** A held sync lock. */
export interface SyncLock {
  readonly file: string;
  /** The dead holder whose lock this one took over (a killed sync); undefined when the lock was free. */
  readonly tookOver: SyncLockHolder | undefined;
  /** Removes the lock file (only while it is still this process's). Idempotent. */
  release(): Promise<void>;
  /** The same, synchronously: for a process about to exit at once (a second Ctrl+C). Idempotent. */
  releaseNow(): void;
}

export interface AcquireSyncLockOptions {
  /** PID written in the lock. Default: process.pid. */
  pid?: number;
  /** Start time written in the lock. Default: now. */
  now?: Date;
  /** Whether a PID is a live process. Default: `process.kill(pid, 0)` (EPERM counts as alive). */
  isAlive?: (pid: number) => boolean;
}

const processIsAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The holder recorded in `text`, or undefined for a file that is not one (cut short by a kill: stale). */
function parseHolder(text: string): SyncLockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<SyncLockHolder>;
    if (Number.isSafeInteger(value.pid) && typeof value.hostname === 'string' && typeof value.startedAt === 'string') return value as SyncLockHolder;
  } catch {
    // not JSON: a lock file cut short while being written
  }
  return undefined;
}

/**
 * Takes `<home>/sync.lock` (created with O_EXCL). When it exists: held by a live process of this host, or
 * by another host (whose processes this one cannot see) ⇒ SyncBusyError (exit 1) naming the PID; held by
 * a dead PID of this host, or unreadable ⇒ taken over (the caller says so: `tookOver`).
 */
export async function acquireSyncLock(home: string, options: AcquireSyncLockOptions = {}): Promise<SyncLock> {
  const file = path.join(home, SYNC_LOCK_FILE);
  const isAlive = options.isAlive ?? processIsAlive;
  const mine: SyncLockHolder = { pid: options.pid ?? process.pid, hostname: hostname(), startedAt: (options.now ?? new Date()).toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  await makeFolder(home);
  let tookOver: SyncLockHolder | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        file,
        tookOver,
        async release() {
          if (released) return;
          released = true;
          const now = await readFile(file, 'utf8').catch(() => undefined);
          if (now === text) await rm(file, { force: true });
        },
        releaseNow() {
          if (released) return;
          released = true;
          let now: string | undefined;
          try {
            now = readFileSync(file, 'utf8');
          } catch {
            return;
          }
          if (now === text) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const seen = await readFile(file, 'utf8').catch(() => undefined);
    if (seen === undefined) continue; // released meanwhile: try again
    const holder = parseHolder(seen);
    if (holder !== undefined && (holder.hostname !== mine.hostname || isAlive(holder.pid))) {
      throw new SyncBusyError(workbenchMessages.syncBusy(file, holder.pid, holder.hostname, holder.startedAt, holder.hostname !== mine.hostname));
    }
    // Stale: move it aside under a name of our own, then check it is still the lock we judged (another
    // sync may have taken it over first); only then is the O_EXCL create retried.
    const aside = `${file}.stale-${mine.pid}`;
    try {
      await rename(file, aside);
    } catch {
      continue;
    }
    const moved = await readFile(aside, 'utf8').catch(() => undefined);
    if (moved !== seen) {
      // Another sync's fresh lock: put it back and give way.
      await rename(aside, file).catch(() => undefined);
      const other = moved === undefined ? undefined : parseHolder(moved);
      throw new SyncBusyError(workbenchMessages.syncBusy(file, other?.pid ?? 0, other?.hostname ?? mine.hostname, other?.startedAt ?? '', false));
    }
    await rm(aside, { force: true });
    tookOver = holder ?? { pid: 0, hostname: mine.hostname, startedAt: '' };
  }
  throw new SyncBusyError(workbenchMessages.syncBusy(file, 0, mine.hostname, '', false));
}
