// The columns of the catalog's row tables (market_events, market_event_extras) against rdw's: name and type. The rows
// fingerprint casts each value to rdw's type before hashing, so a column whose type was changed behind rdw's back
// (`ALTER TABLE market_events ALTER sample_time TYPE VARCHAR`) hashes as before while every study reads the other type:
// `rdw verify` and `rdw reproduce` said all was well and the study then failed with DuckDB's Binder Error (an
// adversary's trial, session 42). Likewise a column computed by an expression: `direction_adjusted_return_pct_1h
// DOUBLE GENERATED ALWAYS AS (CASE WHEN current_query() LIKE '%md5(%' THEN <the imported value> ELSE <another> END)`
// gave the fingerprint the imported values and every study others (verify, reproduce and study --lock all passed,
// every diff of the event study changed). `rdw verify` reports each difference and `--repair` makes the column rdw's again.

import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENT_FIELDS } from '../contract/index.js';
import { quoteLiteral } from '../base/index.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { MARKET_EVENTS_TABLE } from './market-events-source.js';
import { CatalogRecordError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** The table of fields beyond the spec, one JSON object per row (catalog-schema.ts). */
const EXTRAS_TABLE = 'market_event_extras';

/** Each row table's columns as rdw makes them: name -> DuckDB type as duckdb_columns() states it. */
const ROW_TABLE_COLUMNS: Readonly<Record<string, ReadonlyMap<string, string>>> = {
  [MARKET_EVENTS_TABLE]: new Map([
    ['release_id', 'VARCHAR'],
    ['day', 'DATE'],
    ...MARKET_EVENT_FIELDS.map((field): [string, string] => [field.name, DUCKDB_TYPE[field.type]]),
  ]),
  [EXTRAS_TABLE]: new Map([
    ['release_id', 'VARCHAR'],
    ['row_id', 'VARCHAR'],
    ['extra_fields', 'JSON'],
  ]),
};

/** One column of a row table that is not rdw's: its type differs, or it is missing (`found` undefined) or extra (`expected` undefined). */
export interface RowTableColumnDifference {
  table: string;
  column: string;
  /** rdw's type; undefined for a column rdw does not make. */
  expected: string | undefined;
  /** The type the catalog holds; undefined for a missing column. */
  found: string | undefined;
  /** True when the column has a default or generation expression (rdw's have none): what it reads can depend on the query. */
  computed?: true;
}

/**
 * Every difference of the current database's row tables (main schema) from rdw's columns, by table then column.
 * A table that is not there at all is not reported here (the catalog's other checks say so).
 */
export async function rowTableColumnDifferences(connection: DuckDBConnection): Promise<RowTableColumnDifference[]> {
  const tables = Object.keys(ROW_TABLE_COLUMNS);
  const rows = (
    await connection.runAndReadAll(
      `SELECT table_name, column_name, data_type, column_default IS NOT NULL AS computed FROM duckdb_columns()
       WHERE database_name = current_database() AND schema_name = 'main' AND table_name IN (${tables.map(quoteLiteral).join(', ')})
       ORDER BY table_name, column_index`,
    )
  ).getRowObjectsJS();
  const differences: RowTableColumnDifference[] = [];
  for (const table of tables) {
    const mine = rows.filter((row) => row.table_name === table);
    const found = new Map(mine.map((row) => [String(row.column_name), String(row.data_type)]));
    const computed = new Set(mine.filter((row) => row.computed === true).map((row) => String(row.column_name)));
    if (found.size === 0) continue;
    const expected = ROW_TABLE_COLUMNS[table]!;
    for (const [column, type] of expected) {
      if (computed.has(column)) differences.push({ table, column, expected: type, found: found.get(column), computed: true });
      else if (found.get(column) !== type) differences.push({ table, column, expected: type, found: found.get(column) });
    }
    for (const [column, type] of found) {
      if (!expected.has(column)) differences.push({ table, column, expected: undefined, found: type });
    }
  }
  return differences;
}

/**
 * Before rows are read or written in bulk (a study, a lock check, an import, an export): the row tables' columns are
 * rdw's. @throws CatalogRecordError (exit 3) naming the first difference and `rdw verify --repair`
 */
export async function assertRowTableColumns(connection: DuckDBConnection): Promise<void> {
  const [column] = await rowTableColumnDifferences(connection);
  if (column === undefined) return;
  throw new CatalogRecordError(catalogMessages.recordColumnDiffers(column.table, column.column, column.expected, column.found, column.computed === true), {
    object: `${column.table}.${column.column}`,
  });
}
