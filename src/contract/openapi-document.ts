// The OpenAPI 3.1 description of the whole Research Data API, generated from src/contract (endpoints, query
// rules, error statuses, row fields). `rdw openapi` prints it and the mock serves it at {base_url}/openapi.json.
// Every path of the versioned API is written with its /v1 and the server is {base_url} without it: the same
// URLs, and mock servers that mount paths at their root and ignore a server's path (Prism does) serve the
// API under /v1 as rdw expects.

import { API_ERROR_CODES } from './api-errors.js';
import { API_VERSION_SEGMENT, DOWNLOAD_FORMAT_VALUES, ENDPOINTS, RELEASES_QUERY, ROW_QUERY, type EndpointSpec } from './endpoints.js';
import type { DownloadFormat } from './market-event-row.js';
import { schemaRef, openApiSchemas, type JsonSchema } from './openapi-schemas.js';
import { UsageError } from '../base/index.js';
import { openApiMessages } from './openapi-messages.js';
import { API_KEY_PREFIX } from './plans.js';
import { RESEARCH_DATASETS } from './research-datasets.js';

/** The OpenAPI version written. */
export const OPENAPI_VERSION = '3.1.0';

/** Path of the document under `{base_url}` on rdw's mock (a docs page: no key, no limits); in the document, after /v1. */
export const OPENAPI_DOCUMENT_PATH = '/openapi.json';

/** Default `{site_url}`: the embedded mock's default address (`rdw mock`, DESIGN.md 2.3); `{base_url}` adds `/v1`. */
const DEFAULT_SITE_URL = 'http://127.0.0.1:8787';

export interface OpenApiDocumentOptions {
  /**
   * `{base_url}`, ending in `/v1` (else a UsageError); the default of the `service_url` server variable is it
   * without `/v1`. Default `http://127.0.0.1:8787/v1`.
   */
  baseUrl?: string;
  /** Default of the `site_url` server variable of the public live paths. Default: the origin of `baseUrl`. */
  siteUrl?: string;
}

/** An OpenAPI document as plain JSON data. */
export type OpenApiDocument = { [key: string]: unknown };

const JSON_MEDIA = 'application/json';
const CSV_MEDIA = 'text/csv';
const PARQUET_MEDIA = 'application/vnd.apache.parquet';
const BINARY_MEDIA = 'application/octet-stream';

/** Component response name and meaning of every error status (spec: "Errors"; 405 and 416: the HTTP rules). */
const ERROR_RESPONSES: Readonly<Record<number, { name: string; description: string }>> = {
  401: { name: 'Unauthorized', description: 'Missing, incorrect or revoked key.' },
  403: {
    name: 'Forbidden',
    description: 'Paid Market Events requested without an active data plan, or a key over the plan allowance after a downgrade.',
  },
  404: { name: 'NotFound', description: 'Unknown release ID, dataset, page or unavailable file; an older release may predate its bundled schema.' },
  405: { name: 'MethodNotAllowed', description: 'Every endpoint uses GET.' },
  409: { name: 'KeySlotsFull', description: 'Key creation when all permitted key slots are used (key page; no API endpoint is shown).' },
  413: { name: 'QueryTooLarge', description: 'Oversized row query, or a file unavailable or failing its checksum: use a full partition download.' },
  416: { name: 'RangeNotSatisfiable', description: 'The requested byte range lies outside the file.' },
  422: {
    name: 'InvalidParameter',
    description: 'Invalid parameter: symbol not an uppercase allowed pair, sample_type not event or control, limit or offset out of range.',
  },
  429: {
    name: 'RateLimited',
    description:
      'Account quota reached. For request limits wait at least Retry-After; a daily byte limit clears at the next UTC day or on a plan change. Never retry in a tight loop.',
  },
  503: {
    name: 'Unavailable',
    description: 'Oversized row query, a file unavailable or failing its checksum (use a full partition download), or the service unavailable.',
  },
};

/** Extra headers of some error responses. */
const ERROR_HEADERS: Readonly<Record<number, Record<string, JsonSchema>>> = {
  401: { 'WWW-Authenticate': { description: 'Authentication scheme (Bearer).', schema: { type: 'string' } } },
  405: { Allow: { description: 'Allowed methods.', schema: { type: 'string' } } },
  416: { 'Content-Range': { description: '`bytes */<size>`.', schema: { type: 'string' } } },
  429: {
    'Retry-After': {
      description: 'Seconds (or an HTTP date) to wait before the next request; a service may omit it.',
      schema: { type: 'string', examples: ['60'] },
    },
  },
};

const errorRef = (status: number): JsonSchema => ({ $ref: `#/components/responses/${ERROR_RESPONSES[status]!.name}` });

