// Step 7 of a pull: one DuckDB transaction that inserts a release's metadata, its files and every row,
// then counts the rows against the manifest. Any failure rolls the whole release back.

import type { DuckDBConnection } from '@duckdb/node-api';
import type { FileDigest } from '../contract/index.js';
import { acceptedBeyondContract } from './accepted-beyond-contract.js';
import { writeTransaction, type Catalog } from './catalog.js';
import { RowCountMismatchError, SchemaMismatchError } from './catalog-errors.js';
import { NULL_COLUMN_TYPE, checkDataColumns, type ColumnPlan } from './check-data-columns.js';
import { checkReleaseFacts, readReleaseFacts } from './check-release-facts.js';
import { nullNonFiniteNumbers, recordValuesBeyondContract, valuesOutsideSets } from './values-beyond-contract.js';
import type { BundledSchemaFields } from './check-release-schema.js';
import { catalogMessages } from './messages.js';
import { readParquetNullColumns } from './parquet-null-columns.js';
import { readCsvHeader } from './read-csv-header.js';
import { insertExtrasSql, insertRowsSql, planOf, rowGroups } from './release-rows-sql.js';
import { sqlTimestamp } from './run-migrations.js';
import { quoteLiteral } from '../base/index.js';
import { idInListSql } from './release-id-sql.js';
import { recordRowsFingerprints } from './rows-fingerprint.js';
import { assertRowTableColumns } from './row-table-columns.js';
import type { DataFormat, ReleaseImport } from './release-import.js';

/**
 * The data file's columns checked against the spec and the release's bundled schema (`checkDataColumns`)
 * before any insert, and for parquet its row count (from the footer) against `expectedRows`. Reads the file
 * on the catalog's side connection, so it runs while another release imports. Returns the column plan.
 */
export async function checkDataFile(
  catalog: Catalog,
  id: string,
  format: DataFormat,
  file: string,
  expectedRows: number,
  bundled?: BundledSchemaFields,
): Promise<ColumnPlan> {
  if (format === 'parquet') {
    // One round trip: the columns DuckDB reads, plus the footer's row count in a row of part 'footer'
    // (UNION ALL keeps no order, so each row says which part it is).
    const quoted = quoteLiteral(file);
    const rows = await catalog.sideQuery(
      `SELECT 'column' AS part, column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${quoted}))
       UNION ALL SELECT 'footer', NULL, num_rows::VARCHAR FROM parquet_file_metadata(${quoted})`,
    );
    const described = rows.filter((row) => row.part === 'column').map((row) => ({ name: String(row.column_name), type: String(row.column_type) }));
    // DuckDB describes a column of Parquet's Null type as INTEGER: only then is the file's own schema read.
    const nullColumns = described.some((column) => column.type === 'INTEGER') ? await readParquetNullColumns(catalog, file) : new Set<string>();
    const columns = described.map((column) => (nullColumns.has(column.name) ? { ...column, type: NULL_COLUMN_TYPE } : column));
    const plan = checkDataColumns(id, 'parquet file', columns, bundled);
    const actual = Number(rows.find((row) => row.part === 'footer')?.column_type);
    if (actual !== expectedRows) {
      throw new RowCountMismatchError(catalogMessages.rowCountMismatch(id, actual, expectedRows), { expected: expectedRows, actual });
    }
    return plan;
  }
  // The csv header, read by rdw (never DuckDB's sniffer): columns are matched by name (any order), typed by the spec.
  const header = await readCsvHeader(id, file);
  const plan = checkDataColumns(id, 'csv header', header.names.map((name) => ({ name, type: undefined })), bundled);
  return header.everyFieldQuoted ? { ...plan, quotedEmptyIsNull: true } : plan;
}

/**
 * Imports a verified release in one transaction: `releases`, `release_files`, `market_events`; then the
 * row count must equal the manifest's `rows`, else ROLLBACK and RowCountMismatchError. The data file's
 * columns are checked first. Returns false when the release was already imported (nothing changed).
 */
