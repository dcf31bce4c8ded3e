// Which top-level columns of a parquet file are of Parquet's Null logical type. pyarrow writes an all-None
// column so (physical INT32, logical type Null); DuckDB's DESCRIBE calls it INTEGER, which cannot hold a
// string, so the column check needs the file's own schema to accept it for any nullable field (issue 31).

import { quoteLiteral } from '../base/index.js';
import type { Catalog } from './catalog.js';

/** One element of the file's schema (`parquet_schema()`), in the order of `column_id` (depth first, root first). */
export interface ParquetSchemaElement {
  columnId: number;
  name: string;
  /** Children of a group (the root, a struct, a list); 0 for a leaf. */
  children: number;
  /** True when the element is of the Null logical type. */
  isNull: boolean;
}

/**
 * The SELECT list of `parquet_schema(<file>)` rows for parquetNullColumns: each element's id, name, number of
 * children and whether it is of the Null type (DuckDB names the type `"NULL"`, the file's logical type `NullType()`).
 */
export const PARQUET_SCHEMA_COLUMNS =
  `column_id::VARCHAR AS column_id, name, coalesce(num_children, 0)::VARCHAR AS children,
   (coalesce(logical_type, '') LIKE 'NullType%' OR coalesce(duckdb_type, '') IN ('NULL', '"NULL"'))::VARCHAR AS is_null`;

/** The names of the top-level columns of Null type among `elements` (the root's own children only, never a struct's field). */
export function parquetNullColumns(elements: readonly ParquetSchemaElement[]): Set<string> {
  const [root, ...rest] = [...elements].sort((a, b) => a.columnId - b.columnId);
  const names = new Set<string>();
  if (root === undefined) return names;
  // Children still to come of each open group, the root first: an element is top-level while only the root is open.
  const remaining = [root.children];
  for (const element of rest) {
    if (remaining.length === 1 && element.isNull) names.add(element.name);
    remaining[remaining.length - 1]! -= 1;
    if (element.children > 0) remaining.push(element.children);
    else while (remaining.length > 1 && remaining[remaining.length - 1]! <= 0) remaining.pop();
  }
  return names;
}

/** The top-level Null-typed columns of parquet file `file`, read from its schema on the catalog's side connection. */
export async function readParquetNullColumns(catalog: Catalog, file: string): Promise<Set<string>> {
  const rows = await catalog.sideQuery(`SELECT ${PARQUET_SCHEMA_COLUMNS} FROM parquet_schema(${quoteLiteral(file)})`);
  return parquetNullColumns(
    rows.map((row) => ({ columnId: Number(row.column_id), name: String(row.name), children: Number(row.children), isNull: row.is_null === 'true' })),
  );
}
