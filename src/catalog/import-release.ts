// Step 7 of a pull: one DuckDB transaction that inserts a release's metadata, its files and every row,
// then counts the rows against the manifest. Any failure rolls the whole release back.

import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENT_FIELDS, type FileDigest, type Release } from '../spec/index.js';
import type { Catalog } from './catalog.js';
import { RowCountMismatchError } from './catalog-errors.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { checkDataColumns } from './check-release-schema.js';
import { catalogMessages } from './messages.js';
import { sqlTimestamp } from './run-migrations.js';
import { quoteIdentifier, quoteLiteral } from './sql-text.js';

/** Data file formats a release can be imported from. */
export type DataFormat = 'parquet' | 'csv';

/** What step 7 needs: the verified manifest, the stored data file, and the stored small files. */
export interface ReleaseImport {
  release: Release;
  /** SHA-256 of the exact manifest bytes (what a study lock pins). */
  manifestSha256: string;
  manifestBytes: number;
  /** SHA-256 and size of the bundled schema file, when the release has one. */
  schema: FileDigest | undefined;
  format: DataFormat;
  /** The data file's digest (verified) and its path in the store. */
  data: FileDigest;
  dataPath: string;
}

const COLUMN_LIST = MARKET_EVENT_FIELDS.map((field) => quoteIdentifier(field.name)).join(', ');

/** The table-function call that reads a stored data file with the spec's types. */
function readDataSql(format: DataFormat, file: string): string {
  if (format === 'parquet') return `read_parquet(${quoteLiteral(file)})`;
  const columns = MARKET_EVENT_FIELDS.map((field) => `${quoteLiteral(field.name)}: ${quoteLiteral(DUCKDB_TYPE[field.type])}`).join(', ');
  // Explicit types and no sniffing: nulls are empty fields, a quoted "" stays an empty string.
  return `read_csv(${quoteLiteral(file)}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', nullstr = '', allow_quoted_nulls = false, columns = {${columns}})`;
}

/**
 * The data file's column names (and parquet types), checked against the spec before any insert. Reads
 * the file on the catalog's side connection, so it runs while another release imports.
 */
export async function checkDataFile(catalog: Catalog, id: string, format: DataFormat, file: string): Promise<void> {
  if (format === 'parquet') {
    const rows = await catalog.sideQuery(`DESCRIBE SELECT * FROM read_parquet(${quoteLiteral(file)})`);
    const columns = rows.map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
    checkDataColumns(id, 'parquet file', columns);
    return;
  }
  // read_csv with explicit columns does not compare the header: read it and compare names in order.
  const rows = await catalog.sideQuery(
    `SELECT * FROM read_csv(${quoteLiteral(file)}, header = false, auto_detect = false, all_varchar = true, columns = {'line': 'VARCHAR'}, delim = '\\x01', quote = '', escape = '') LIMIT 1`,
  );
  const header = String(rows[0]?.line ?? '');
  const names = header.split(',').map((name) => name.replace(/^"|"$/g, ''));
  checkDataColumns(id, 'csv header', names.map((name) => ({ name, type: undefined })));
  const expected = MARKET_EVENT_FIELDS.map((field) => field.name);
  if (names.join(',') !== expected.join(',')) checkDataColumns(id, 'csv header order', [{ name: names.join(','), type: undefined }]);
}

/**
 * Imports a verified release in one transaction: `releases`, `release_files`, `market_events`; then the
 * row count must equal the manifest's `rows`, else ROLLBACK and RowCountMismatchError. The data file's
 * columns are checked first. Returns false when the release was already imported (nothing changed).
 */
export async function importRelease(catalog: Catalog, item: ReleaseImport): Promise<boolean> {
  await checkDataFile(catalog, item.release.id, item.format, item.dataPath);
  const importedAt = sqlTimestamp(catalog.now());
  return catalog.transaction((connection) => insertRelease(connection, item, importedAt));
}