export async function importRelease(catalog: Catalog, item: ReleaseImport): Promise<boolean> {
  const columns = await checkDataFile(catalog, item.release.id, item.format, item.dataPath, item.release.rows);
  const accepted = item.accepted ?? acceptedBeyondContract(item.release, undefined, columns);
  return importOne(catalog, { ...item, columns, ...(accepted === undefined ? {} : { accepted }) }, sqlTimestamp(catalog.now()));
}

/** One release in its own transaction; false when it was already imported. */
async function importOne(catalog: Catalog, item: ReleaseImport, importedAt: string): Promise<boolean> {
  const [imported] = await writeTransaction(catalog, (connection) => insertReleases(connection, [item], importedAt));
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
      return await writeTransaction(catalog, (connection) => insertReleases(connection, items, importedAt));
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
 * 4. their `market_events` rows, one scan per group of `rowGroups` (one group in the common case: every
 *    file with the spec's columns), and for a group whose files carry extra fields, their values per row
 *    into `market_event_extras` (a second scan, only then).
 * The rows each scan inserts must equal the sum of its releases' manifest `rows` (exact per release for a
 * group of one; for a parquet group, `checkDataFile` compared each file's footer beforehand, and the
 * footer is what DuckDB reads). A mismatch throws RowCountMismatchError, which rolls the batch back; a
 * value the catalog cannot hold (a null in a never-null field, a number out of range) SchemaMismatchError.
 * 4b. a non-finite number (NaN, ±Infinity) of a spec number field set to NULL (`nullNonFiniteNumbers`);
 * 5. one aggregate over the batch's inserted rows, compared with each manifest (`checkReleaseFacts`: day,
 *    rows, distinct row_ids, sample_time range, coverage counts, dataset and version on every row); a
 *    contradiction throws ManifestContradictionError, which rolls the batch back like a row-count mismatch.
 *    Non-finite numbers set to NULL and values outside a closed value set are recorded in `releases.accepted`.
 */
