// JSON Schemas (OpenAPI 3.1 dialect) of the API's bodies, derived from the contract data of src/contract.
// Where the spec says "not shown" or leaves a choice open, the schema stays open: extra properties are
// allowed, only fields the spec names are described, and only those it guarantees are required.

import { CLOSED_VALUE_SETS } from './closed-value-sets.js';
import { MARKET_EVENTS_DATASET, PRODUCT_VERSION } from './dataset.js';
import { MARKET_EVENT_FIELDS, type FieldSpec } from './fields.js';
import { RELEASE_FILE_FORMATS, RELEASE_ID_PATTERN } from './market-event-row.js';
import { PLANS } from './plans.js';
import { researchDataset } from './research-datasets.js';
import { SYMBOLS } from './symbols.js';
import {
  FEATURE_STATUSES,
  OUTCOME_STATUSES,
  RELEASE_STATUSES,
  SAMPLE_TYPES,
  TAKER_STATUSES,
} from './value-sets.js';
import { WINDOWS } from './windows.js';

/** A JSON Schema object (OpenAPI 3.1 dialect). */
export type JsonSchema = { [keyword: string]: unknown };


/** `$ref` to a component schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const stringList = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
/** Counts by value: an open object of non-negative integers, the known values named. */
function countsByValue(description: string, values: readonly string[]): JsonSchema {
  const count: JsonSchema = { type: 'integer', minimum: 0 };
  return { type: 'object', description, properties: Object.fromEntries(values.map((value) => [value, count])), additionalProperties: count };
}
/** A spec number that may be missing ("Missing values are null or absent, never zero"). */
const optionalNumber = (description: string): JsonSchema => ({ type: ['number', 'null'], description });

/** The schema of one Market Events row field: type, nullability, value set and its role for analysis. */
export function rowFieldSchema(field: FieldSpec): JsonSchema {
  const closed = field.values !== undefined && CLOSED_VALUE_SETS.includes(field.values);
  const schema: JsonSchema = {
    type: field.nullable ? [field.type, 'null'] : field.type,
    description: field.description,
  };
  if (field.values && closed) schema.enum = field.nullable ? [...field.values, null] : [...field.values];
  if (field.values && !closed) schema.examples = [...field.values];
  schema['x-rdw-role'] = field.role;
  if (field.unit) schema['x-rdw-unit'] = field.unit;
  if (field.window) schema['x-rdw-window'] = field.window;
  if (field.measure) schema['x-rdw-measure'] = field.measure;
  return schema;
}

/** One Market Events row: every field of MARKET_EVENT_FIELDS, in spec order; none required (missing is null or absent). */
function marketEventRowSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of MARKET_EVENT_FIELDS) properties[field.name] = rowFieldSchema(field);
  return {
    type: 'object',
    description:
      'One Market Events row (spec: "Market Events row"). `x-rdw-role` tells identity, metadata, predictor, label and provenance ' +
      'fields apart: label fields are future outcomes and must never be used as predictor inputs. Unless stated, a field is nullable.',
    properties,
    additionalProperties: true,
  };
}

/** The research row schema of a dataset whose columns the spec shows (market-breadth), or undefined. */
function researchRowSchema(datasetId: string): JsonSchema | undefined {
  const dataset = researchDataset(datasetId);
  if (!dataset) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const column of dataset.columns) properties[column.name] = { type: [column.type, 'null'], description: column.description };
  return {
    type: 'object',
    description: `One row of the research dataset \`${dataset.id}\` (the spec's example); fields may be absent or null.`,
    properties,
    additionalProperties: true,
  };
}

/** The release object; `id`, `day`, `version` and `files` are always there, plus `required`. */
function releaseSchema(description: string, required: string[]): JsonSchema {
  return {
    type: 'object',
    description,
    properties: {
      id: schemaRef('ReleaseId'),
      dataset: { type: 'string', examples: [MARKET_EVENTS_DATASET], description: 'The paid dataset.' },
      version: { type: 'string', examples: [PRODUCT_VERSION], description: 'Product version string: a name with a numeric suffix.' },
      day: { type: 'string', format: 'date', description: 'UTC day of the release.' },
      generated_at: optionalNumber('Generation time, UTC Unix seconds.'),
      rows: { type: 'integer', minimum: 0, description: 'Row count of the release.' },
      files: schemaRef('ReleaseFiles'),
      coverage: schemaRef('ReleaseCoverage'),
      min_sample_time: optionalNumber('Smallest sample_time in the release, UTC Unix seconds.'),
      max_sample_time: optionalNumber('Largest sample_time in the release, UTC Unix seconds.'),
      limitations: stringList('Scope and interpretation boundaries.'),
    },
    required: ['id', 'day', 'version', 'files', ...required],
    additionalProperties: true,
  };
}