/** Statuses every key-protected operation may answer. */
const KEYED = [401, 403, 422, 429, 503];

/** Query parameter of an integer rule; `withDefault` only where the spec gives the default. */
function integerQuery(name: string, rule: { min: number; max: number; default: number }, description: string, withDefault: boolean): JsonSchema {
  return {
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'integer', minimum: rule.min, maximum: rule.max, ...(withDefault ? { default: rule.default } : {}) },
  };
}

const pathParameter = (name: string, schema: JsonSchema, description: string): JsonSchema => ({ name, in: 'path', required: true, description, schema });
const releaseIdParameter = pathParameter('release_id', schemaRef('ReleaseId'), 'Release ID, exactly as listed.');

const json = (schema: JsonSchema): JsonSchema => ({ [JSON_MEDIA]: { schema } });
const csv = (description: string): JsonSchema => ({ [CSV_MEDIA]: { schema: { type: 'string', description } } });

/** What one operation answers and takes. */
interface OperationShape {
  summary: string;
  tag: string;
  /** No key: `security: []` (the public live scope). */
  public?: boolean;
  parameters?: JsonSchema[];
  ok: JsonSchema;
  okHeaders?: Record<string, JsonSchema>;
  /** Extra success statuses (206, 304) with their response objects. */
  extra?: Record<string, JsonSchema>;
  errors: number[];
}

const FILE_HEADERS: Record<string, JsonSchema> = {
  ETag: { description: 'Opaque validator for conditional requests; not a checksum.', schema: { type: 'string' } },
  'Accept-Ranges': { description: '`bytes` when byte ranges are served.', schema: { type: 'string' } },
  'Cache-Control': { description: 'Release files are immutable.', schema: { type: 'string' } },
};

const FILE_REQUEST_HEADERS: JsonSchema[] = [
  { name: 'Range', in: 'header', required: false, description: 'One byte range (`bytes=START-` to resume).', schema: { type: 'string' } },
  { name: 'If-Range', in: 'header', required: false, description: 'ETag the range is valid for.', schema: { type: 'string' } },
  { name: 'If-None-Match', in: 'header', required: false, description: 'ETag of a copy already held (answered 304).', schema: { type: 'string' } },
];

/** A 206 body: some bytes of the file, not a whole document. */
const PARTIAL_BODY: JsonSchema = { description: 'Bytes START-END of the file (not a whole document on their own).' };

/** The body of each download format. */
const DOWNLOAD_BODIES: Readonly<Record<DownloadFormat, { summary: string; content: JsonSchema }>> = {
  csv: {
    summary: 'Full daily CSV file: all six markets and both sample types; its SHA-256 equals files.csv.sha256.',
    content: csv('Header line first; one Market Events row per line.'),
  },
  parquet: {
    summary: 'Full daily Parquet file; its SHA-256 equals files.parquet.sha256.',
    content: {
      [PARQUET_MEDIA]: { schema: { type: 'string', contentMediaType: PARQUET_MEDIA } },
      [BINARY_MEDIA]: { schema: { type: 'string', contentMediaType: PARQUET_MEDIA } },
    },
  },
  json: { summary: 'Full daily JSON file: the release document.', content: json(schemaRef('ReleaseDocument')) },
  manifest: {
    summary: 'The manifest: the release object with coverage and file checksums.',
    content: json(schemaRef('Manifest')),
  },
  schema: {
    summary: 'The bundled schema of the release (404 for a release older than its bundled schema).',
    content: json(schemaRef('SchemaDocument')),
  },
};

