// Opens the catalog's DuckDB file, waiting (bounded, and out loud after a second) while another process or
// another Catalog of this process holds its lock; names the holder in every notice and in CatalogBusyError.

import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { CatalogBusyError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** Who holds the catalog's lock, as far as DuckDB (or this process's register) tells. */
export interface CatalogLockHolder {
  /** The holder's process ID; undefined when DuckDB did not name it. */
  pid: number | undefined;
  /** The holder's program as DuckDB names it (e.g. `/usr/bin/node`); undefined when not named. */
  program: string | undefined;
  /** True when another Catalog of this very process holds the file. */
  thisProcess: boolean;
}

/** What `CatalogOptions.onWait` receives while an open waits for the lock: once after 1 s, then every 5 s. */
export interface CatalogWaitNotice {
  /** `<home>/catalog.duckdb`. */
  file: string;
  /** 'read' for a read-only open, 'write' otherwise. */
  access: 'read' | 'write';
  holder: CatalogLockHolder;
  /** Time waited so far, in ms. */
  waitedMs: number;
  /** Time left before the open gives up with CatalogBusyError, in ms. */
  remainingMs: number;
  /** The bound (`busyTimeoutMs`), in ms. */
  timeoutMs: number;
  /** One sentence for a person: the holder, and how long it will still wait. */
  message: string;
}

/** How the open waits: the bound, the pause between attempts, and who hears about it. */
export interface LockWait {
  busyTimeoutMs: number;
  busyRetryMs: number;
  onWait: ((notice: CatalogWaitNotice) => void) | undefined;
}

/** A wait for the lock is announced once it lasts this long (ms)... */
export const WAIT_NOTICE_AFTER_MS = 1_000;
/** ...and again every this many ms while it lasts. */
export const WAIT_NOTICE_EVERY_MS = 5_000;

/** An open DuckDB file: the instance and its main connection. */
export interface DuckdbFile {
  instance: DuckDBInstance;
  connection: DuckDBConnection;
}

// DuckDB's file lock is per process: two instances of one file inside a process would not exclude
// each other, so this process keeps its own register of the files it has open.
const openInThisProcess = new Set<string>();

/** True while this process has `file` (absolute) open through a Catalog: DuckDB's lock would not exclude it. */
export const isOpenInThisProcess = (file: string): boolean => openInThisProcess.has(file);

/** True when `error` is DuckDB refusing a file because another process holds its lock. */
export const isLockConflict = (error: unknown): boolean =>
  /could not set lock|conflicting lock|lock on file/i.test(error instanceof Error ? error.message : String(error));

/** The holder DuckDB names in a lock conflict: 'Conflicting lock is held in /usr/bin/node (PID 1234) by user …'. */
export function lockHolderOf(error: unknown): CatalogLockHolder {
  const holder = /held in (.+?) \(PID (\d+)\)/.exec(error instanceof Error ? error.message : String(error));
  return { pid: holder ? Number(holder[2]) : undefined, program: holder?.[1], thisProcess: false };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens `file` (read-only: DuckDB's shared lock, several readers; else its exclusive lock), retrying every
 * `busyRetryMs` while the lock is held, telling `onWait` after 1 s and every 5 s, and throwing
 * CatalogBusyError (naming the holder) after `busyTimeoutMs`. Settings: `instanceConfig`.
 */
export async function openDuckdbFile(file: string, readOnly: boolean, wait: LockWait): Promise<DuckdbFile> {
  const started = Date.now();
  let notices = 0;
  const noticeDue = () => started + WAIT_NOTICE_AFTER_MS + notices * WAIT_NOTICE_EVERY_MS;
  for (;;) {
    let holder: CatalogLockHolder = { pid: process.pid, program: undefined, thisProcess: true };
    if (!openInThisProcess.has(file)) {
      try {
        const instance = await DuckDBInstance.create(file, instanceConfig(readOnly));
        openInThisProcess.add(file);
        try {
          const connection = await instance.connect();
          // DuckDB's TimeZone follows the machine's (TZ): hour(to_timestamp(sample_time)) in a derived feature
          // would differ by machine. rdw's days are UTC days. (A DuckDB without ICU has no TimeZone: UTC already.)
          await connection.run("SET GLOBAL TimeZone = 'UTC'").catch(() => undefined);
          return { instance, connection };
        } catch (error) {
          openInThisProcess.delete(file);
          instance.closeSync();
          throw error;
        }
      } catch (error) {
        if (!isLockConflict(error)) throw error;
        holder = lockHolderOf(error);
      }
    }
    const now = Date.now();
    const waitedMs = now - started;
    const home = path.dirname(file);
    if (waitedMs >= wait.busyTimeoutMs) {
      throw new CatalogBusyError(catalogMessages.busy(home, Math.round(waitedMs / 1000), holder));
    }
    const remainingMs = wait.busyTimeoutMs - waitedMs;
    if (now >= noticeDue() && wait.onWait !== undefined) {
      const seconds = Math.ceil(remainingMs / 1000);
      const message = notices === 0 ? catalogMessages.waiting(home, holder, seconds) : catalogMessages.stillWaiting(home, holder, seconds);
      wait.onWait({ file, access: readOnly ? 'read' : 'write', holder, waitedMs, remainingMs, timeoutMs: wait.busyTimeoutMs, message });
      while (noticeDue() <= now) notices += 1;
    }
    await sleep(Math.min(wait.busyRetryMs, remainingMs));
  }
}

/** Closes a file opened by `openDuckdbFile` (DuckDB checkpoints it) and lets this process open it again. */
export function closeDuckdbFile(file: string, handle: DuckdbFile): void {
  try {
    handle.connection.closeSync();
    handle.instance.closeSync();
  } finally {
    openInThisProcess.delete(file);
  }
}

/**
 * DuckDB settings of every catalog instance (docs/catalog.md "Memory"):
 * - no external file cache: a pull reads each data file once to check it and once to import it, and the
 *   cache kept ≈ 0.3 MiB per file for the life of the instance;
 * - the allocator's background threads return freed memory to the system as DuckDB runs;
 * - at most one vacuum task per checkpoint. The catalog never deletes or updates a row, so vacuum only
 *   merges the small row groups that appends leave; DuckDB's default (100 tasks) merged a bulk pull's 18
 *   row groups into 6 in one checkpoint at 793 MiB, one task merges a run of them (+200 MiB).
 * No `memory_limit`: below a checkpoint's needs DuckDB fails fatally; `trimMemory` frees the cache instead.
 */
function instanceConfig(readOnly: boolean): Record<string, string> {
  return {
    enable_external_file_cache: 'false',
    allocator_background_threads: 'true',
    max_vacuum_tasks: '1',
    ...(readOnly ? { access_mode: 'READ_ONLY' } : {}),
  };
}
