// exportParquet: market_events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`), the scale-out path to
// Spark, Trino or any DuckDB (DESIGN.md issue 5, item 6).

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import { assertRowTableColumns } from './row-table-columns.js';
import { STAGING_FOLDER_PREFIX, quoteLiteral, writeFolderStaged } from '../base/index.js';
import { environmentErrorOf } from '../contract/index.js';

export interface ExportParquetOptions {
  /** Export only `market_events_current` (newest revision per day). Default false: every imported release. */
  current?: boolean;
}

export interface ExportParquetResult {
  /** Absolute export folder. */
  dir: string;
  rows: number;
  /** Partition folders written (`day=YYYY-MM-DD`), sorted. */
  partitions: string[];
}

/**
 * Writes Market Events rows to `dir` as `day=YYYY-MM-DD/*.parquet` with DuckDB's COPY … PARTITION_BY.
 * `dir` must be new or empty (CatalogOptionError otherwise). Rows keep `release_id`, so revisions stay apart.
 * The files are written into a staging folder and moved into `dir` once complete (writeFolderStaged): a
 * failure (a full disk) leaves `dir` as it was, so the same command can run again.
 * @throws CatalogRecordError (exit 3) when a column of the row tables is not rdw's (nothing written); an EnvironmentError (disk full, file-size limit, permission denied …) when the files cannot be written.
 */
export async function exportParquet(catalog: Catalog, dir: string, options: ExportParquetOptions = {}): Promise<ExportParquetResult> {
  const target = path.resolve(dir);
  // A staging folder a killed export left inside the target holds no result: the folder still counts as empty.
  const existing = (await readdir(target).catch(() => undefined))?.filter((name) => !name.startsWith(STAGING_FOLDER_PREFIX));
  if (existing !== undefined && existing.length > 0) throw new CatalogOptionError(catalogMessages.exportTarget(target), { option: 'dir' });
  // Only rows of a recorded release (market_events_current joins the records already): rows a hand edit left
  // without their release are rdw verify's to report, never an export's to ship.
  const source =
    options.current === true ? 'market_events_current' : '(SELECT * FROM market_events WHERE release_id IN (SELECT id FROM releases))';
  // Rows of rdw's columns only: a column dropped, computed or retyped behind rdw's back was exported as it read (a
  // Parquet file without price, with a computed column's values), with nothing said (session 42).
  await catalog.read((connection) => assertRowTableColumns(connection));
  const [counted] = await catalog.query(`SELECT count(*)::DOUBLE AS n FROM ${source}`);
  try {
    await writeFolderStaged(target, (staging) =>
      catalog.exclusive((connection) =>
        connection.run(
          `COPY (SELECT * FROM ${source} ORDER BY day, release_id, sample_time, row_id)
           TO ${quoteLiteral(staging)} (FORMAT parquet, PARTITION_BY (day), OVERWRITE_OR_IGNORE true)`,
        ),
      ),
    );
  } catch (error) {
    throw environmentErrorOf(error, target) ?? error;
  }
  const partitions = (await readdir(target)).filter((name) => name.startsWith('day=')).sort();
  return { dir: target, rows: Number(counted?.n ?? 0), partitions };
}