/** Every component schema of the document, by name. */
export function openApiSchemas(): Record<string, JsonSchema> {
  const fileDigestProperties: Record<string, JsonSchema> = {};
  for (const format of RELEASE_FILE_FORMATS) fileDigestProperties[format] = schemaRef('FileDigest');
  const windowCounts: Record<string, JsonSchema> = {};
  for (const window of WINDOWS) windowCounts[window] = countsByValue(`Rows of window ${window} by outcome status.`, OUTCOME_STATUSES);
  const marketBreadthRow = researchRowSchema('market-breadth');

  return {
    ReleaseId: {
      type: 'string',
      minLength: 64,
      maxLength: 64,
      pattern: RELEASE_ID_PATTERN.source,
      description:
        'Release ID: 64 characters, immutable; used as a path segment (URL-unreserved characters). ' +
        'Compare exactly, never case-folded. rdw\'s mock issues lowercase hex.',
    },
    Sha256: { type: 'string', pattern: '^[0-9A-Fa-f]{64}$', description: 'SHA-256 hex digest.', examples: ['0'.repeat(64)] },
    FileDigest: {
      type: 'object',
      description: 'Checksum and size of one release file.',
      properties: {
        sha256: { ...schemaRef('Sha256'), description: 'Hex SHA-256 digest of the file bytes.' },
        bytes: { type: 'integer', minimum: 0, description: 'File size in bytes.' },
      },
      required: ['sha256', 'bytes'],
      additionalProperties: true,
    },
    ReleaseFiles: {
      type: 'object',
      description:
        'Keys `json`, `csv`, `parquet`, `schema`. `schema` is absent for a release older than its bundled schema; ' +
        'the release object inside the `json` document cannot hold that document\'s own checksum.',
      properties: fileDigestProperties,
      required: ['csv', 'parquet'],
      additionalProperties: schemaRef('FileDigest'),
    },
    ReleaseCoverage: {
      type: 'object',
      description: 'What a release covers: pairs, sample counts, and counts by status.',
      properties: {
        symbols: { type: 'array', items: { type: 'string', examples: [...SYMBOLS] }, description: 'Pair names.' },
        samples: countsByValue('Counts by `control` and `event`.', SAMPLE_TYPES),
        feature_status: countsByValue('Counts by feature_status value.', FEATURE_STATUSES),
        taker_status: countsByValue('Counts by taker_status value.', TAKER_STATUSES),
        outcomes: {
          type: 'object',
          description: 'Per window, counts by outcome status.',
          properties: windowCounts,
          additionalProperties: true,
        },
      },
      additionalProperties: true,
    },
    ListedRelease: {
      type: 'object',
      description: 'One `/releases` item. The spec shows only `id`, `day`, `version` and `files`; any other field may be there or not, in any shape.',
      properties: {
        id: schemaRef('ReleaseId'),
        day: { type: 'string', format: 'date', description: 'UTC day of the release.' },
        version: { type: 'string', examples: [PRODUCT_VERSION], description: 'Product version string.' },
        files: schemaRef('ReleaseFiles'),
      },
      required: ['id', 'day', 'version', 'files'],
      additionalProperties: true,
    },
    Release: releaseSchema('The release object (spec: "Release (paid scope)"), as the release document carries it.', []),
    Manifest: releaseSchema('The manifest: the release object; it gives coverage and file checksums.', ['coverage']),
    ReleaseList: {
      type: 'object',
      description: 'Published daily releases, latest first.',
      properties: { items: { type: 'array', items: schemaRef('ListedRelease') } },
      required: ['items'],
      additionalProperties: true,
    },
    SchemaField: {
      type: 'object',
      description: 'One row field: its type word, meaning and nullability.',
      properties: {
        type: { type: 'string', examples: ['string', 'number', 'integer', 'boolean'] },
        description: { type: 'string' },
        nullable: { type: 'boolean' },
      },
      required: ['type'],
      additionalProperties: true,
    },
    SchemaDocument: {
      type: 'object',
      description: 'Row fields (name to type, description, nullable flag) and limitations of a product version.',
      properties: {
        dataset: { type: 'string' },
        version: { type: 'string' },
        fields: { type: 'object', additionalProperties: schemaRef('SchemaField') },
        limitations: stringList('Scope and interpretation boundaries.'),
      },
      required: ['fields'],
      additionalProperties: true,
    },
    MarketEventRow: marketEventRowSchema(),
    ReleaseDocument: {
      type: 'object',
      description: 'The release document shape of the spec (the `json` download).',
      properties: {
        dataset: { type: 'string' },
        version: { type: 'string' },
        status: { type: 'string', examples: [...RELEASE_STATUSES], description: '`ready` when complete.' },
        limitations: stringList('Scope and interpretation boundaries.'),
        fields: { type: 'object', additionalProperties: schemaRef('SchemaField') },
        release: schemaRef('Release'),
        items: { type: 'array', items: schemaRef('MarketEventRow') },
        stale: { type: 'boolean' },
      },
      required: ['dataset', 'version', 'status', 'limitations', 'fields', 'release', 'items', 'stale'],
      additionalProperties: true,
    },
    PagedRows: {
      type: 'object',
      description: 'Paged row response. When has_more is true, request offset = next_offset with the same release ID and filters.',
      properties: {
        items: { type: 'array', items: schemaRef('MarketEventRow') },
        total: { type: 'integer', minimum: 0, description: 'All records matching the filters.' },
        has_more: { type: 'boolean' },
        next_offset: { type: ['integer', 'null'], minimum: 0, description: 'Offset of the next page.' },
      },
      required: ['items', 'total', 'has_more'],
      additionalProperties: true,
    },
    AccountLimits: {
      type: 'object',
      description: 'Account limits, account-wide. Optional: a service may not report them.',
      properties: {
        keys: { ...optionalNumber('Active-key allowance.'), examples: [PLANS.researcher.keys] },
        rpm: { ...optionalNumber('Requests per minute, account-wide.'), examples: [PLANS.researcher.rpm] },
        daily_bytes: { ...optionalNumber('Paid file bytes per UTC day.'), examples: [PLANS.researcher.daily_bytes] },
      },
      additionalProperties: true,
    },
    MarketEventsCatalog: {
      type: 'object',
      description: 'Paid catalog: coverage per dataset and the account limits; other fields are not shown by the spec.',
      properties: {
        datasets: {
          type: 'array',
          items: {
            type: 'object',
            description: 'Coverage per dataset and symbols, coverage dates, freshness (field names not shown by the spec).',
            properties: { id: { type: 'string', examples: [MARKET_EVENTS_DATASET] }, symbols: { type: 'array', items: { type: 'string' } } },
            additionalProperties: true,
          },
        },
        limits: schemaRef('AccountLimits'),
      },
      required: ['datasets'],
      additionalProperties: true,
    },
    ResearchCatalogEntry: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Stable dataset identifier, used as DATASET_ID in paths.' },
        calculation_version: { type: 'string' },
        json_url: { type: 'string', description: 'Same-origin request path of the JSON snapshot.' },
        csv_url: { type: 'string', description: 'Same-origin request path of the CSV rows.' },
      },
      required: ['id'],
      additionalProperties: true,
    },
    ResearchCatalog: {
      type: 'object',
      description: 'Free Research catalog.',
      properties: {
        scope: { type: 'string', description: 'Entitlement boundary.' },
        datasets: { type: 'array', items: schemaRef('ResearchCatalogEntry') },
        limits: schemaRef('AccountLimits'),
        limitations: { type: 'array', description: 'Boundaries that must travel with downstream analysis.' },
      },
      required: ['datasets'],
      additionalProperties: true,
    },
    ResearchRow: {
      type: 'object',
      description: 'One observation; row fields differ by dataset and are the CSV columns.',
      additionalProperties: true,
    },
    ...(marketBreadthRow ? { MarketBreadthRow: marketBreadthRow } : {}),
    ResearchSnapshot: {
      type: 'object',
      description: 'Research dataset snapshot: a stable envelope around dataset-specific items.',
      properties: {
        key: { type: 'string', description: 'Dataset ID of this snapshot.' },
        generated_at: optionalNumber('Time the calculation was generated, UTC Unix seconds.'),
        updated: optionalNumber('Newest underlying observation, UTC Unix seconds.'),
        stale: { type: 'boolean', description: 'True beyond the declared freshness boundary; a 200 does not override it.' },
        refresh_seconds: optionalNumber('Declared refresh interval: do not poll faster.'),
        calculation_version: { type: 'string' },
        source: { type: ['string', 'null'] },
        source_url: { type: ['string', 'null'] },
        window: { type: ['object', 'string'], description: 'Observation interval or lookback; child fields are dataset-specific.' },
        summary: { type: ['object', 'string'], description: 'Current answer or aggregate.' },
        items: { type: 'array', items: schemaRef('ResearchRow') },
        limitation: { type: ['string', 'array', 'object'], description: 'Missing-data, coverage and interpretation boundaries.' },
      },
      additionalProperties: true,
    },
    LivePage: {
      description: 'Current dataset of an eligible live research page as JSON; its shape is not shown by the spec.',
    },
    Error: {
      description:
        'Error body: its shape is not shown by the spec, so any JSON is accepted here. rdw\'s mock sends ' +
        '{"error":{"status","code","message","parameter"?}} (parameter: the offending query parameter of a 422).',
      examples: [{ error: { status: 404, code: 'not_found', message: 'Release 0000… is not known; list releases with /releases.' } }],
    },
  };
}
