// The home's sync lock: `<home>/sync.lock`, created with O_EXCL and holding the PID, host and start time of
// the `rdw sync` that owns the home. A second sync exits at once. Only a live process with a positive PID
// (or one on another host, whose processes this one cannot see) holds the home: a lock of a dead PID, one
// that is not a lock rdw wrote (a PID of 0 or below, not JSON, empty) or a symbolic link (dangling or not) is
// stale and taken over, said in one line; a folder or another special file in its place is refused, naming it.

import { constants } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { lstat, open, readFile, readlink, rename, rm } from 'node:fs/promises';
import { SyncBusyError, SyncLockUnusableError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';
import type { SyncLockHolder } from './sync-lock-holder.js';
import { makeFolder } from '../base/index.js';

/** File name of the sync lock inside the home. */
export const SYNC_LOCK_FILE = 'sync.lock';

/** A held sync lock. */
export interface SyncLock {
  readonly file: string;
  /** The dead holder whose lock this one took over (a killed sync); undefined when the lock was free or not a lock. */
  readonly tookOver: SyncLockHolder | undefined;
  /** The line to say when a stale lock was taken over (a dead PID, a file that is no lock, a link); else undefined. */
  readonly notice: string | undefined;
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
  /** Whether a PID (always >= 1) is a live process. Default: `process.kill(pid, 0)` (EPERM counts as alive). */
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

/** What is at the lock's path, read without following a link or blocking on a FIFO. */
type Found =
  | { kind: 'absent' }
  | { kind: 'file'; text: string }
  | { kind: 'link'; target: string }
  | { kind: 'folder' }
  | { kind: 'special' };

async function readFound(file: string): Promise<Found> {
  try {
    const info = await lstat(file);
    if (info.isSymbolicLink()) return { kind: 'link', target: await readlink(file) };
    if (info.isDirectory()) return { kind: 'folder' };
    if (!info.isFile()) return { kind: 'special' };
    return { kind: 'file', text: await readFile(file, { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK }) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
}

const sameFound = (a: Found, b: Found): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The holder recorded in `text`, or why the text is not a lock rdw wrote (then the lock is stale). */
function parseHolder(text: string): SyncLockHolder | { invalid: string } {
  if (text.trim() === '') return { invalid: workbenchMessages.syncLockEmpty() };
  let value: Partial<Record<keyof SyncLockHolder, unknown>>;
  try {
    value = JSON.parse(text) as typeof value;
  } catch {
    return { invalid: workbenchMessages.syncLockNotJson() };
  }
  if (typeof value !== 'object' || value === null) return { invalid: workbenchMessages.syncLockNotJson() };
  if (!Number.isSafeInteger(value.pid) || (value.pid as number) < 1) return { invalid: workbenchMessages.syncLockBadPid(value.pid) };
  if (typeof value.hostname !== 'string' || value.hostname === '' || typeof value.startedAt !== 'string') {
    return { invalid: workbenchMessages.syncLockNoHost() };
  }
  return { pid: value.pid as number, hostname: value.hostname, startedAt: value.startedAt };
}

/**
 * Takes `<home>/sync.lock` (created with O_EXCL). When something is there already:
 * - a lock of a live process with a positive PID on this host, or of any process on another host (whose
 *   processes this one cannot see) ⇒ SyncBusyError (exit 1) naming the lock file and the PID;
 * - a lock of a dead PID, a file that is not a lock rdw wrote (a PID of 0 or below, not a number, not JSON,
 *   empty) or a symbolic link ⇒ stale: moved aside and removed (a link itself, never its target), then taken;
 *   `notice` says what was taken over;
 * - a folder, a FIFO or another special file ⇒ SyncLockUnusableError (exit 1) naming it and how to remove it.
 */
export async function acquireSyncLock(home: string, options: AcquireSyncLockOptions = {}): Promise<SyncLock> {
  const file = path.join(home, SYNC_LOCK_FILE);
  const isAlive = options.isAlive ?? processIsAlive;
  const mine: SyncLockHolder = { pid: options.pid ?? process.pid, hostname: hostname(), startedAt: (options.now ?? new Date()).toISOString() };
  const text = `${JSON.stringify(mine)}\n`;
  await makeFolder(home);
  let tookOver: SyncLockHolder | undefined;
  let notice: string | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return heldLock(file, text, tookOver, notice);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const seen = await readFound(file);
    if (seen.kind === 'absent') continue; // released meanwhile: try again
    if (seen.kind === 'folder' || seen.kind === 'special') throw new SyncLockUnusableError(workbenchMessages.syncLockUnusable(file, seen.kind));
    let staleHolder: SyncLockHolder | undefined;
    let staleNotice: string;
    if (seen.kind === 'link') staleNotice = workbenchMessages.syncLockLinkTakenOver(file, seen.target);
    else {
      const holder = parseHolder(seen.text);
      if ('invalid' in holder) staleNotice = workbenchMessages.syncLockInvalidTakenOver(file, holder.invalid);
      else {
        const otherHost = holder.hostname !== mine.hostname;
        if (otherHost || isAlive(holder.pid)) throw new SyncBusyError(workbenchMessages.syncBusy(file, holder, otherHost));
        staleHolder = holder;
        staleNotice = workbenchMessages.syncLockTakenOver(holder.pid, holder.startedAt);
      }
    }
    // Stale: move it aside under a name of our own (a link is moved, not followed), then check it is still
    // what we judged (another sync may have taken the lock first); only then is the O_EXCL create retried.
    const aside = `${file}.stale-${mine.pid}`;
    try {
      await rename(file, aside);
    } catch {
      continue;
    }
    const moved = await readFound(aside);
    if (!sameFound(moved, seen)) {
      // Another sync's fresh lock: put it back and give way.
      await rename(aside, file).catch(() => undefined);
      throw new SyncBusyError(workbenchMessages.syncLockRaced(file));
    }
    await rm(aside, { force: true });
    tookOver = staleHolder;
    notice = staleNotice;
  }
  throw new SyncBusyError(workbenchMessages.syncLockRaced(file));
}

function heldLock(file: string, text: string, tookOver: SyncLockHolder | undefined, notice: string | undefined): SyncLock {
  let released = false;
  return {
    file,
    tookOver,
    notice,
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
}
