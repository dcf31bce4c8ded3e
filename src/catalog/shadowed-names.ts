// Names on a catalog connection that stand in for others, so that rdw's SQL would read something else than it
// says: a macro named like one of DuckDB's own functions (the user's schema comes before the system's; e.g.
// `CREATE MACRO ln(x) AS (SELECT … label …)` turned the default model's ln_volume_ratio_20 into a label, an
// adversary's trial), and a temporary table or view named like a table or view of a database (the temp schema
// comes first: `CREATE TEMP VIEW market_events_current AS …` would replace the rows every study reads). The leakage
// guard reads a feature in an empty database and cannot see either: studies refuse such a connection instead.
// Also whether the catalog's view market_events_current is still rdw's (currentViewState: `rdw verify`, doctor), and
// (before a study of the catalog's table) whether its row tables' columns are rdw's (row-table-columns.ts).

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../base/index.js';
import { CatalogRecordError, ConnectionSettingError, ShadowedNameError } from './catalog-errors.js';
import { MARKET_EVENTS_CURRENT_QUERY } from './catalog-schema.js';
import { MARKET_EVENTS_CURRENT_VIEW } from './market-events-source.js';
import { assertRowTableColumns } from './row-table-columns.js';
import { catalogMessages, type ConnectionSetting } from './messages.js';

/** What stands in for another name, as `database.schema.name` (functions with `()`), sorted. */
export async function shadowedNames(connection: DuckDBConnection): Promise<string[]> {
  return [...(await shadowingFunctions(connection)).map((name) => `${name}()`), ...(await shadowingRelations(connection))].sort();
}

async function shadowingFunctions(connection: DuckDBConnection): Promise<string[]> {
  // Two steps: the usual catalog has no user function, and the first query alone is the cheaper (~20 ms).
  const made = (await connection.runAndReadAll(`SELECT DISTINCT database_name, schema_name, function_name FROM duckdb_functions() WHERE NOT internal`)).getRowObjectsJS();
  if (made.length === 0) return [];
  const names = [...new Set(made.map((row) => String(row.function_name).toLowerCase()))];
  const builtIn = new Set(
    (
      await connection.runAndReadAll(
        `SELECT DISTINCT lower(function_name) AS name FROM duckdb_functions() WHERE internal AND lower(function_name) IN (${names.map(quoteLiteral).join(', ')})`,
      )
    )
      .getRowObjectsJS()
      .map((row) => String(row.name)),
  );
  return made.filter((row) => builtIn.has(String(row.function_name).toLowerCase())).map((row) => `${String(row.database_name)}.${String(row.schema_name)}.${String(row.function_name)}`);
}

/** Temporary tables and views named like a table or view of another database (the catalog's, or any attached). */
async function shadowingRelations(connection: DuckDBConnection): Promise<string[]> {
  const rows = (
    await connection.runAndReadAll(
      `WITH relations AS (
        SELECT database_name, schema_name, table_name AS name FROM duckdb_tables() WHERE NOT internal
        UNION ALL SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal
      )
      SELECT DISTINCT t.database_name || '.' || t.schema_name || '.' || t.name AS name FROM relations t
      WHERE t.database_name = 'temp' AND EXISTS (SELECT 1 FROM relations o WHERE o.database_name <> 'temp' AND lower(o.name) = lower(t.name))`,
    )
  ).getRowObjectsJS();
  return rows.map((row) => String(row.name));
}

/** Whether the current database's view market_events_current is rdw's: `rdw`, `replaced`, or `missing`. */
export type CurrentViewState = 'rdw' | 'replaced' | 'missing';

/**
 * The state of the current database's view market_events_current: its query compared with rdw's
 * (MARKET_EVENTS_CURRENT_QUERY) as DuckDB's parse trees. `replaced` after a `CREATE OR REPLACE VIEW` on a writable
 * catalog, `missing` after a `DROP VIEW` (or in a database of the caller's own tables).
 */
export async function currentViewState(connection: DuckDBConnection): Promise<CurrentViewState> {
  const views = (
    await connection.runAndReadAll(
      `SELECT sql FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND view_name = ${quoteLiteral(MARKET_EVENTS_CURRENT_VIEW)}`,
    )
  ).getRowObjectsJS();
  if (views.length === 0) return 'missing';
  const stored = /^CREATE VIEW\s+\S+\s+AS\s+([\s\S]*?);?\s*$/i.exec(String(views[0]!.sql))?.[1] ?? '';
  const tree = async (query: string) => {
    const text = String((await connection.runAndReadAll(`SELECT json_serialize_sql(${quoteLiteral(query)}) AS tree`)).getRowObjectsJS()[0]!.tree);
    return text.replace(/"query_location":\d+/g, '');
  };
  return (await tree(stored)) === (await tree(MARKET_EVENTS_CURRENT_QUERY)) ? 'rdw' : 'replaced';
}

