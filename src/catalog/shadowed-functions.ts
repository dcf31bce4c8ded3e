// A macro made in the catalog file or on its connection with the name of one of DuckDB's own functions is called
// instead of it (the user's schema comes before the system's): every rdw query and derived feature that names the
// function would run the user's code, e.g. `CREATE MACRO ln(x) AS (SELECT … label …)` turned the default model's
// ln_volume_ratio_20 into a label (an adversary's trial). The leakage guard reads a feature in an empty database,
// so it cannot see this: the study refuses such a connection instead.

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../base/index.js';
import { ShadowedFunctionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** The user-made functions and macros named like a built-in one, as `database.schema.name`, sorted. */
export async function shadowedFunctions(connection: DuckDBConnection): Promise<string[]> {
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
  return made
    .filter((row) => builtIn.has(String(row.function_name).toLowerCase()))
    .map((row) => `${String(row.database_name)}.${String(row.schema_name)}.${String(row.function_name)}`)
    .sort();
}

/** @throws ShadowedFunctionError when the connection has a function or macro named like one of DuckDB's own */
export async function assertNoShadowedFunctions(connection: DuckDBConnection): Promise<void> {
  const functions = await shadowedFunctions(connection);
  if (functions.length > 0) throw new ShadowedFunctionError(catalogMessages.shadowedFunctions(functions), { functions });
}
