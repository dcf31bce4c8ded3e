// exportParquet: market_events as Hive-partitioned Parquet (`day=YYYY-MM-DD/`), the scale-out path to
// Spark, Trino or any DuckDB (DESIGN.md issue 5, item 6).

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import { quoteLiteral, makeFolder } from '../base/index.js';

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
 */
export async function exportParquet(catalog: Catalog, dir: string, options: ExportParquetOptions = {}): Promise<ExportParquetResult> {
  const target = path.resolve(dir);
  const existing = await readdir(target).catch(() => undefined);
  if (existing !== undefined && existing.length > 0) throw new CatalogOptionError(catalogMessages.exportTarget(target), { option: 'dir' });
  await makeFolder(target);
  const source = options.current === true ? 'market_events_current' : 'market_events';
  const [counted] = await catalog.query(`SELECT count(*)::DOUBLE AS n FROM ${source}`);
  await catalog.exclusive((connection) =>
    connection.run(
      `COPY (SELECT * FROM ${source} ORDER BY day, release_id, sample_time, row_id)
       TO ${quoteLiteral(target)} (FORMAT parquet, PARTITION_BY (day), OVERWRITE_OR_IGNORE true)`,
    ),
  );
  const partitions = (await readdir(target)).filter((name) => name.startsWith('day=')).sort();
  return { dir: target, rows: Number(counted?.n ?? 0), partitions };
}
