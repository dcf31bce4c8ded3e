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
import { quoteIdentifier, quoteLiteral, releaseIdListParameter } from './sql-text.js';

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

/**
 * The table-function call that reads stored data files (one format) with the spec's types, each row with
 * the `filename` it came from.
 */
function readDataSql(format: DataFormat, files: readonly string[]): string {
  const list = `[${files.map(quoteLiteral).join(', ')}]`;
  if (format === 'parquet') return `read_parquet(${list}, filename = true)`;
  const columns = MARKET_EVENT_FIELDS.map((field) => `${quoteLiteral(field.name)}: ${quoteLiteral(DUCKDB_TYPE[field.type])}`).join(', ');
  // Explicit types and no sniffing: nulls are empty fields, a quoted "" stays an empty string.
  return `read_csv(${list}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', nullstr = '', allow_quoted_nulls = false, columns = {${columns}}, filename = true)`;
}

/** Name of the row carrying a parquet footer's row count in `checkDataFile`'s query. */
const FOOTER_ROWS = '#footer num_rows';

/**
 * The data file's column names (and parquet types) checked against the spec before any insert, and for
 * parquet its row count (from the footer) against `expectedRows`. Reads the file on the
 * catalog's side connection, so it runs while another release imports.
 */
export async function checkDataFile(catalog: Catalog, id: string, format: DataFormat, file: string, expectedRows: number): Promise<void> {
  if (format === 'parquet') {
    // One round trip: the columns DuckDB reads, plus the footer's row count as a row named FOOTER_ROWS (a
    // name no spec field has; UNION ALL keeps no order, so it is found by name).
    const quoted = quoteLiteral(file);
    const rows = await catalog.sideQuery(
      `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${quoted}))
       UNION ALL SELECT ${quoteLiteral(FOOTER_ROWS)}, num_rows::VARCHAR FROM parquet_file_metadata(${quoted})`,
    );
    const columns = rows.filter((row) => row.column_name !== FOOTER_ROWS).map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
    checkDataColumns(id, 'parquet file', columns);
    const actual = Number(rows.find((row) => row.column_name === FOOTER_ROWS)?.column_type);
    if (actual !== expectedRows) {
      throw new RowCountMismatchError(catalogMessages.rowCountMismatch(id, actual, expectedRows), { expected: expectedRows, actual });
    }
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
  await checkDataFile(catalog, item.release.id, item.format, item.dataPath, item.release.rows);
  return importOne(catalog, item, sqlTimestamp(catalog.now()));
}

/** One release in its own transaction; false when it was already imported. */
async function importOne(catalog: Catalog, item: ReleaseImport, importedAt: string): Promise<boolean> {
  const [imported] = await catalog.transaction((connection) => insertReleases(connection, [item], importedAt));
  return imported!;
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
      return await catalog.transaction((connection) => insertReleases(connection, items, importedAt));
    } catch {
      // fall through: one transaction per release isolates the failing one
    }
  }
  const outcomes: (boolean | Error)[] = [];
  for (const item of items) {
    try {
      outcomes.push(await importOne(catalog, item, importedAt));
    } catch (error) {
      outcomes.push(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return outcomes;
}

/**
 * The statements of a batch inside an open transaction, a constant number of them whatever its size
 * (per-statement overhead was a third of the import time when each release had its own):
 * 1. which releases are new (an ID already imported, or repeated in the batch, is skipped: false);
 * 2. their `releases` rows, `import_order` continuing the catalog's sequence in batch order;
 * 3. their `release_files` rows;
 * 4. their `market_events` rows, one scan per group of `rowGroups`.
 * The rows each scan inserts must equal the sum of its releases' manifest `rows` (exact per release for a
 * group of one; for the parquet group, `checkDataFile` compared each file's footer beforehand, and the
 * footer is what DuckDB reads). A mismatch throws RowCountMismatchError, which rolls the batch back.
 */
async function insertReleases(connection: DuckDBConnection, items: readonly ReleaseImport[], importedAt: string): Promise<boolean[]> {
  // 1.
  const presentRows = await connection.runAndReadAll('SELECT id FROM releases WHERE list_contains($ids::VARCHAR[], id)', {
    ids: releaseIdListParameter(items.map((item) => item.release.id)),
  });
  const seen = new Set(presentRows.getRowObjectsJson().map((row) => String(row.id)));
  const fresh: ReleaseImport[] = [];
  const outcomes = items.map((item) => {
    if (seen.has(item.release.id)) return false;
    seen.add(item.release.id);
    fresh.push(item);
    return true;
  });
  if (fresh.length === 0) return outcomes;

  // 2.
  const lastOrder = await connection.runAndReadAll('SELECT coalesce(max(import_order), 0)::DOUBLE AS n FROM releases');
  const firstOrder = Number(lastOrder.getRowObjectsJson()[0]?.n) + 1;
  const releaseParameters: Record<string, string | number | null> = { imported_at: importedAt };
  const releaseValues = fresh.map((item, i) => {
    const { release } = item;
    Object.assign(releaseParameters, {
      [`id${i}`]: release.id,
      [`dataset${i}`]: release.dataset,
      [`version${i}`]: release.version,
      [`day${i}`]: release.day,
      [`generated_at${i}`]: release.generated_at,
      [`rows${i}`]: release.rows,
      [`min_sample_time${i}`]: release.min_sample_time ?? null,
      [`max_sample_time${i}`]: release.max_sample_time ?? null,
      [`manifest_sha256${i}`]: item.manifestSha256,
      [`schema_sha256${i}`]: item.schema?.sha256 ?? null,
      [`coverage${i}`]: JSON.stringify(release.coverage ?? null),
      [`limitations${i}`]: JSON.stringify(release.limitations ?? []),
      [`import_order${i}`]: firstOrder + i,
    });
    return `($id${i}, $dataset${i}, $version${i}, $day${i}::DATE, $generated_at${i}::DOUBLE, $rows${i}::BIGINT,
      $min_sample_time${i}::DOUBLE, $max_sample_time${i}::DOUBLE, $manifest_sha256${i}, $schema_sha256${i}::VARCHAR,
      $coverage${i}::JSON, $limitations${i}::JSON, $imported_at::TIMESTAMP, $import_order${i}::BIGINT)`;
  });
  await connection.run(
    `INSERT INTO releases (id, dataset, version, day, generated_at, rows, min_sample_time, max_sample_time,
       manifest_sha256, schema_sha256, coverage, limitations, imported_at, import_order)
     VALUES ${releaseValues.join(',\n')}`,
    releaseParameters,
  );

  // 3.
  const files = fresh.flatMap((item): [string, string, FileDigest][] => [
    [item.release.id, 'manifest', { sha256: item.manifestSha256, bytes: item.manifestBytes }],
    [item.release.id, item.format, item.data],
    ...(item.schema === undefined ? [] : [[item.release.id, 'schema', item.schema] as [string, string, FileDigest]]),
  ]);
  await connection.run(
    `INSERT INTO release_files VALUES ${files.map((_, i) => `($id${i}, $format${i}, $sha${i}, $bytes${i}::BIGINT)`).join(', ')}`,
    Object.assign({}, ...files.map(([id, format, digest], i) => ({ [`id${i}`]: id, [`format${i}`]: format, [`sha${i}`]: digest.sha256, [`bytes${i}`]: digest.bytes }))),
  );

  // 4.
  for (const group of rowGroups(fresh)) {
    const inserted = (await connection.run(insertRowsSql(group))).rowsChanged;
    const expected = group.reduce((sum, item) => sum + item.release.rows, 0);
    if (inserted !== expected) {
      const message =
        group.length === 1
          ? catalogMessages.rowCountMismatch(group[0]!.release.id, inserted, expected)
          : catalogMessages.batchRowCountMismatch(group.length, inserted, expected);
      throw new RowCountMismatchError(message, { expected, actual: inserted });
    }
  }
  return outcomes;
}

/**
 * The scans of step 4: every parquet file with a distinct path in one group (their counts were checked
 * against their footers, so the group's sum is exact per file); each csv file (no footer) and each file
 * shared by two releases in a group of its own.
 */
function rowGroups(items: readonly ReleaseImport[]): ReleaseImport[][] {
  const scanned = new Set<string>();
  const together: ReleaseImport[] = [];
  const alone: ReleaseImport[][] = [];
  for (const item of items) {
    if (item.format === 'parquet' && !scanned.has(item.dataPath)) {
      scanned.add(item.dataPath);
      together.push(item);
    } else alone.push([item]);
  }
  return together.length > 0 ? [together, ...alone] : alone;
}

/**
 * One INSERT reading a group's files (one format, distinct paths) in one scan, in file order; each row's
 * release ID and day come from the file it was read from.
 */
function insertRowsSql(group: readonly ReleaseImport[]): string {
  const byFile = (value: (item: ReleaseImport) => string) =>
    `CASE filename ${group.map((item) => `WHEN ${quoteLiteral(item.dataPath)} THEN ${value(item)}`).join(' ')} END`;
  return `INSERT INTO market_events (release_id, day, ${COLUMN_LIST})
SELECT ${byFile((item) => quoteLiteral(item.release.id))}, ${byFile((item) => `DATE ${quoteLiteral(item.release.day)}`)}, ${COLUMN_LIST}
FROM ${readDataSql(group[0]!.format, group.map((item) => item.dataPath))}`;
}
