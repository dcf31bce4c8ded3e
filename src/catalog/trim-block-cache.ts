// Catalog.trimMemory's two DuckDB steps: read the memory limit, and evict the block cache by lowering the
// limit to what DuckDB holds besides it for a moment (docs/catalog.md "Memory").

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteLiteral } from '../base/index.js';

/** DuckDB's `memory_limit` as it shows it (rounded down to one decimal, e.g. "18.7 GiB"). */
export async function currentMemoryLimit(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll(`SELECT current_setting('memory_limit')`);
  return String(reader.getRows()[0]![0]);
}

/** Evicts DuckDB's cache of catalog blocks and its allocator's freed memory, then sets `memoryLimit` back. */
export async function trimBlockCache(connection: DuckDBConnection, memoryLimit: string): Promise<void> {
  const reader = await connection.runAndReadAll(
    `SELECT coalesce(sum(memory_usage_bytes) FILTER (WHERE tag <> 'BASE_TABLE'), 0)::DOUBLE FROM duckdb_memory()`,
  );
  // Whole MiB at or above what DuckDB holds besides the cache: nothing else has to go, nothing spills to disk.
  const trimmed = Math.ceil(Number(reader.getRows()[0]![0]) / 2 ** 20);
  try {
    await connection.run(`SET memory_limit = '${trimmed}MiB'`);
  } catch {
    // DuckDB could not evict enough (blocks pinned): leave the cache as it is.
  } finally {
    await connection.run(`SET memory_limit = ${quoteLiteral(memoryLimit)}`);
  }
}