async function insertReleases(connection: DuckDBConnection, items: readonly ReleaseImport[], importedAt: string): Promise<boolean[]> {
  // 1.
  const presentRows = await connection.runAndReadAll(`SELECT id FROM releases WHERE ${idInListSql('id', items.map((item) => item.release.id))}`);
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
      [`accepted${i}`]: item.accepted === undefined ? null : JSON.stringify(item.accepted),
    });
    return `($id${i}, $dataset${i}, $version${i}, $day${i}::DATE, $generated_at${i}::DOUBLE, $rows${i}::BIGINT,
      $min_sample_time${i}::DOUBLE, $max_sample_time${i}::DOUBLE, $manifest_sha256${i}, $schema_sha256${i}::VARCHAR,
      $coverage${i}::JSON, $limitations${i}::JSON, $imported_at::TIMESTAMP, $import_order${i}::BIGINT, $accepted${i}::JSON)`;
  });
  await connection.run(
    `INSERT INTO releases (id, dataset, version, day, generated_at, rows, min_sample_time, max_sample_time,
       manifest_sha256, schema_sha256, coverage, limitations, imported_at, import_order, accepted)
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

  // 4. and 5.
  await insertReleaseRows(connection, fresh);
  return outcomes;
}

/**
 * Steps 4 and 5 of an import inside an open transaction: the rows of `items` (whose `releases` rows exist)
 * into `market_events` (and `market_event_extras`), each scan's count against the manifests' `rows`, then
 * the manifests' statements against the inserted rows. Throws RowCountMismatchError, SchemaMismatchError or
 * ManifestContradictionError (the caller's transaction rolls back); CatalogRecordError (exit 3, before any row) when
 * a column of the row tables is not rdw's (row-table-columns.ts). Then records the rows' fingerprint
 * (`releases.rows_fingerprint`). Also the re-import of `rdw verify --repair`.
 */
export async function insertReleaseRows(connection: DuckDBConnection, items: readonly ReleaseImport[]): Promise<void> {
  // The row tables as rdw made them: a column dropped behind rdw's back failed every import with DuckDB's Binder Error
  // ("rdw failed unexpectedly", session 42), a computed one refuses inserts, and one of another type would cast.
  await assertRowTableColumns(connection);
  // 4.
  for (const group of rowGroups(items)) {
    const expected = group.reduce((sum, item) => sum + item.release.rows, 0);
    const statements = [insertRowsSql(group), ...(planOf(group[0]!).extras.length > 0 ? [insertExtrasSql(group)] : [])];
    for (const statement of statements) {
      const inserted = await connection.run(statement).then((result) => result.rowsChanged, (error: unknown) => {
        throw rowsRefused(group, error);
      });
      if (inserted !== expected) {
        const message =
          group.length === 1
            ? catalogMessages.rowCountMismatch(group[0]!.release.id, inserted, expected)
            : catalogMessages.batchRowCountMismatch(group.length, inserted, expected);
        throw new RowCountMismatchError(message, { expected, actual: inserted });
      }
    }
  }

  // 4b. a NaN or infinite number is missing: NULL before anything reads the rows
  const nonFinite = await nullNonFiniteNumbers(connection, items);

  // 5.
  const facts = await readReleaseFacts(connection, items);
  for (const item of items) checkReleaseFacts(item, facts.get(item.release.id));
  for (const item of items) {
    const fields = nonFinite.get(item.release.id);
    const values = valuesOutsideSets(facts.get(item.release.id));
    if (fields === undefined && values.length === 0) continue;
    await recordValuesBeyondContract(connection, item, { ...(fields === undefined ? {} : { nonFinite: fields }), ...(values.length === 0 ? {} : { otherValues: values }) });
  }

  // 6. the fingerprint of the rows as imported, what `rdw verify` and study locks hold the rows to later
  await recordRowsFingerprints(connection, items.map((item) => ({ id: item.release.id })));
}

/**
 * DuckDB's refusal of a group's rows as SchemaMismatchError (exit 3) when it is about the values (a NOT NULL
 * constraint, a failed conversion, a malformed csv line), in one sentence; any other error unchanged.
 */
function rowsRefused(group: readonly ReleaseImport[], error: unknown): unknown {
  const text = error instanceof Error ? error.message : String(error);
  const what = group.length === 1 ? `release ${group[0]!.release.id.slice(0, 12)}…` : `a batch of ${group.length} releases`;
  const notNull = /NOT NULL constraint failed: market_events\.(\S+)/.exec(text);
  if (notNull !== null) return new SchemaMismatchError(catalogMessages.rowsRefused(what, `${notNull[1]} is null in a row, and the spec says it never is`), { cause: error });
  // DuckDB's CSV state machine stops on a file it cannot split into fields (measured: a few short CR-only lines with a quoted CRLF).
  if (/^Invalid Input Error: The CSV Parser state machine/.test(text)) return new SchemaMismatchError(catalogMessages.csvNotReadable(what), { cause: error });
  if (!/^(Conversion Error|Invalid Input Error: CSV Error)/.test(text)) return error;
  // DuckDB's text is several lines of advice for its own CLI: keep the line that says what is wrong.
  const lines = text.split('\n');
  const reason =
    lines.find((line) => /^(Error when converting column|Expected Number of Columns|Could not convert)/.test(line)) ??
    lines[0]!.replace(/^[A-Za-z ]+Error:\s*/, '');
  const line = /CSV Error on Line: (\d+)/.exec(text)?.[1];
  return new SchemaMismatchError(catalogMessages.rowsRefused(what, `${line === undefined ? '' : `csv line ${line}: `}${reason.replace(/\.$/, '')}`), { cause: error });
}
