// A query's result as a typed Apache Arrow table: each column's Arrow type follows the DuckDB type of the
// result column (not the values), so an empty or all-null column keeps its type. Used by `Catalog.arrow`.

import {
  Binary, Bool, DateDay, Float32, Float64, Int16, Int32, Int64, Int8, makeData, makeVector, Table, TimeUnit,
  Timestamp, Uint16, Uint32, Uint64, Uint8, Utf8, vectorFromArray, type Data, type DataType, type TypeMap, type Vector,
} from 'apache-arrow';
import { DuckDBTypeId, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { CatalogOptionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import type { SqlParameters } from './catalog-row.js';

/** A JS value an Arrow column is filled from (null for SQL NULL). */
type Cell = number | bigint | string | boolean | Uint8Array | null;

/** How one DuckDB type becomes an Arrow column: the Arrow type and the value of one DuckDB value. */
interface ColumnPlan {
  readonly type: DataType;
  readonly read: (value: DuckDBValue) => Cell;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const same = (value: DuckDBValue) => value as Cell;
const utc = (unit: TimeUnit) => new Timestamp(unit, 'UTC');
/** A field of a DuckDB value object (`days`, `micros` …). */
const field = (name: string) => (value: DuckDBValue) => (value as unknown as Record<string, Cell>)[name] ?? null;

/**
 * DuckDB type → Arrow type. Timestamps keep their unit and are read as UTC (rdw stores UTC in TIMESTAMP);
 * DECIMAL becomes Float64 (DuckDB's own JS conversion does the same); HUGEINT becomes Int64 (sum() of a
 * BIGINT is a HUGEINT) and a value beyond Int64 is refused; ENUM and UUID become Utf8.
 */
const PLANS: Partial<Record<DuckDBTypeId, () => ColumnPlan>> = {
  [DuckDBTypeId.BOOLEAN]: () => ({ type: new Bool(), read: same }),
  [DuckDBTypeId.TINYINT]: () => ({ type: new Int8(), read: same }),
  [DuckDBTypeId.SMALLINT]: () => ({ type: new Int16(), read: same }),
  [DuckDBTypeId.INTEGER]: () => ({ type: new Int32(), read: same }),
  [DuckDBTypeId.BIGINT]: () => ({ type: new Int64(), read: same }),
  [DuckDBTypeId.UTINYINT]: () => ({ type: new Uint8(), read: same }),
  [DuckDBTypeId.USMALLINT]: () => ({ type: new Uint16(), read: same }),
  [DuckDBTypeId.UINTEGER]: () => ({ type: new Uint32(), read: same }),
  [DuckDBTypeId.UBIGINT]: () => ({ type: new Uint64(), read: same }),
  [DuckDBTypeId.FLOAT]: () => ({ type: new Float32(), read: same }),
  [DuckDBTypeId.DOUBLE]: () => ({ type: new Float64(), read: same }),
  [DuckDBTypeId.DECIMAL]: () => ({ type: new Float64(), read: (value) => (value as unknown as { toDouble(): number }).toDouble() }),
  [DuckDBTypeId.VARCHAR]: () => ({ type: new Utf8(), read: same }),
  [DuckDBTypeId.ENUM]: () => ({ type: new Utf8(), read: same }),
  [DuckDBTypeId.UUID]: () => ({ type: new Utf8(), read: (value) => String(value) }),
  [DuckDBTypeId.BLOB]: () => ({ type: new Binary(), read: field('bytes') }),
  [DuckDBTypeId.DATE]: () => ({ type: new DateDay(), read: field('days') }),
  [DuckDBTypeId.TIMESTAMP]: () => ({ type: utc(TimeUnit.MICROSECOND), read: field('micros') }),
  [DuckDBTypeId.TIMESTAMP_TZ]: () => ({ type: utc(TimeUnit.MICROSECOND), read: field('micros') }),
  [DuckDBTypeId.TIMESTAMP_S]: () => ({ type: utc(TimeUnit.SECOND), read: field('seconds') }),
  [DuckDBTypeId.TIMESTAMP_MS]: () => ({ type: utc(TimeUnit.MILLISECOND), read: field('millis') }),
  [DuckDBTypeId.TIMESTAMP_NS]: () => ({ type: utc(TimeUnit.NANOSECOND), read: field('nanos') }),
};

/**
 * Runs `sql` on `connection` and returns its rows as an Arrow table typed from DuckDB's result types:
 * DOUBLE → Float64, BIGINT → Int64 (values are `bigint`), INTEGER → Int32, BOOLEAN → Bool, VARCHAR → Utf8,
 * DATE → DateDay, TIMESTAMP → Timestamp(µs, UTC), others as `PLANS` says; SQL NULLs stay nulls (a float
 * column holds NaN under a null, so `toArray()` never shows a null as 0).
 * @throws CatalogOptionError (exit 2) for a column of a type with no Arrow column here (LIST, STRUCT, INTERVAL …)
 *   or a HUGEINT value beyond Int64: the sentence names the column and says to CAST it in the SQL.
 */
export async function readArrowTable<T extends TypeMap = TypeMap>(
  connection: DuckDBConnection,
  sql: string,
  parameters?: SqlParameters,
): Promise<Table<T>> {
  const reader = await connection.runAndReadAll(sql, parameters);
  const names = reader.deduplicatedColumnNames();
  const vectors: Record<string, Vector> = {};
  names.forEach((name, index) => {
    const typeId = reader.columnTypeId(index);
    const plan = typeId === DuckDBTypeId.HUGEINT ? hugeIntPlan(name) : PLANS[typeId]?.();
    if (plan === undefined) {
      throw new CatalogOptionError(catalogMessages.arrowTypeUnsupported(name, reader.columnType(index).toString()), { option: 'sql' });
    }
    const cells: Cell[] = [];
    for (let row = 0; row < reader.currentRowCount; row += 1) {
      const value = reader.value(index, row);
      cells.push(value === null ? null : plan.read(value));
    }
    vectors[name] = columnVector(plan.type, cells);
  });
  return new Table(vectors) as unknown as Table<T>;
}

/** HUGEINT as Int64, refusing a value Int64 cannot hold. */
function hugeIntPlan(column: string): ColumnPlan {
  return {
    type: new Int64(),
    read: (value) => {
      const big = value as bigint;
      if (big < INT64_MIN || big > INT64_MAX) throw new CatalogOptionError(catalogMessages.arrowHugeInt(column), { option: 'sql' });
      return big;
    },
  };
}

/** One Arrow vector of `type` from the cells: fixed-width types as typed arrays with a validity bitmap. */
function columnVector(type: DataType, cells: readonly Cell[]): Vector {
  if (type instanceof Utf8 || type instanceof Bool || type instanceof Binary) return vectorFromArray(cells as never[], type);
  const ArrayType = (type as DataType & { ArrayType: new (length: number) => ArrayLike<number | bigint> }).ArrayType;
  const data = new ArrayType(cells.length) as unknown as (number | bigint)[];
  const nullBitmap = new Uint8Array(Math.ceil(cells.length / 8));
  const bigints = data instanceof BigInt64Array || data instanceof BigUint64Array;
  const blank = data instanceof Float64Array || data instanceof Float32Array ? Number.NaN : bigints ? 0n : 0;
  let nullCount = 0;
  cells.forEach((cell, row) => {
    if (cell === null) {
      nullCount += 1;
      data[row] = blank;
    } else {
      data[row] = cell as number | bigint;
      nullBitmap[row >> 3]! |= 1 << (row & 7);
    }
  });
  // makeData's overloads are per type; the props fit the type they name.
  const make = makeData as unknown as (props: object) => Data;
  return makeVector(make({ type, length: cells.length, nullCount, data, nullBitmap }));
}
