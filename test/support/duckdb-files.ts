// Test helper: write release files to a temporary folder and read them back with DuckDB.

import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

export interface DuckDbFiles {
  /** Writes bytes under a name in the temporary folder; returns the path. */
  write(name: string, bytes: Uint8Array | string): Promise<string>;
  /** Runs SQL and returns rows as plain JS objects. */
  query(sql: string): Promise<Record<string, unknown>[]>;
}

/** Runs `body` with a temporary folder and an in-memory DuckDB; removes both afterwards. */
export async function withDuckDbFiles<T>(body: (files: DuckDbFiles) => Promise<T>): Promise<T> {
  const dir = await makeTemporaryFolder('rdw-releases-');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return await body({
      async write(name, bytes) {
        const path = join(dir, name);
        await writeFile(path, bytes);
        return path;
      },
      async query(sql) {
        return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
      },
    });
  } finally {
    connection.closeSync();
    instance.closeSync();
    await removeTree(dir);
  }
}

/** A DuckDB string literal. */
export const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`;
