// The one way the catalog puts a list of release IDs (or other exact text keys) into SQL: `column IN (…)`.

import { quoteLiteral } from '../base/index.js';

/**
 * `column IN ('a', 'b')` for exact text values (release IDs, SHA-256 digests), each quoted and compared
 * exactly (never case-folded); duplicates once; `false` for an empty list. `column` is SQL text (a name or
 * an expression), never user input. A constant list lets DuckDB skip row groups by their zone maps.
 */
export function idInListSql(column: string, ids: readonly string[]): string {
  const unique = [...new Set(ids)];
  return unique.length === 0 ? 'false' : `${column} IN (${unique.map((id) => quoteLiteral(String(id))).join(', ')})`;
}
