// Test helper: reads a home's catalog.duckdb directly with @duckdb/node-api (read-only), as any DuckDB
// client would, so assertions do not go through rdw's own catalog code.

import { access } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

export type CatalogRow = Record<string, unknown>;

/**
 * Runs `sql` (with named `$parameters`) on `<home>/catalog.duckdb` opened read-only; returns the rows as
 * plain JavaScript values, or `undefined` when the home has no catalog file at all.
 */
export async function queryCatalog(home: string, sql: string, parameters: Record<string, string | number> = {}): Promise<CatalogRow[] | undefined> {
  const file = path.join(home, 'catalog.duckdb');
  if (!(await access(file).then(() => true, () => false))) return undefined;
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(sql, parameters);
      return reader.getRowObjectsJS() as CatalogRow[];
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
