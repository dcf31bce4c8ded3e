// Schema gates of a pull: the manifest's shape and the bundled schema, judged against src/contract's field list
// (liberal in the words, strict in the meaning). The data file's columns: check-data-columns.ts.

import { DAY_PATTERN, SHA256_HEX_PATTERN } from '../base/index.js';
import {
  MARKET_EVENTS_DATASET,
  PRODUCT_VERSION,
  fieldSpec,
  fieldTypeFits,
  fieldTypeOfWord,
  MARKET_EVENT_FIELDS,
  withoutNullMembers,
  type FieldType,
  type FileDigest,
  type Release,
  type SchemaDocument,
} from '../contract/index.js';
import { ManifestInvalidError, SchemaMismatchError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** A product version string as recorded: printable, without control characters, at most 128 characters. */
const VERSION_TEXT = /^[^\p{Cc}]{1,128}$/u;

const isDigest = (value: unknown): value is FileDigest =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FileDigest).sha256 === 'string' &&
  SHA256_HEX_PATTERN.test((value as FileDigest).sha256) &&
  Number.isSafeInteger((value as FileDigest).bytes) &&
  (value as FileDigest).bytes >= 0;

/**
 * Checks that a manifest can describe release `id` of Market Events v1. Any product version string is
 * accepted (spec: "a name with a numeric suffix"; a new one is recorded and reported, not refused); a status
 * other than `ready` is refused (the release is not complete).
 */
export function checkManifest(id: string, release: Release): void {
  const fail = (detail: string): never => {
    throw new ManifestInvalidError(catalogMessages.notImportedManifestMismatch(id, detail));
  };
  if (release.dataset !== MARKET_EVENTS_DATASET) fail(`its dataset is "${String(release.dataset)}", not ${MARKET_EVENTS_DATASET}`);
  if (typeof release.day !== 'string' || !DAY_PATTERN.test(release.day)) fail('its day is not a YYYY-MM-DD date');
  if (!Number.isSafeInteger(release.rows) || release.rows < 0) fail('its rows is not a count');
  if (typeof release.generated_at !== 'number' || !Number.isFinite(release.generated_at)) fail('its generated_at is not a time');
  if (typeof release.version !== 'string' || !VERSION_TEXT.test(release.version)) fail('its version is not a product version string');
  // The spec's release status is `ready` "when complete"; a manifest that says it (or its document) is not is
  // a release still being written. Absent is fine: the release object itself has no status.
  const status = (release as { status?: unknown }).status;
  if (status !== undefined && status !== 'ready') fail(catalogMessages.releaseNotReady(status));
  const files = release.files as unknown as Record<string, unknown>;
  for (const [format, digest] of Object.entries(files)) {
    if (!isDigest(digest)) fail(`its ${format} entry has no valid sha256 and bytes`);
  }
  if (files.parquet === undefined && files.csv === undefined) fail('it lists neither a parquet nor a csv file');
}

/** One field as a bundled schema declares it. */
export interface DeclaredField {
  name: string;
  /** The type word as written (a list such as `["number","null"]` is shown joined by `|`). */
  word: string;
  /** The spec field type the word means; undefined for a word rdw does not know (allowed for extra fields only). */
  type: FieldType | undefined;
}

/** What a bundled schema declares, once checked: the field set the release's data file must carry. */
export interface BundledSchemaFields {
  /** Every declared field by name, spec fields and extra fields alike. */
  fields: ReadonlyMap<string, DeclaredField>;
  /** Spec fields declared with a word other than the spec's own (e.g. float64 for number), with the type read. */
  typeWords: { field: string; word: string; type: FieldType }[];
}

/**
 * Checks a bundled schema document against the spec and the release's product version `version` (default
 * PRODUCT_VERSION). Accepted: the common type words (src/contract FIELD_TYPE_WORDS), an integer word where the
 * spec says number, a missing (absent or null) `nullable` or `description`, `version` or `dataset`, and extra
 * fields (any word). Refused (SchemaMismatchError, exit 3): another dataset or product version than the
 * manifest's, a spec field declared with an unknown or incompatible type, and a not-nullable spec field left
 * out. A nullable spec field left out must be absent from the data file too (checkDataColumns).
 */
export function checkBundledSchema(id: string, document: SchemaDocument, version: string = PRODUCT_VERSION): BundledSchemaFields {
  const refuse = (detail: string): never => {
    throw new SchemaMismatchError(catalogMessages.schemaColumnsMismatch(id, 'bundled schema', detail));
  };
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return refuse('it is not a JSON object');
  // A null member is an absent one (the spec: "missing values are null or absent"): `version: null` is no version.
  const given = withoutNullMembers(document as unknown as Record<string, unknown>);
  if (given.version !== undefined && given.version !== version) {
    throw new SchemaMismatchError(catalogMessages.schemaVersionDisagrees(id, String(given.version), version));
  }
  if (given.dataset !== undefined && given.dataset !== MARKET_EVENTS_DATASET) refuse(`its dataset is "${String(given.dataset)}"`);
  const problems: string[] = [];
  const declared = declaredFields(given.fields, problems) ?? refuse('it has no fields object');
  const typeWords: BundledSchemaFields['typeWords'] = [];
  for (const field of declared.values()) {
    const spec = fieldSpec(field.name);
    if (spec === undefined) continue; // an extra field: any word is kept as written
    if (field.type === undefined) problems.push(`${field.name} has the type word "${field.word}", which is not a ${spec.type}`);
    else if (!fieldTypeFits(field.type, spec.type)) problems.push(`${field.name} is ${field.word}, not ${spec.type}`);
    else if (field.word !== spec.type) typeWords.push({ field: field.name, word: field.word, type: field.type });
  }
  for (const spec of MARKET_EVENT_FIELDS) {
    if (!spec.nullable && !declared.has(spec.name)) problems.push(`missing ${spec.name}, which is never null`);
  }
  if (problems.length > 0) refuse(summarize(problems));
  return { fields: declared, typeWords };
}

/** The `fields` of a schema document: an object by name (the spec's shape) or an array of `{ name, type }`. */
function declaredFields(fields: unknown, problems: string[]): Map<string, DeclaredField> | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const entries: [string, unknown][] = Array.isArray(fields)
    ? fields.map((entry: unknown) => [String((entry as { name?: unknown } | null)?.name ?? ''), entry])
    : Object.entries(fields);
  const declared = new Map<string, DeclaredField>();
  for (const [name, entry] of entries) {
    if (name === '' || declared.has(name)) {
      problems.push(name === '' ? 'a field has no name' : `${name} is declared twice`);
      continue;
    }
    // `{ "type": … }` (the spec's shape), or the type word itself (`"float64"`, `["number", "null"]`).
    const word = typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as { type?: unknown }).type : entry;
    declared.set(name, {
      name,
      word: Array.isArray(word) ? word.map(String).join('|') : String(word ?? ''),
      type: fieldTypeOfWord(word),
    });
  }
  return declared;
}

/** At most three problems, then how many more. */
export function summarize(problems: readonly string[]): string {
  return problems.length <= 3 ? problems.join('; ') : `${problems.slice(0, 3).join('; ')}; and ${problems.length - 3} more`;
}
