// The data file's columns judged against the spec and the release's own bundled schema: which column feeds
// each spec field (other numeric types widen), which nullable fields are absent, which columns are extra.

import { MARKET_EVENT_FIELDS, fieldSpec, type FieldType } from '../contract/index.js';
import { SchemaMismatchError } from './catalog-errors.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { summarize, type BundledSchemaFields } from './check-release-schema.js';
import { catalogMessages } from './messages.js';

/**
 * A column as DuckDB describes it (`type` undefined for a csv header, which has no types; NULL_COLUMN_TYPE for a
 * parquet column of the Null logical type, which DuckDB describes as INTEGER).
 */
export interface DescribedColumn {
  name: string;
  type: string | undefined;
}

/** How one data file maps onto `market_events`, once its columns were accepted. */
export interface ColumnPlan {
  /** The file's columns in file order. */
  columns: readonly DescribedColumn[];
  /** Spec fields whose column has another numeric type than the catalog's (e.g. BIGINT for DOUBLE): cast on import. */
  widened: { field: string; type: string }[];
  /** Nullable spec fields the file does not carry: imported as NULL. */
  absent: string[];
  /** Nullable spec fields whose column is of Parquet's Null type (all null, e.g. pyarrow's for an all-None column): imported as NULL of the field's type. */
  nullTyped: string[];
  /** Columns that are no spec field, with their type (the file's, else the bundled schema's word, else `text`). */
  extras: { field: string; type: string }[];
  /**
   * csv only: a quoted empty field (`""`) is a missing value, as in a file whose header quotes every name
   * (QUOTE_ALL / QUOTE_NONNUMERIC writers write None so). Otherwise `""` is an empty string. Default false.
   */
  quotedEmptyIsNull?: boolean;
}

/**
 * Name of the column the import's table functions add with each row's file path. A data file may not have
 * a column of this name (the only column name rdw reserves).
 */
export const SOURCE_FILE_COLUMN = 'rdw_source_file';

/**
 * The type a column of Parquet's Null logical type is given here (pyarrow writes an all-None column so, as
 * INT32 with the logical type Null; DuckDB reads it as INTEGER). It holds no value, so it fits every nullable field.
 */
export const NULL_COLUMN_TYPE = 'NULL';

const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT']);
const DECIMAL = /^DECIMAL\(\d+,\s*\d+\)$/;

/** True when DuckDB type `type` can hold a field of spec type `spec` without losing what the field means. */
export function duckdbTypeFits(type: string, spec: FieldType): boolean {
  switch (spec) {
    case 'string':
      return type === 'VARCHAR';
    case 'boolean':
      return type === 'BOOLEAN';
    case 'integer':
      return INTEGER_TYPES.has(type);
    case 'number':
      return INTEGER_TYPES.has(type) || type === 'FLOAT' || type === 'DOUBLE' || DECIMAL.test(type);
  }
}

/**
 * Checks a data file's columns (DuckDB DESCRIBE of the parquet, or the csv header with types undefined) and
 * returns how they map onto the catalog. Names are matched exactly, in any order. A column of Parquet's Null
 * type (NULL_COLUMN_TYPE) is accepted for any nullable field and imported as NULL of its type. Refused
 * (SchemaMismatchError, exit 3): a repeated name, a spec field whose type cannot hold it (text for a number,
 * a timestamp, a list), a not-nullable spec field that is missing, the reserved SOURCE_FILE_COLUMN, and, when
 * the release has a bundled schema, any field the schema and the file do not both have (the schema must
 * describe its file).
 */
export function checkDataColumns(id: string, source: string, columns: readonly DescribedColumn[], bundled?: BundledSchemaFields): ColumnPlan {
  const problems: string[] = [];
  const given = new Map(columns.map((column) => [column.name, column.type]));
  if (given.size !== columns.length) problems.push('a column name appears twice');
  if (given.has(SOURCE_FILE_COLUMN)) problems.push(`the column name ${SOURCE_FILE_COLUMN} is reserved by rdw`);
  const plan: ColumnPlan = { columns, widened: [], absent: [], nullTyped: [], extras: [] };
  for (const field of MARKET_EVENT_FIELDS) {
    if (!given.has(field.name)) {
      if (field.nullable) plan.absent.push(field.name);
      else problems.push(`missing ${field.name}, which is never null`);
      continue;
    }
    const type = given.get(field.name);
    if (type === NULL_COLUMN_TYPE) {
      if (field.nullable) plan.nullTyped.push(field.name);
      else problems.push(`${field.name} is of Parquet's Null type (no values), and it is never null`);
      continue;
    }
    if (type === undefined || type === DUCKDB_TYPE[field.type]) continue;
    if (duckdbTypeFits(type, field.type)) plan.widened.push({ field: field.name, type });
    else problems.push(`${field.name} is ${type}, which cannot hold a ${field.type}`);
  }
  for (const column of columns) {
    if (fieldSpec(column.name) !== undefined || column.name === SOURCE_FILE_COLUMN) continue;
    plan.extras.push({ field: column.name, type: column.type ?? bundled?.fields.get(column.name)?.word ?? 'text' });
  }
  if (bundled !== undefined) {
    for (const name of bundled.fields.keys()) if (!given.has(name)) problems.push(`the bundled schema lists ${name}, the ${source} has no such column`);
    for (const name of given.keys()) if (!bundled.fields.has(name)) problems.push(`${name} is in the ${source} but not in its bundled schema`);
  }
  if (problems.length > 0) throw new SchemaMismatchError(catalogMessages.schemaColumnsMismatch(id, source, summarize(problems)));
  return plan;
}

/** The plan of a file that has exactly the spec's columns and types (what rdw's own mock writes). */
export const SPEC_COLUMN_PLAN: ColumnPlan = Object.freeze({
  columns: MARKET_EVENT_FIELDS.map((field) => ({ name: field.name, type: DUCKDB_TYPE[field.type] })),
  widened: [],
  absent: [],
  nullTyped: [],
  extras: [],
});
