// Reads a query's result column by column, chunk by chunk: numbers straight into Float64Arrays (NULL as NaN),
// text as strings; no JS value per cell for number columns (getColumnsJS took ~1 s per 500k rows × 5 columns).
// A `deferred-text` column stays in DuckDB's result chunks until first asked for (64-character row IDs cost
// ~0.6-1 s per 540k rows to turn into strings, and most callers only count them).

import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';

/**
 * How a result column is read: `number` (a number, bigint or boolean column; NULL → NaN), `text` (strings,
 * NULL → null) or `deferred-text` (a function that reads the strings on its first call, then returns the same array).
 */
export type ColumnKind = 'number' | 'text' | 'deferred-text';

/** The column of each kind. */
type ColumnOf<K extends ColumnKind> = K extends 'number' ? Float64Array : K extends 'text' ? (string | null)[] : () => (string | null)[];

/**
 * Runs `sql` and returns its result columns in order, each read as `kinds[j]` says (one kind per result column).
 * A value of another type in a `number` column becomes NaN.
 */
export async function readColumns<const K extends readonly ColumnKind[]>(
  connection: DuckDBConnection,
  sql: string,
  kinds: K,
): Promise<{ -readonly [J in keyof K]: ColumnOf<K[J]> }> {
  const result = await connection.run(sql);
  const count = result.rowCount;
  const columns: unknown[] = kinds.map((kind) => (kind === 'number' ? new Float64Array(count) : kind === 'text' ? new Array<string | null>(count) : undefined));
  const chunks = Array.from({ length: result.chunkCount }, (_, index) => result.getChunk(index));
  kinds.forEach((kind, j) => {
    if (kind === 'deferred-text') columns[j] = deferredText(chunks, j, count);
  });
  let offset = 0;
  for (const chunk of chunks) {
    const rows = chunk.rowCount;
    kinds.forEach((kind, j) => {
      if (kind === 'deferred-text') return;
      const vector = chunk.getColumnVector(j);
      const column = columns[j]!;
      if (kind === 'number') {
        const numbers = column as Float64Array;
        for (let i = 0; i < rows; i += 1) numbers[offset + i] = numericValue(vector.getItem(i));
      } else {
        const texts = column as (string | null)[];
        for (let i = 0; i < rows; i += 1) {
          const value = vector.getItem(i);
          texts[offset + i] = value === null ? null : String(value);
        }
      }
    });
    offset += rows;
  }
  return columns as { -readonly [J in keyof K]: ColumnOf<K[J]> };
}

/** Column j of the chunks as strings, read on the first call (the chunks kept until then, let go after). */
function deferredText(chunks: readonly DuckDBDataChunk[] | undefined, j: number, count: number): () => (string | null)[] {
  let texts: (string | null)[] | undefined;
  return () => {
    if (texts !== undefined) return texts;
    texts = new Array<string | null>(count);
    let offset = 0;
    for (const chunk of chunks!) {
      const vector = chunk.getColumnVector(j);
      for (let i = 0; i < chunk.rowCount; i += 1) {
        const value = vector.getItem(i);
        texts[offset + i] = value === null ? null : String(value);
      }
      offset += chunk.rowCount;
    }
    chunks = undefined;
    return texts;
  };
}

/** A cell's value as a number (a predictor's too): numbers as they are, bigints converted, booleans 1/0, anything else NaN (missing). */
export function numericValue(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return Number.NaN;
}
