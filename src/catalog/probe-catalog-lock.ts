// probeCatalogLock: whether another process holds the catalog's DuckDB file lock, found by opening the
// file and closing it at once (DuckDB allows one writer); for `rdw doctor`. Creates nothing.

import path from 'node:path';
import { stat } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { CATALOG_FILE, isLockConflict, isOpenInThisProcess } from './catalog.js';

/** What the probe found for `<home>/catalog.duckdb`. */
export type CatalogLockProbe =
  /** No catalog file yet (the first pull creates it); nothing was created. */
  | { state: 'absent'; file: string }
  /** The catalog could be opened for writing (and was closed again at once), or this process holds it. */
  | { state: 'free'; file: string }
  /** Another process holds the lock: its PID and program when DuckDB names them. */
  | { state: 'held'; file: string; pid: number | undefined; program: string | undefined; detail: string }
  /** The file could not be opened for another reason (not a DuckDB file, a newer DuckDB, no permission). */
  | { state: 'unusable'; file: string; detail: string };

/**
 * Probes the catalog in `home` (RDW_HOME) without waiting: opens `catalog.duckdb` read-write (the lock a
 * pull needs, so a reader holding it is found too) and closes it immediately; never creates the file.
 */
export async function probeCatalogLock(home: string): Promise<CatalogLockProbe> {
  const file = path.join(path.resolve(home), CATALOG_FILE);
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return { state: 'absent', file };
  if (!info.isFile()) return { state: 'unusable', file, detail: 'it is not a file' };
  if (isOpenInThisProcess(file)) return { state: 'free', file };
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, { access_mode: 'READ_WRITE' });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (!isLockConflict(error)) return { state: 'unusable', file, detail };
    // DuckDB: 'Conflicting lock is held in /usr/bin/node (PID 1234) by user …'
    const holder = /held in (.+?) \(PID (\d+)\)/.exec(detail);
    return { state: 'held', file, pid: holder ? Number(holder[2]) : undefined, program: holder?.[1], detail };
  }
  instance.closeSync();
  return { state: 'free', file };
}
