// probeCatalogLock: whether another process holds the catalog's DuckDB file for writing, found by opening
// the file read-only and closing it at once (DuckDB allows one writer); for `rdw doctor`. Also lists the macros
// stored in it named like DuckDB's own functions, whether its view market_events_current is rdw's
// (shadowed-names.ts), and whether its row tables' columns are (row-table-columns.ts). Changes nothing.

import path from 'node:path';
import { stat } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { CATALOG_FILE } from './catalog.js';
import { isLockConflict, isOpenInThisProcess, lockHolderOf } from './open-duckdb-file.js';
import { currentViewState, madeByRdw, shadowedNames, type CurrentViewState } from './shadowed-names.js';
import { rowTableColumnDifferences, type RowTableColumnDifference } from './row-table-columns.js';

/** What the probe found for `<home>/catalog.duckdb`. */
export type CatalogLockProbe =
  /** No catalog file yet (the first pull creates it); nothing was created. */
  | { state: 'absent'; file: string }
  /**
   * No writer holds the catalog (it was opened read-only and closed again at once), or this process holds it.
   * `shadowed`: macros stored in it named like DuckDB's own functions, as `db.schema.name()` (studies refuse them),
   * when it was opened here; `view`: whether its view market_events_current is rdw's (currentViewState), likewise, in
   * a catalog rdw made; `columns`: its row tables' columns that are not rdw's (row-table-columns.ts), likewise.
   */
  | { state: 'free'; file: string; shadowed?: readonly string[]; view?: CurrentViewState; columns?: readonly RowTableColumnDifference[] }
  /** Another process holds the file for writing (a pull, a notebook mid-operation): its PID and program when DuckDB names them. */
  | { state: 'held'; file: string; pid: number | undefined; program: string | undefined; detail: string }
  /** The file could not be opened for another reason (not a DuckDB file, a newer DuckDB, no permission). */
  | { state: 'unusable'; file: string; detail: string };

/**
 * Probes the catalog in `home` (RDW_HOME) without waiting: opens `catalog.duckdb` read-only (DuckDB's shared
 * lock: it fails only while a writer holds the file; readers are brief and never found) and closes it
 * immediately; never creates, replays or checkpoints anything.
 */
export async function probeCatalogLock(home: string): Promise<CatalogLockProbe> {
  const file = path.join(path.resolve(home), CATALOG_FILE);
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return { state: 'absent', file };
  if (!info.isFile()) return { state: 'unusable', file, detail: 'it is not a file' };
  if (isOpenInThisProcess(file)) return { state: 'free', file };
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (!isLockConflict(error)) return { state: 'unusable', file, detail };
    const { pid, program } = lockHolderOf(error);
    return { state: 'held', file, pid, program, detail };
  }
  try {
    const connection = await instance.connect();
    try {
      const made = await madeByRdw(connection);
      const view = made ? await currentViewState(connection) : undefined;
      const columns = made ? await rowTableColumnDifferences(connection) : undefined;
      return { state: 'free', file, shadowed: await shadowedNames(connection), ...(view === undefined ? {} : { view }), ...(columns === undefined ? {} : { columns }) };
    } finally {
      connection.disconnectSync();
    }
  } finally {
    instance.closeSync();
  }
}
