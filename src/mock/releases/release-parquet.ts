// The `parquet` release file: typed Arrow columns derived from the spec's field table, written by parquet-wasm.

import {
  Bool,
  Field,
  Float64,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  tableToIPC,
  type Data,
  type DataType,
} from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { MARKET_EVENT_FIELDS, type FieldType, type MarketEventRow } from '../../contract/index.js';

/** Arrow type of each spec field type. */
function arrowType(type: FieldType): DataType {
  switch (type) {
    case 'string':
      return new Utf8();
    case 'number':
      return new Float64();
    case 'integer':
      return new Int64();
    case 'boolean':
      return new Bool();
  }
}

/** The Arrow schema of a release: one field per spec field, in spec order, nullable per spec. */
export const RELEASE_ARROW_SCHEMA = new Schema(
  MARKET_EVENT_FIELDS.map((field) => new Field(field.name, arrowType(field.type), field.nullable)),
);

/** Writer identity stored in the file footer; fixed so bytes do not depend on the parquet-wasm build. */
export const PARQUET_CREATED_BY = 'rdw mock (parquet-wasm 0.7.2)';

const encoder = new TextEncoder();

/** Validity bitmap (LSB first) of the non-null values, or undefined when none is null. */
function validity(values: readonly unknown[]): { bitmap: Uint8Array | undefined; nullCount: number } {
  let nullCount = 0;
  const bitmap = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((value, index) => {
    if (value === null) nullCount += 1;
    else bitmap[index >> 3]! |= 1 << (index & 7);
  });
  return { bitmap: nullCount > 0 ? bitmap : undefined, nullCount };
}

/** Offsets and UTF-8 bytes of a string column; one encode call for the whole column when it is ASCII. */
function utf8Buffers(values: readonly unknown[]): { valueOffsets: Int32Array; data: Uint8Array } {
  const strings = values.map((value) => (value === null ? '' : String(value)));
  const valueOffsets = new Int32Array(strings.length + 1);
  const joined = strings.join('');
  const data = encoder.encode(joined);
  if (data.byteLength === joined.length) {
    strings.forEach((text, index) => {
      valueOffsets[index + 1] = valueOffsets[index]! + text.length;
    });
    return { valueOffsets, data };
  }
  const parts = strings.map((text) => encoder.encode(text));
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  parts.forEach((part, index) => {
    bytes.set(part, valueOffsets[index]!);
    valueOffsets[index + 1] = valueOffsets[index]! + part.byteLength;
  });
  return { valueOffsets, data: bytes };
}

/** One column's Arrow data, built from typed buffers (much faster than Arrow's generic builders). */
function columnData(field: Field, values: readonly unknown[]): Data {
  const length = values.length;
  const { bitmap: nullBitmap, nullCount } = validity(values);
  const type = field.type as DataType;
  if (type instanceof Utf8) {
    const { valueOffsets, data } = utf8Buffers(values);
    return makeData({ type, length, nullCount, nullBitmap, valueOffsets, data });
  }
  if (type instanceof Bool) {
    const data = new Uint8Array(Math.ceil(length / 8));
    values.forEach((value, index) => {
      if (value === true) data[index >> 3]! |= 1 << (index & 7);
    });
    return makeData({ type, length, nullCount, nullBitmap, data });
  }
  if (type instanceof Int64) {
    const data = new BigInt64Array(length);
    values.forEach((value, index) => {
      if (value !== null) data[index] = BigInt(value as number);
    });
    return makeData({ type, length, nullCount, nullBitmap, data });
  }
  const data = new Float64Array(length);
  values.forEach((value, index) => {
    if (value !== null) data[index] = value as number;
  });
  return makeData({ type: type as Float64, length, nullCount, nullBitmap, data });
}

/**
 * Column-major values (absent -> null). Rows whose own keys are exactly `names` in order (what
 * `orderedRow` and the simulator produce) are read with one `Object.values` each instead of one keyed
 * lookup per cell.
 */
function releaseColumns(rows: readonly MarketEventRow[], names: readonly string[]): unknown[][] {
  const columns = names.map(() => new Array<unknown>(rows.length));
  rows.forEach((row, r) => {
    const source = row as unknown as Record<string, unknown>;
    const values = Object.values(source);
    let ordered = values.length === names.length;
    if (ordered) {
      let index = 0;
      for (const key in source) {
        if (key !== names[index++]) {
          ordered = false;
          break;
        }
      }
    }
    for (let i = 0; i < names.length; i++) {
      (columns[i] as unknown[])[r] = (ordered ? values[i] : source[names[i] as string]) ?? null;
    }
  });
  return columns;
}

/** The rows as an Arrow table with the release schema (one record batch). */
export function releaseArrowTable(rows: readonly MarketEventRow[]): Table {
  const fields = RELEASE_ARROW_SCHEMA.fields;
  const columns = releaseColumns(rows, fields.map((field) => field.name));
  const children = fields.map((field, index) => columnData(field, columns[index] as unknown[]));
  const data = makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children });
  return new Table(RELEASE_ARROW_SCHEMA, [new RecordBatch(RELEASE_ARROW_SCHEMA, data)]);
}

/**
 * Parquet bytes of the rows. Fixed writer properties, so the same rows always give the same bytes:
 * ZSTD, no dictionary encoding, column-chunk statistics (min/max), one row group, fixed `created_by`,
 * no timestamps in the metadata. (Page statistics and dictionaries cost 3-5x the write time here and
 * made the files larger, not smaller.)
 */
export function releaseParquet(rows: readonly MarketEventRow[]): Uint8Array {
  const properties = new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.ZSTD)
    .setDictionaryEnabled(false)
    .setStatisticsEnabled(parquet.EnabledStatistics.Chunk)
    .setCreatedBy(PARQUET_CREATED_BY)
    .setMaxRowGroupSize(1_000_000)
    .build();
  const wasmTable = parquet.Table.fromIPCStream(tableToIPC(releaseArrowTable(rows), 'stream'));
  return parquet.writeParquet(wasmTable, properties);
}
