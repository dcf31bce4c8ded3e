// Schema gates of a pull: the manifest's shape, the bundled schema and the data file's columns are
// compared with src/spec. A different product version or column set is an error, never a silent cast.

import {
  MARKET_EVENTS_DATASET,
  MARKET_EVENT_FIELDS,
  PRODUCT_VERSION,
  type FileDigest,
  type Release,
  type SchemaDocument,
} from '../spec/index.js';
import { ManifestInvalidError, SchemaMismatchError } from './catalog-errors.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { catalogMessages } from './messages.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

const isDigest = (value: unknown): value is FileDigest =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FileDigest).sha256 === 'string' &&
  SHA256_HEX.test((value as FileDigest).sha256) &&
  Number.isSafeInteger((value as FileDigest).bytes) &&
  (value as FileDigest).bytes >= 0;

/** Checks that a manifest can describe release `id` of Market Events v1 (product version included). */
export function checkManifest(id: string, release: Release): void {
  const fail = (detail: string): never => {
    throw new ManifestInvalidError(catalogMessages.notImportedManifestMismatch(id, detail));
  };
  if (release.dataset !== MARKET_EVENTS_DATASET) fail(`its dataset is "${String(release.dataset)}", not ${MARKET_EVENTS_DATASET}`);
  if (typeof release.day !== 'string' || !DAY.test(release.day)) fail('its day is not a YYYY-MM-DD date');
  if (!Number.isSafeInteger(release.rows) || release.rows < 0) fail('its rows is not a count');
  if (typeof release.generated_at !== 'number' || !Number.isFinite(release.generated_at)) fail('its generated_at is not a time');
  const files = release.files as unknown as Record<string, unknown>;
  for (const [format, digest] of Object.entries(files)) {
    if (!isDigest(digest)) fail(`its ${format} entry has no valid sha256 and bytes`);
  }
  if (files.parquet === undefined && files.csv === undefined) fail('it lists neither a parquet nor a csv file');
  if (release.version !== PRODUCT_VERSION) {
    throw new SchemaMismatchError(catalogMessages.schemaVersionMismatch(id, String(release.version), PRODUCT_VERSION));
  }
}

/** Checks a bundled schema document against the spec: dataset, product version, and every field's type and nullability. */
export function checkBundledSchema(id: string, document: SchemaDocument): void {
  if (document?.version !== PRODUCT_VERSION) {
    throw new SchemaMismatchError(catalogMessages.schemaVersionMismatch(id, String(document?.version), PRODUCT_VERSION));
  }
  const fields = (document.fields ?? {}) as Record<string, { type?: unknown; nullable?: unknown }>;
  const problems: string[] = [];
  if (document.dataset !== MARKET_EVENTS_DATASET) problems.push(`dataset "${String(document.dataset)}"`);
  for (const field of MARKET_EVENT_FIELDS) {
    const given = fields[field.name];
    if (given === undefined) problems.push(`missing ${field.name}`);
    else if (given.type !== field.type) problems.push(`${field.name} is ${String(given.type)}, not ${field.type}`);
    else if (given.nullable !== field.nullable) problems.push(`${field.name} nullable=${String(given.nullable)}`);
  }
  const known = new Set(MARKET_EVENT_FIELDS.map((field) => field.name));
  for (const name of Object.keys(fields)) if (!known.has(name)) problems.push(`unknown field ${name}`);
  if (problems.length > 0) throw new SchemaMismatchError(catalogMessages.schemaColumnsMismatch(id, 'bundled schema', summarize(problems)));
}

/** A column as DuckDB describes it. */
export interface DescribedColumn {
  name: string;
  type: string;
}

/**
 * Checks a data file's columns (DuckDB DESCRIBE of the parquet, or the CSV header with types `undefined`)
 * against the spec: the same names, and for parquet the DuckDB type of each spec type.
 */
export function checkDataColumns(id: string, source: string, columns: readonly { name: string; type: string | undefined }[]): void {
  const problems: string[] = [];
  const given = new Map(columns.map((column) => [column.name, column.type]));
  if (given.size !== columns.length) problems.push('a column name appears twice');
  for (const field of MARKET_EVENT_FIELDS) {
    if (!given.has(field.name)) problems.push(`missing ${field.name}`);
    else {
      const type = given.get(field.name);
      if (type !== undefined && type !== DUCKDB_TYPE[field.type]) problems.push(`${field.name} is ${type}, not ${DUCKDB_TYPE[field.type]}`);
    }
  }
  const known = new Set(MARKET_EVENT_FIELDS.map((field) => field.name));
  for (const column of columns) if (!known.has(column.name)) problems.push(`unknown column ${column.name}`);
  if (problems.length > 0) throw new SchemaMismatchError(catalogMessages.schemaColumnsMismatch(id, source, summarize(problems)));
}

function summarize(problems: readonly string[]): string {
  return problems.length <= 3 ? problems.join('; ') : `${problems.slice(0, 3).join('; ')}; and ${problems.length - 3} more`;
}