/** Whether the current database is a catalog rdw made: it records its schema migrations. */
export async function madeByRdw(connection: DuckDBConnection): Promise<boolean> {
  const [row] = (
    await connection.runAndReadAll(
      `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migrations'`,
    )
  ).getRowObjectsJS();
  return Number(row!.n) > 0;
}

/** The current database's view market_events_current as `database.main.market_events_current`. */
async function currentViewName(connection: DuckDBConnection): Promise<string> {
  const [row] = (await connection.runAndReadAll('SELECT current_database() AS db')).getRowObjectsJS();
  return `${String(row!.db)}.main.${MARKET_EVENTS_CURRENT_VIEW}`;
}

/**
 * Before a study: nothing on the connection stands in for a DuckDB function or a catalog relation, and no setting
 * changes what rdw's SQL computes or which database its unqualified names read.
 * @param eventsTable the table of Market Events rows the study reads, when it is the catalog's (it must then be in
 *   the current database's main schema); undefined for a table of the caller's own naming (not looked for)
 * @throws ShadowedNameError; CatalogRecordError (a catalog rdw made without its view market_events_current);
 *   ConnectionSettingError
 */
export async function assertNothingShadowed(connection: DuckDBConnection, eventsTable?: string): Promise<void> {
  const names = await shadowedNames(connection);
  if (names.length > 0) throw new ShadowedNameError(catalogMessages.shadowedNames(names), { names });
  const view = await currentViewState(connection);
  if (view === 'replaced') {
    const name = await currentViewName(connection);
    throw new ShadowedNameError(catalogMessages.currentViewReplaced(name), { names: [name] });
  }
  // Missing: a database of the caller's own tables has none; a catalog rdw made (it records its migrations) must.
  if (view === 'missing' && eventsTable !== undefined && (await madeByRdw(connection))) {
    throw new CatalogRecordError(catalogMessages.recordViewDiffers(MARKET_EVENTS_CURRENT_VIEW, 'missing'), { object: MARKET_EVENTS_CURRENT_VIEW });
  }
  const [row] = (
    await connection.runAndReadAll(
      // A zone of offset 0 in winter and summer is UTC by another name (Etc/UTC, GMT…): the same numbers.
      `SELECT current_setting('TimeZone') AS time_zone, current_setting('Calendar') AS calendar, current_setting('default_order') AS default_order,
        (TIMESTAMP '2020-01-01 00:00:00')::TIMESTAMPTZ = TIMESTAMPTZ '2020-01-01 00:00:00+00'
          AND (TIMESTAMP '2020-07-01 00:00:00')::TIMESTAMPTZ = TIMESTAMPTZ '2020-07-01 00:00:00+00' AS utc, current_setting('search_path') AS search_path,
        current_database() AS db, current_schema() AS schema,
        (SELECT count(*) FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND lower(table_name) = lower(${quoteLiteral(eventsTable ?? '')})) AS here`,
    )
  ).getRowObjectsJS();
  const refuse = (setting: ConnectionSetting, value: unknown) => {
    throw new ConnectionSettingError(catalogMessages.connectionSetting(setting, String(value)), { setting });
  };
  // Before the zone: another calendar fails the UTC test too (SET Calendar = 'japanese' moved 2020 to 4038), and the
  // sentence must name it, not a TimeZone that is UTC already (an adversary's trial, session 42).
  if (String(row!.calendar).toLowerCase() !== 'gregorian') refuse('Calendar', row!.calendar);
  if (row!.utc !== true) refuse('TimeZone', row!.time_zone);
  if (!/^asc/i.test(String(row!.default_order))) refuse('default_order', row!.default_order);
  // USE db sets search_path to db.main: that is the current database itself, checked below.
  const searchPath = String(row!.search_path);
  if (searchPath !== '' && searchPath.toLowerCase() !== `${String(row!.db)}.main`.toLowerCase()) refuse('search_path', searchPath);
  if (String(row!.schema) !== 'main' || (eventsTable !== undefined && Number(row!.here) === 0)) refuse('the current database', `${String(row!.db)}.${String(row!.schema)}`);
  // A column of the catalog's row tables of another type than rdw's hashes as before (the fingerprint casts it back);
  // a computed one can read one way to the fingerprint's query and another to the study's.
  if (eventsTable !== undefined && (await madeByRdw(connection))) await assertRowTableColumns(connection);
}