/**
 * Imports several verified releases whose data files were checked (`checkDataFile`) in ONE transaction
 * (one commit for the batch: each release is still wholly present or wholly absent). When any of them
 * fails, the batch rolls back and each release is imported again in its own transaction, so a failure of
 * one leaves the others imported. Returns, per item, true (imported), false (already there) or its error.
 */
export async function importReleases(catalog: Catalog, items: readonly ReleaseImport[]): Promise<(boolean | Error)[]> {
  if (items.length === 0) return [];
  const importedAt = sqlTimestamp(catalog.now());
  if (items.length > 1) {
    try {
      return await catalog.transaction(async (connection) => {
        const outcomes: boolean[] = [];
        for (const item of items) outcomes.push(await insertRelease(connection, item, importedAt));
        return outcomes;
      });
    } catch {
      // fall through: one transaction per release isolates the failing one
    }
  }
  const outcomes: (boolean | Error)[] = [];
  for (const item of items) {
    try {
      outcomes.push(await catalog.transaction((connection) => insertRelease(connection, item, importedAt)));
    } catch (error) {
      outcomes.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return outcomes;
}

/** The statements of one release inside an open transaction; false when the ID is already imported. */
async function insertRelease(connection: DuckDBConnection, item: ReleaseImport, importedAt: string): Promise<boolean> {
  const { release } = item;
  const id = release.id;
  {
    const present = await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM releases WHERE id = $id', { id });
    if (Number(present.getRowObjectsJson()[0]?.n) > 0) return false;

    await connection.run(
      `INSERT INTO releases (id, dataset, version, day, generated_at, rows, min_sample_time, max_sample_time,
         manifest_sha256, schema_sha256, coverage, limitations, imported_at, import_order)
       SELECT $id, $dataset, $version, $day::DATE, $generated_at, $rows, $min_sample_time, $max_sample_time,
         $manifest_sha256, $schema_sha256, $coverage::JSON, $limitations::JSON, $imported_at::TIMESTAMP,
         coalesce(max(import_order), 0) + 1
       FROM releases`,
      {
        id,
        dataset: release.dataset,
        version: release.version,
        day: release.day,
        generated_at: release.generated_at,
        rows: release.rows,
        min_sample_time: release.min_sample_time ?? null,
        max_sample_time: release.max_sample_time ?? null,
        manifest_sha256: item.manifestSha256,
        schema_sha256: item.schema?.sha256 ?? null,
        coverage: JSON.stringify(release.coverage ?? null),
        limitations: JSON.stringify(release.limitations ?? []),
        imported_at: importedAt,
      },
    );
    const files: [string, FileDigest][] = [
      ['manifest', { sha256: item.manifestSha256, bytes: item.manifestBytes }],
      [item.format, item.data],
      ...(item.schema === undefined ? [] : [['schema', item.schema] as [string, FileDigest]]),
    ];
    await connection.run(
      `INSERT INTO release_files VALUES ${files.map((_, i) => `($id, $format${i}, $sha${i}, $bytes${i})`).join(', ')}`,
      Object.assign({ id }, ...files.map(([format, digest], i) => ({ [`format${i}`]: format, [`sha${i}`]: digest.sha256, [`bytes${i}`]: digest.bytes }))),
    );
    // The rows DuckDB inserted for this release in this transaction: what the manifest's `rows` must equal.
    const inserted = await connection.run(
      `INSERT INTO market_events (release_id, day, ${COLUMN_LIST})
       SELECT $id, $day::DATE, ${COLUMN_LIST} FROM ${readDataSql(item.format, item.dataPath)}`,
      { id, day: release.day },
    );
    const actual = inserted.rowsChanged;
    if (actual !== release.rows) {
      throw new RowCountMismatchError(catalogMessages.rowCountMismatch(id, actual, release.rows), { expected: release.rows, actual });
    }
    return true;
  }
}