/** The operation of each endpoint of ENDPOINTS (the download endpoint is expanded per format). */
const OPERATIONS: Readonly<Record<string, OperationShape>> = {
  researchCatalog: { summary: 'Catalog of the free Research datasets and the account limits.', tag: 'Research', ok: json(schemaRef('ResearchCatalog')), errors: KEYED },
  researchSnapshot: { summary: 'Current snapshot of a Research dataset.', tag: 'Research', ok: json(schemaRef('ResearchSnapshot')), errors: [...KEYED, 404] },
  researchCsv: { summary: 'Current observations of a Research dataset as CSV.', tag: 'Research', ok: csv('Header line first; defines the exact row schema.'), errors: [...KEYED, 404] },
  liveJson: { summary: 'Current dataset of an eligible live research page.', tag: 'Public live', ok: json(schemaRef('LivePage')), errors: [404, 422, 429, 503] },
  liveCsv: { summary: 'The same live page as CSV.', tag: 'Public live', ok: csv('Header line first.'), errors: [404, 422, 429, 503] },
  catalog: { summary: 'Coverage per dataset and the account limits.', tag: 'Market Events', ok: json(schemaRef('MarketEventsCatalog')), errors: KEYED },
  schema: { summary: 'Row fields and limitations of the current product version.', tag: 'Market Events', ok: json(schemaRef('SchemaDocument')), errors: KEYED },
  releases: {
    summary: 'Published daily releases, latest first; no date-range or offset parameter.',
    tag: 'Market Events',
    parameters: [integerQuery('limit', RELEASES_QUERY.limit, 'Number of releases (the default is not shown by the spec).', false)],
    ok: json(schemaRef('ReleaseList')),
    errors: KEYED,
  },
  rows: {
    summary: 'Filtered rows of one release, paged. Rows of different release IDs must not be combined.',
    tag: 'Market Events',
    parameters: [
      releaseIdParameter,
      { name: 'symbol', in: 'query', required: false, description: 'Omitted = all six.', schema: { type: 'string', enum: [...ROW_QUERY.symbol.values] } },
      { name: 'sample_type', in: 'query', required: false, description: 'Omitted = both.', schema: { type: 'string', enum: [...ROW_QUERY.sample_type.values] } },
      integerQuery('limit', ROW_QUERY.limit, 'Rows per page.', true),
      integerQuery('offset', ROW_QUERY.offset, 'Offset of the first row; page on with next_offset.', true),
    ],
    ok: json(schemaRef('PagedRows')),
    errors: [...KEYED, 404, 413],
  },
};

/** `<RELEASE_ID>` -> `{release_id}`. */
function openApiPath(path: string): string {
  return path.replace(/<([A-Z_]+)>/g, (_match, name: string) => `{${name.toLowerCase()}}`);
}

function operationObject(operationId: string, shape: OperationShape): JsonSchema {
  const responses: Record<string, JsonSchema> = {
    '200': { description: shape.summary, ...(shape.okHeaders ? { headers: shape.okHeaders } : {}), content: shape.ok },
    ...shape.extra,
  };
  for (const status of [...shape.errors].sort((a, b) => a - b)) responses[String(status)] = errorRef(status);
  responses.default = { description: 'Any other failure; the body shape is not shown by the spec.', content: json(schemaRef('Error')) };
  return {
    operationId,
    summary: shape.summary,
    tags: [shape.tag],
    ...(shape.public ? { security: [] } : {}),
    ...(shape.parameters ? { parameters: shape.parameters } : {}),
    responses,
  };
}

/** The download operations, one concrete path per FORMAT (each has its own media type). */
function downloadOperations(endpoint: EndpointSpec): [string, JsonSchema][] {
  return DOWNLOAD_FORMAT_VALUES.map((format) => {
    const body = DOWNLOAD_BODIES[format];
    const shape: OperationShape = {
      summary: body.summary,
      tag: 'Market Events',
      parameters: [releaseIdParameter, ...FILE_REQUEST_HEADERS],
      ok: body.content,
      okHeaders: FILE_HEADERS,
      extra: {
        '206': {
          description: 'The requested byte range of the file.',
          headers: { ...FILE_HEADERS, 'Content-Range': { required: true, description: '`bytes START-END/SIZE`.', schema: { type: 'string' } } },
          content: Object.fromEntries(Object.keys(body.content).map((media) => [media, { schema: PARTIAL_BODY }])),
        },
        '304': { description: 'Not modified: the If-None-Match ETag matches.', headers: { ETag: FILE_HEADERS.ETag! } },
      },
      errors: [...KEYED, 404, 413, 416],
    };
    const path = openApiPath(endpoint.path.replace('<FORMAT>', format));
    return [path, { get: operationObject(`download${format[0]!.toUpperCase()}${format.slice(1)}`, shape) }];
  });
}

function serverVariable(name: string, value: string, description: string): JsonSchema {
  return { url: `{${name}}`, description, variables: { [name]: { default: value, description } } };
}

/**
 * The OpenAPI 3.1 document of the whole API: server `{service_url}` (= `{base_url}` without `/v1`, which
 * begins every path of the versioned API) and, for the public live paths, `{site_url}`; every endpoint of ENDPOINTS (downloads per FORMAT), bearer security (public live
 * without), query ranges and enums, every error status, and the body schemas of `openApiSchemas()`.
 * The same options give the same document, key for key.
 */
