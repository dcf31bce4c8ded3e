// The row statements of an import transaction (step 4 of insertReleases in import-release.ts): which data files one
// scan reads together, and the SQL reading them into market_events (cast or NULL per column plan) and market_event_extras.

import { MARKET_EVENT_FIELDS, fieldSpec, type FieldSpec } from '../contract/index.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { SOURCE_FILE_COLUMN, SPEC_COLUMN_PLAN, type ColumnPlan } from './check-data-columns.js';
import type { DataFormat, ReleaseImport } from './release-import.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';

const COLUMN_LIST = MARKET_EVENT_FIELDS.map((field) => quoteIdentifier(field.name)).join(', ');

/**
 * The table-function call that reads stored data files (one format, one column plan), each row with the
 * path of its file in SOURCE_FILE_COLUMN. CSV columns are named from the file's header, in its order, with
 * the spec's types (extra columns as text).
 */
function readDataSql(format: DataFormat, files: readonly string[], plan: ColumnPlan): string {
  const list = `[${files.map(quoteLiteral).join(', ')}]`;
  const source = `filename = ${quoteLiteral(SOURCE_FILE_COLUMN)}`;
  if (format === 'parquet') return `read_parquet(${list}, ${source})`;
  const columns = plan.columns
    .map((column) => {
      const spec = fieldSpec(column.name);
      return `${quoteLiteral(column.name)}: ${quoteLiteral(spec === undefined ? 'VARCHAR' : DUCKDB_TYPE[spec.type])}`;
    })
    .join(', ');
  // Explicit types and no sniffing: nulls are empty fields, a quoted "" stays an empty string unless the file's
  // writer quoted every field (its header says so: then "" is how it wrote a missing value). RFC 4180 with CRLF
  // or LF line ends, line breaks inside quoted values and a UTF-8 BOM all read so (tested). `new_line` is left
  // to DuckDB's reader (a scan of the bytes, not the sniffer): in DuckDB 1.5.6 an explicit `new_line` that
  // does not match, or one given with `strict_mode`, reads 0 rows without an error (measured).
  return `read_csv(${list}, header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', nullstr = '', allow_quoted_nulls = ${plan.quotedEmptyIsNull === true}, columns = {${columns}}, ${source})`;
}

/** The value a spec field takes from a file of this plan: its column, cast when widened, or NULL when absent or of Parquet's Null type. */
function fieldSql(field: FieldSpec, plan: ColumnPlan): string {
  const type = DUCKDB_TYPE[field.type];
  if (plan.absent.includes(field.name) || plan.nullTyped.includes(field.name)) return `NULL::${type}`;
  if (plan.widened.some((widened) => widened.field === field.name)) return `CAST(${quoteIdentifier(field.name)} AS ${type})`;
  return quoteIdentifier(field.name);
}

/**
 * Files with equal signatures have the same column names with the same types: one scan reads them all
 * (read_parquet matches columns by name; a scan of files whose types differ would cast every file to the
 * first file's types, e.g. truncate DOUBLE to BIGINT, and one with other names would drop or refuse columns).
 */
function planSignature(plan: ColumnPlan): string {
  return JSON.stringify([plan.quotedEmptyIsNull === true, ...plan.columns.map((column) => `${column.name}\u0000${column.type ?? ''}`).sort()]);
}

/** The column plan of an item: checkDataFile's, else the spec's exact columns. */
export const planOf = (item: ReleaseImport): ColumnPlan => item.columns ?? SPEC_COLUMN_PLAN;

/**
 * The scans of step 4: the parquet files with distinct paths, one group per column signature (their counts
 * were checked against their footers, so a group's sum is exact per file; in the common case every file has
 * the spec's columns and the batch is one group); each csv file (no footer) and each file shared by two
 * releases in a group of its own. Groups keep the order of their first release.
 */
export function rowGroups(items: readonly ReleaseImport[]): ReleaseImport[][] {
  const groups = new Map<string, { paths: Set<string>; items: ReleaseImport[] }>();
  const alone: ReleaseImport[][] = [];
  for (const item of items) {
    if (item.format !== 'parquet') {
      alone.push([item]);
      continue;
    }
    const signature = planSignature(planOf(item));
    let group = groups.get(signature);
    if (group === undefined) groups.set(signature, (group = { paths: new Set(), items: [] }));
    if (group.paths.has(item.dataPath)) alone.push([item]);
    else {
      group.paths.add(item.dataPath);
      group.items.push(item);
    }
  }
  return [...[...groups.values()].map((group) => group.items), ...alone];
}

/** `CASE <source file> WHEN <path> THEN <value> … END`: a value per file of a group. */
function byFile(group: readonly ReleaseImport[], value: (item: ReleaseImport) => string): string {
  return `CASE ${quoteIdentifier(SOURCE_FILE_COLUMN)} ${group.map((item) => `WHEN ${quoteLiteral(item.dataPath)} THEN ${value(item)}`).join(' ')} END`;
}

/**
 * One INSERT reading a group's files (one format, one column plan, distinct paths) in one scan, in file
 * order; each row's release ID and day come from the file it was read from. Widened columns are cast to the
 * catalog's type; absent nullable fields are NULL.
 */
export function insertRowsSql(group: readonly ReleaseImport[]): string {
  return `INSERT INTO market_events (release_id, day, ${COLUMN_LIST})\n${selectRowsSql(group)}`;
}

/** The SELECT of `insertRowsSql`, its columns named as market_events' (also the source of a file's rows fingerprint). */
export function selectRowsSql(group: readonly ReleaseImport[]): string {
  const plan = planOf(group[0]!);
  const values = MARKET_EVENT_FIELDS.map((field) => `${fieldSql(field, plan)} AS ${quoteIdentifier(field.name)}`).join(', ');
  return `SELECT ${byFile(group, (item) => quoteLiteral(item.release.id))} AS release_id, ${byFile(group, (item) => `DATE ${quoteLiteral(item.release.day)}`)} AS day, ${values}
FROM ${readDataSql(group[0]!.format, group.map((item) => item.dataPath), plan)}`;
}

/** The extra fields of a group's rows, one JSON object per row (DuckDB's JSON of each value), with the row's ID. */
export function insertExtrasSql(group: readonly ReleaseImport[]): string {
  return `INSERT INTO market_event_extras (release_id, row_id, extra_fields)\n${selectExtrasSql(group)}`;
}

/** The SELECT of `insertExtrasSql`, its columns named as market_event_extras'; no rows when the plan has no extra fields. */
export function selectExtrasSql(group: readonly ReleaseImport[]): string {
  const plan = planOf(group[0]!);
  if (plan.extras.length === 0) return 'SELECT NULL::VARCHAR AS release_id, NULL::VARCHAR AS row_id, NULL::JSON AS extra_fields WHERE false';
  const extras = plan.extras.map((extra) => `${quoteLiteral(extra.field)}, ${quoteIdentifier(extra.field)}`).join(', ');
  const rowId = plan.absent.includes('row_id') ? 'NULL' : quoteIdentifier('row_id');
  return `SELECT ${byFile(group, (item) => quoteLiteral(item.release.id))} AS release_id, ${rowId} AS row_id, json_object(${extras}) AS extra_fields
FROM ${readDataSql(group[0]!.format, group.map((item) => item.dataPath), plan)}`;
}
