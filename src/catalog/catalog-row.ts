// What a catalog query takes and gives: named SQL parameters and a row as JSON (Catalog.query, sideQuery, arrow).

import type { DuckDBValue } from '@duckdb/node-api';

/**
 * A row read from the catalog, values as JSON: DOUBLE and INTEGER as numbers, BIGINT (e.g. `count(*)`) and
 * DECIMAL as strings, DATE as `YYYY-MM-DD`, TIMESTAMP as text, NULL as null.
 */
export type CatalogRow = Record<string, unknown>;
/** Named SQL parameters (`$name`). */
export type SqlParameters = Record<string, DuckDBValue>;
