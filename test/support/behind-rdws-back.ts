// A change made behind rdw's back: statements run on `<home>/catalog.duckdb` through a DuckDB connection of the
// test's own (no rdw code), as a person with the file and a DuckDB client could. For the checks that must find it.

import { DuckDBInstance } from '@duckdb/node-api';
import path from 'node:path';

/** Runs `statements` on `<home>/catalog.duckdb` in order, through a DuckDB instance of its own, then closes it. */
export async function behindRdwsBack(home: string, ...statements: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'));
  try {
    const connection = await instance.connect();
    try {
      for (const statement of statements) await connection.run(statement);
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}
