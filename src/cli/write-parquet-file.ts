// `rdw sql --parquet FILE`: a query result (already computed, on the catalog's locked-down connection) written
// as Parquet by DuckDB's COPY in a separate in-memory instance, to a temporary file renamed over FILE.

import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBMaterializedResult } from '@duckdb/node-api';
import { isFolder, quoteIdentifier, quoteLiteral } from '../base/index.js';
import { writeFailureOf } from '../contract/index.js';

/** What was written: the file (absolute), its rows and its column names (duplicates suffixed `_1`, `_2` …). */
export interface ParquetFileWritten {
  file: string;
  rows: number;
  columns: string[];
}

/**
 * Writes `result` to `file` (absolute) as Parquet with the result's own column types (DuckDB's COPY … FORMAT
 * parquet, in an in-memory instance: the catalog's instance has no file access). The bytes go to a temporary
 * file in the same folder, renamed over `file` once complete: a reader sees the old file or the whole new one,
 * and a failure leaves no temporary file behind. Duplicate column names get `_1`, `_2` … as in DuckDB.
 * @throws an EnvironmentError (disk full, permission denied …) when the file cannot be written.
 */
export async function writeParquetFile(result: DuckDBMaterializedResult, file: string): Promise<ParquetFileWritten> {
  const columns = uniqueNames(result.columnNames());
  const types = result.columnTypes();
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  let rows = 0;
  try {
    await connection.run(`CREATE TABLE result (${columns.map((name, index) => `${quoteIdentifier(name)} ${types[index]!.toString()}`).join(', ')})`);
    const appender = await connection.createAppender('result');
    for (let index = 0; index < result.chunkCount; index += 1) {
      const chunk = result.getChunk(index);
      appender.appendDataChunk(chunk);
      rows += chunk.rowCount;
    }
    appender.closeSync();
    await connection.run(`COPY result TO ${quoteLiteral(temp)} (FORMAT parquet)`);
    await rename(temp, file);
    return { file, rows, columns };
  } catch (error) {
    await rm(temp, { force: true });
    throw writeFailureOf(error, file, await isFolder(path.dirname(file)));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Column names made unique as DuckDB does for a table (case-insensitively): the second `a` becomes `a_1`, the third `a_2`. */
function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let suffix = 1; taken.has(unique.toLowerCase()); suffix += 1) unique = `${name}_${suffix}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}
