// Event-study rows or any Arrow table (e.g. catalog.arrow's) as a danfojs DataFrame, for notebooks and scripts.
// danfojs is heavy (TensorFlow.js) and an optional peer dependency: it is imported lazily here, never by the
// library's static import graph, and the emitted .d.ts never names it (DataFrameLike below).

import { Type, type Table } from 'apache-arrow';
import { OptionalPackageMissingError } from './analysis-errors.js';
import type { EventStudyResult } from './event-study-result.js';
import { analysisMessages } from './messages.js';

/**
 * The part of a danfojs `DataFrame` that rdw's types describe. The value is a whole danfojs DataFrame, but
 * rdw's `.d.ts` must not import danfojs's types: a consumer without danfojs (an optional peer) would get
 * "Cannot find module", and one with it under `skipLibCheck: false` errors inside danfojs's declarations.
 * With danfojs installed, `(await toDataFrame(x)) as DataFrame` (`import type { DataFrame } from 'danfojs'`)
 * gives its full API; test/package/fixtures/option-types.ts checks that a danfojs DataFrame is assignable to this.
 */
export interface DataFrameLike {
  /** `[rows, columns]`. */
  readonly shape: number[];
  readonly columns: string[];
  /** danfojs's dtype of each column (`float32`, `int32`, `string`, `boolean`). */
  readonly dtypes: string[];
  readonly index: (string | number)[];
  /** The rows, each an array in `columns` order (danfojs types it as 1-D or 2-D). */
  readonly values: readonly unknown[];
  /** Rows × columns. */
  readonly size: number;
  /** The first `rows` rows (default 5). */
  head(rows?: number): DataFrameLike;
  /** The last `rows` rows (default 5). */
  tail(rows?: number): DataFrameLike;
  /** Prints the frame as a text table on stdout. */
  print(): void;
}

/** What `toDataFrame` takes: a study result (its rows, in its table's column order) or an Arrow table. */
export type DataFrameSource = Pick<EventStudyResult, 'rows' | 'table'> | Table;

/**
 * A danfojs DataFrame of a study's rows (columns as in its Arrow table), or of an Arrow table such as
 * `catalog.arrow(sql)` returns: Int64 values become numbers (exact up to 2^53), DateDay becomes
 * `YYYY-MM-DD` and Timestamp an ISO-8601 UTC string (danfojs has no date type; `dfd.toDateTime` parses
 * them), nulls stay null; no rows give an empty frame with the columns. Loads danfojs on first call.
 *
 * Missing values (a pending or gap outcome's null) are skipped by `Series.mean()`, but NOT by danfojs 1.2's
 * `groupby(...).agg(...)` (nor its `.count()`/`.mean()`): it counts every row of a group and adds null as 0,
 * so a missing outcome becomes a zero return. Summarise groups with `groupStats(frame, { by, values, stats })`,
 * which skips them as SQL does (count = non-missing count), or in SQL itself.
 * @throws OptionalPackageMissingError (exit 1) naming the package to add when danfojs is not installed.
 */
export async function toDataFrame(source: DataFrameSource): Promise<DataFrameLike> {
  const danfo = await loadDanfo();
  const data = frameColumns(source);
  const rows = 'numRows' in source ? source.numRows : source.rows.length;
  // danfojs refuses an object of empty columns; its empty frame is an empty array with the column names.
  return new danfo.DataFrame(rows === 0 ? [] : data, { columns: Object.keys(data) });
}

async function loadDanfo(): Promise<typeof import('danfojs')> {
  try {
    return await import('danfojs');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes("'danfojs'")) {
      throw new OptionalPackageMissingError(analysisMessages.danfojsMissing(), 'danfojs', { cause: error });
    }
    throw error;
  }
}

/** The values `toDataFrame` puts in each column (nulls stay null), by column name in the source's order. */
export function frameColumns(source: DataFrameSource): Record<string, unknown[]> {
  return 'numRows' in source ? tableColumns(source) : studyColumns(source);
}

function studyColumns(result: Pick<EventStudyResult, 'rows' | 'table'>): Record<string, unknown[]> {
  const rows = result.rows as readonly Record<string, unknown>[];
  const columns = result.table.schema.fields.map((field) => field.name);
  return Object.fromEntries(columns.map((name) => [name, rows.map((row) => row[name] ?? null)]));
}

function tableColumns(table: Table): Record<string, unknown[]> {
  return Object.fromEntries(
    table.schema.fields.map((field, index) => {
      const vector = table.getChildAt(index)!;
      const value = frameValue(field.typeId);
      return [field.name, Array.from({ length: table.numRows }, (_, row) => value(vector.get(row)))];
    }),
  );
}

/** How an Arrow value of this type becomes a frame value (null stays null). */
function frameValue(typeId: Type): (value: unknown) => unknown {
  const orNull = (fn: (value: never) => unknown) => (value: unknown) => (value === null || value === undefined ? null : fn(value as never));
  if (typeId === Type.Int) return orNull((value: number | bigint) => Number(value));
  if (typeId === Type.Date) return orNull((ms: number) => new Date(ms).toISOString().slice(0, 10));
  if (typeId === Type.Timestamp) return orNull((ms: number) => new Date(ms).toISOString());
  return (value) => value ?? null;
}
