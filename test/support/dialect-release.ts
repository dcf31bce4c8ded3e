// Release files as other producers write them (issue 31), from the foreign server's rows (test/support/spec-server,
// never src/mock): CSV bytes as Python's csv.writer writes them, Parquet with columns of Parquet's Null type as
// pyarrow writes them (written here with parquet-wasm, which makes the same physical INT32 + logical Null
// type), a bundled schema and the spec's release object with its coverage counted from the rows.

import { createHash } from 'node:crypto';
import { Bool, Field, Float64, Null, RecordBatch, Schema, Struct, Table, Utf8, makeData, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import * as parquet from 'parquet-wasm';
import { CONTRACT_FIELDS, DATASET_ID, OUTCOME_WINDOWS, PAIRS, type ContractField } from './spec-server/index.js';
import { dayRows, type SpecRow } from './spec-server/day-rows.js';

export type { SpecRow };

/** The rows of one foreign-server day (48 rows: 6 pairs × 6 controls + 2 events), as JSON would carry them. */
export function releaseRows(day: string, productVersion = 'mev-calc-4'): SpecRow[] {
  return dayRows(day, { productVersion, now: Date.parse(`${day}T00:00:00Z`) / 1000 + 30 * 86_400, integerColumns: false });
}

/** A float as Python's repr() writes it: the shortest round-trip digits, fixed for 1e-4 <= |x| < 1e16, else `d.ddde-05`. */
export function pythonFloatRepr(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return `${value}.0`;
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 16) {
    const digits = mantissa.replace('-', '').replace('.', '');
    const sign = value < 0 ? '-' : '';
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole.slice(0, exponent + 1)}.${fraction === '' ? '0' : fraction}`;
  }
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/**
 * One value as Python's csv.writer writes the value `json.loads` gives for it: None as an empty field, booleans
 * `True`/`False`, integral numbers as int, other numbers by repr(), strings as they are.
 */
function pythonText(value: SpecRow[string]): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloatRepr(value);
  return value;
}

export interface PythonCsvOptions {
  /** `\r\n` (csv.writer's default), `\n` (`lineterminator='\n'`, as pandas writes) or `\r` (not RFC 4180). Default `\r\n`. */
  lineTerminator?: '\r\n' | '\n' | '\r';
  /** A UTF-8 byte order mark first (`open(..., encoding='utf-8-sig')`). Default false. */
  bom?: boolean;
  /**
   * csv.writer's `quoting`: 'minimal' (QUOTE_MINIMAL, the default), 'all' (QUOTE_ALL: every field, a None as
   * `""`) or 'nonnumeric' (QUOTE_NONNUMERIC: every field but numbers and booleans, a None as `""`).
   */
  quoting?: 'minimal' | 'all' | 'nonnumeric';
}

/**
 * CSV bytes exactly as CPython's `csv.writer(f)` (QUOTE_MINIMAL unless `quoting` says, `"` doubled, `\r\n` line ends) writes `rows`
 * under the header `columns`: a field is quoted when it holds the delimiter, a quote, CR or LF; a row whose
 * only field is empty is written `""`. Checked byte for byte against python3 in test/foreign/release-dialects.test.ts.
 */
export function pythonCsvBytes(rows: readonly SpecRow[], columns: readonly string[], options: PythonCsvOptions = {}): Buffer {
  const end = options.lineTerminator ?? '\r\n';
  const quoting = options.quoting ?? 'minimal';
  const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
  const field = (value: SpecRow[string]) => {
    const text = pythonText(value);
    if (quoting === 'all' || (quoting === 'nonnumeric' && typeof value !== 'number' && typeof value !== 'boolean')) return quoted(text);
    return /[",\r\n]/.test(text) ? quoted(text) : text;
  };
  const line = (values: SpecRow[string][]) =>
    (quoting === 'minimal' && values.length === 1 && (values[0] ?? '') === '' ? '""' : values.map(field).join(',')) + end;
  const text = line([...columns]) + rows.map((row) => line(columns.map((name) => row[name] ?? null))).join('');
  return Buffer.concat([options.bom === true ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

/** The Arrow type of a contract column: text, boolean, or a double for every number (times and counts too). */
function arrowType(field: ContractField): DataType {
  if (field.kind === 'string') return new Utf8();
  if (field.kind === 'boolean') return new Bool();
  return new Float64();
}

/**
 * Parquet bytes of `rows` with every contract column, those named in `nullColumns` as Arrow's Null type (every
 * value of those must be null): parquet-wasm writes them as physical INT32 with the logical type Null, as
 * pyarrow does for an all-None column.
 */
export function parquetWithNullColumns(rows: readonly SpecRow[], nullColumns: readonly string[]): Uint8Array {
  const fields = CONTRACT_FIELDS.map((field) => new Field(field.name, nullColumns.includes(field.name) ? new Null() : arrowType(field), true));
  const schema = new Schema(fields);
  const children = fields.map((field) => {
    const values = rows.map((row) => row[field.name] ?? null);
    if (field.type instanceof Null) {
      if (values.some((value) => value !== null)) throw new Error(`parquetWithNullColumns: ${field.name} has a value`);
      return makeData({ type: new Null(), length: rows.length, nullCount: rows.length });
    }
    return vectorFromArray(values, field.type).data[0]!;
  });
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }));
  return parquet.writeParquet(parquet.Table.fromIPCStream(tableToIPC(new Table(batch), 'stream')));
}

/** The bundled schema document of the contract fields (spec words: string, number, boolean). */
export function schemaBytes(version = 'mev-calc-4'): Buffer {
  const fields = Object.fromEntries(
    CONTRACT_FIELDS.map((field) => [field.name, { type: field.kind === 'string' || field.kind === 'boolean' ? field.kind : 'number', description: field.description, nullable: field.nullable }]),
  );
  return Buffer.from(`${JSON.stringify({ dataset: DATASET_ID, version, fields }, null, 2)}\n`);
}

const sha256Hex = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** `{ sha256, bytes }` of a file, as a manifest's `files` entry. */
export const digestOf = (bytes: Uint8Array) => ({ sha256: sha256Hex(bytes), bytes: bytes.length });

function countBy(values: readonly unknown[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) if (value !== null) counts[String(value)] = (counts[String(value)] ?? 0) + 1;
  return counts;
}

/** A 64-hex release ID from a label. */
export const releaseIdOf = (label: string) => sha256Hex(`dialect-release:${label}`);

/** The spec's release object (the manifest) of `rows`, with `files` as given and the coverage counted from the rows. */
export function releaseObject(id: string, day: string, rows: readonly SpecRow[], files: Record<string, Uint8Array>, version = 'mev-calc-4'): Record<string, unknown> {
  const sampleTimes = rows.map((row) => Number(row.sample_time));
  return {
    id,
    dataset: DATASET_ID,
    version,
    day,
    generated_at: Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400 + 1800.5,
    rows: rows.length,
    files: Object.fromEntries(Object.entries(files).map(([format, bytes]) => [format, digestOf(bytes)])),
    coverage: {
      symbols: [...PAIRS],
      samples: countBy(rows.map((row) => row.sample_type)),
      feature_status: countBy(rows.map((row) => row.feature_status)),
      taker_status: countBy(rows.map((row) => row.taker_status)),
      outcomes: Object.fromEntries(OUTCOME_WINDOWS.map(([window]) => [window, countBy(rows.map((row) => row[`status_${window}`]))])),
    },
    min_sample_time: Math.min(...sampleTimes),
    max_sample_time: Math.max(...sampleTimes),
    limitations: ['Six spot pairs on one spot exchange; not a raw exchange feed.'],
  };
}