export function openApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const baseUrl = options.baseUrl ?? `${DEFAULT_SITE_URL}${API_VERSION_SEGMENT}`;
  const serviceUrl = serviceUrlOf(baseUrl);
  const siteUrl = options.siteUrl ?? originOf(baseUrl);
  const siteServers = [serverVariable('site_url', siteUrl, '{site_url}: the public site root, for the no-key live endpoints.')];

  const paths: Record<string, JsonSchema> = {};
  for (const endpoint of ENDPOINTS) {
    if (endpoint.name === 'download') {
      for (const [path, item] of downloadOperations(endpoint)) paths[`${API_VERSION_SEGMENT}${path}`] = item;
      continue;
    }
    const shape = OPERATIONS[endpoint.name] ?? {
      summary: endpoint.response,
      tag: 'Market Events',
      ok: json({}),
      errors: endpoint.scope === 'public' ? [] : KEYED,
    };
    const parameters = [...(shape.parameters ?? [])];
    if (endpoint.path.includes('<DATASET_ID>')) {
      parameters.unshift(pathParameter('dataset_id', { type: 'string', examples: RESEARCH_DATASETS.map((d) => d.id) }, 'A dataset ID from the catalog.'));
    }
    if (endpoint.path.includes('<PAGE_KEY>')) {
      const keys = RESEARCH_DATASETS.flatMap((d) => (d.live_page_key ? [d.live_page_key] : []));
      parameters.unshift(pathParameter('page_key', { type: 'string', examples: keys }, 'Key of an eligible live research page.'));
    }
    // The public scope needs no key (spec: Authentication 10); every other operation inherits the bearer key.
    const operation = operationObject(endpoint.name, { ...shape, public: endpoint.scope === 'public', ...(parameters.length > 0 ? { parameters } : {}) });
    // The public live paths sit under {site_url} (their own server); every other path under {base_url}.
    if (endpoint.scope === 'public') paths[openApiPath(endpoint.path)] = { servers: siteServers, get: operation };
    else paths[`${API_VERSION_SEGMENT}${openApiPath(endpoint.path)}`] = { get: operation };
  }
  paths[`${API_VERSION_SEGMENT}${OPENAPI_DOCUMENT_PATH}`] = {
    get: {
      operationId: 'openapi',
      summary: "This document. Served by rdw's mock (no key, no limits); a real service may not offer it.",
      tags: ['Documentation'],
      security: [],
      responses: { '200': { description: 'The OpenAPI document.', content: json({ type: 'object' }) } },
    },
  };

  const responses: Record<string, JsonSchema> = {};
  const statuses = [...new Set<number>(Object.values(API_ERROR_CODES))].sort((a, b) => a - b);
  for (const status of statuses) {
    const known = ERROR_RESPONSES[status];
    if (!known) continue;
    responses[known.name] = {
      description: known.description,
      ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
      content: json(schemaRef('Error')),
    };
  }

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Research Data API',
      version: API_VERSION_SEGMENT.slice(1),
      description:
        'A read-only HTTP API of crypto-market research datasets: a free current-snapshot scope (Research), a paid ' +
        'versioned release scope (Market Events, immutable daily releases of market-events-v1) and a public no-key ' +
        'scope (live pages). Generated by rdw from its contract data (src/contract). Where the spec says "not shown" the ' +
        'schemas stay open: extra fields are allowed and only the fields the spec names are required.',
    },
    servers: [
      serverVariable(
        'service_url',
        serviceUrl,
        `{service_url}: the service; {base_url}, the API root, is {service_url}${API_VERSION_SEGMENT} (each path of the API begins with the version segment).`,
      ),
    ],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'Research', description: 'Free Research scope: current snapshots; every signed-in account with a key.' },
      { name: 'Public live', description: 'Public live scope: no key; 60 requests per minute per IP, shared.' },
      { name: 'Market Events', description: 'Paid scope: an active Researcher or Research Desk data plan.' },
      { name: 'Documentation', description: 'This document.' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `Authorization: Bearer <API_KEY>, never in the query string. Keys begin with a fixed service prefix (rdw's mock: \`${API_KEY_PREFIX}\`).`,
        },
      },
      responses,
      schemas: openApiSchemas(),
    },
  };
}

/** The document as JSON text: two-space indent, keys in the generator's fixed order, one trailing newline. */
export function openApiJson(options: OpenApiDocumentOptions = {}): string {
  return `${JSON.stringify(openApiDocument(options), null, 2)}\n`;
}

/** `{base_url}` without its version segment (and a trailing slash); a URL without `/v1` is refused. */
function serviceUrlOf(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  if (!trimmed.endsWith(API_VERSION_SEGMENT)) throw new UsageError(openApiMessages.baseUrlWithoutVersion(baseUrl), { option: 'baseUrl' });
  return trimmed.slice(0, -API_VERSION_SEGMENT.length);
}

function originOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return DEFAULT_SITE_URL;
  }
}
