// The OpenAPI 3.1 document generated from src/contract: valid against the OAS 3.1 meta-schema, complete (every
// endpoint, parameter rule, error status and row field of the contract), open where the spec is silent,
// and printed byte for byte by `rdw openapi`.

import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  API_ERROR_CODES,
  DOWNLOAD_FORMAT_VALUES,
  ENDPOINTS,
  MARKET_EVENT_FIELDS,
  MARKET_EVENT_FIELD_NAMES,
  SAMPLE_TYPES,
  SYMBOLS,
  openApiDocument,
  openApiJson,
} from '../../src/contract/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { captureOutput } from '../support/capture-output.js';
import { OpenApiValidator } from '../support/openapi-validator.js';

type Json = Record<string, any>;

const document = openApiDocument() as Json;
const operation = (path: string): Json => document.paths[path].get;
const componentResponse = (ref: Json): Json => document.components.responses[String(ref.$ref).split('/').pop()!];
const validator = new OpenApiValidator(document);
const problems = (schema: string, value: unknown): string[] => validator.validateComponent(schema, JSON.stringify(value));

const ID = 'f'.repeat(64);
const digest = { sha256: 'a'.repeat(64), bytes: 10 };
const files = { json: digest, csv: digest, parquet: digest };

describe('the OpenAPI document', () => {
  it.each([
    ['default servers', {}],
    ['a given base and site URL', { baseUrl: 'https://api.example.org/research/v1', siteUrl: 'https://example.org' }],
  ])('is valid OpenAPI 3.1 (%s)', async (_name, options) => {
    const validatorOfSpecs = new Validator();
    const result = await validatorOfSpecs.validate(openApiDocument(options) as object);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validatorOfSpecs.version).toBe('3.1');
  });

  it('has a path for every endpoint of the spec (with /v1 under {base_url}), the downloads once per FORMAT, and the document itself', () => {
    const expected = ENDPOINTS.flatMap((endpoint) => {
      const path = `${endpoint.scope === 'public' ? '' : '/v1'}${endpoint.path.replace(/<([A-Z_]+)>/g, (_m, name: string) => `{${name.toLowerCase()}}`)}`;
      return endpoint.name === 'download' ? DOWNLOAD_FORMAT_VALUES.map((format) => path.replace('{format}', format)) : [path];
    });
    expect(Object.keys(document.paths).sort()).toEqual([...expected, '/v1/openapi.json'].sort());
    for (const item of Object.values(document.paths) as Json[]) expect(Object.keys(item).filter((key) => key !== 'servers')).toEqual(['get']);
  });

  it('serves {base_url} as {service_url} plus the /v1 each path begins with, and the public live paths under {site_url}', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '{service_url}', variables: { service_url: expect.objectContaining({ default: 'http://127.0.0.1:8787' }) } })]);
    const given = openApiDocument({ baseUrl: 'https://api.example.org/v1' }) as Json;
    expect(given.servers[0].variables.service_url.default).toBe('https://api.example.org');
    // A service under a path prefix keeps it in the server; a trailing slash is no different.
    expect((openApiDocument({ baseUrl: 'https://example.org/research/v1/' }) as Json).servers[0].variables.service_url.default).toBe('https://example.org/research');
    // The same absolute URLs as {base_url}/releases: server URL + path.
    expect(`${given.servers[0].variables.service_url.default}${Object.keys(given.paths).find((path) => path.endsWith('/releases'))}`).toBe('https://api.example.org/v1/releases');
    expect(() => openApiDocument({ baseUrl: 'https://api.example.org/api' })).toThrow(/does not end in \/v1/);
    for (const path of ['/api/research/live/{page_key}', '/api/research/live/{page_key}.csv']) {
      expect(given.paths[path].servers).toEqual([expect.objectContaining({ url: '{site_url}', variables: { site_url: expect.objectContaining({ default: 'https://api.example.org' }) } })]);
    }
  });

  it('asks for the bearer key everywhere except the public live pages and the document', () => {
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, item] of Object.entries(document.paths) as [string, Json][]) {
      const open = path.startsWith('/api/research/live/') || path === '/v1/openapi.json';
      expect(item.get.security, path).toEqual(open ? [] : undefined);
    }
  });

  it('gives the row query parameters their ranges, defaults and enums from ROW_QUERY', () => {
    const parameters = Object.fromEntries((operation('/v1/rows/{release_id}').parameters as Json[]).map((p) => [p.name, p]));
    expect(parameters.release_id).toMatchObject({ in: 'path', required: true });
    expect(parameters.symbol.schema).toEqual({ type: 'string', enum: [...SYMBOLS] });
    expect(parameters.sample_type.schema).toEqual({ type: 'string', enum: [...SAMPLE_TYPES] });
    expect(parameters.limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    expect(parameters.offset.schema).toEqual({ type: 'integer', minimum: 0, maximum: 100_000, default: 0 });
  });

  it('gives /releases its 1-100 limit without inventing a default (the spec does not show one)', () => {
    const [limit] = operation('/v1/releases').parameters as Json[];
    expect(limit).toMatchObject({ name: 'limit', in: 'query', required: false });
    expect(limit!.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('has a response for every error status of the contract, and each operation names the ones it can answer', () => {
    const names = Object.values(document.components.responses as Record<string, Json>);
    expect(names).toHaveLength(new Set(Object.values(API_ERROR_CODES)).size);
    const statuses = (path: string) => Object.keys(operation(path).responses);
    expect(statuses('/v1/rows/{release_id}')).toEqual(['200', '401', '403', '404', '413', '422', '429', '503', 'default']);
    expect(statuses('/v1/download/{release_id}/parquet')).toEqual(['200', '206', '304', '401', '403', '404', '413', '416', '422', '429', '503', 'default']);
    expect(statuses('/v1/catalog')).toEqual(['200', '401', '403', '422', '429', '503', 'default']);
    expect(statuses('/api/research/live/{page_key}')).toEqual(['200', '404', '422', '429', '503', 'default']);
    expect(componentResponse(operation('/v1/releases').responses['429']).headers['Retry-After']).toBeDefined();
    expect(operation('/v1/download/{release_id}/csv').responses['206'].headers['Content-Range'].required).toBe(true);
  });

  it.each([
    ['csv', ['text/csv']],
    ['parquet', ['application/vnd.apache.parquet', 'application/octet-stream']],
    ['json', ['application/json']],
    ['manifest', ['application/json']],
    ['schema', ['application/json']],
  ])('downloads %s as %j', (format, media) => {
    expect(Object.keys(operation(`/v1/download/{release_id}/${format}`).responses['200'].content)).toEqual(media);
  });

  it('describes every Market Events field in spec order with its type, nullability, values and x-rdw-role', () => {
    const row = document.components.schemas.MarketEventRow as Json;
    expect(Object.keys(row.properties)).toEqual([...MARKET_EVENT_FIELD_NAMES]);
    expect(row.required).toBeUndefined();
    expect(row.additionalProperties).toBe(true);
    for (const field of MARKET_EVENT_FIELDS) {
      const schema = row.properties[field.name] as Json;
      expect(schema['x-rdw-role'], field.name).toBe(field.role);
      expect(schema.type, field.name).toEqual(field.nullable ? [field.type, 'null'] : field.type);
      if (field.values) expect(schema.enum ?? schema.examples, field.name).toEqual(expect.arrayContaining([...field.values]));
    }
    expect(row.properties.status_1h).toMatchObject({ type: 'string', enum: ['pending', 'gap', 'invalid_price', 'not_applicable', 'complete'], 'x-rdw-role': 'label' });
    expect(row.properties.sample_type.enum).toEqual(['event', 'control', null]);
    // Value sets the spec does not close (rule families, the control status of a passed control) stay open.
    expect(row.properties.event_kind.enum).toBeUndefined();
  });
});

describe('the document is open where the spec is silent and strict where it is not', () => {
  it.each<[string, string, unknown]>([
    ['a /releases item with only id, day, version and files, and fields of its own', 'ListedRelease', { id: ID, day: '2026-10-31', version: 'mev-calc-7', files, tier: 'gold' }],
    ['a /releases item whose other fields have shapes of their own', 'ListedRelease', { id: ID, day: '2026-10-31', version: 'v', files, rows: '12', generated_at: '2026-10-31T01:00:00Z' }],
    ['an upper-case, non-hex 64-character ID', 'ListedRelease', { id: `AB_~.-${'Z'.repeat(58)}`, day: '2026-10-31', version: 'v', files }],
    ['integer times and counts', 'MarketEventRow', { sample_time: 1_790_000_000, quote_volume_5m: 12, missing_candles_1h: null }],
    ['a row with a field the spec does not name', 'MarketEventRow', { row_id: 'x', sample_type: 'control', new_feature: 1.5 }],
    ['a rule family the spec does not list', 'MarketEventRow', { event_kind: 'liquidation_cascade' }],
    ['a paid catalog without limits', 'MarketEventsCatalog', { datasets: [{ id: 'market-events-v1', first: '2026-01-01' }] }],
    ['limits with daily_bytes null and more fields', 'MarketEventsCatalog', { datasets: [], limits: { rpm: 300, daily_bytes: null, burst: 10 } }],
    ['a schema document with other type words and an extra field', 'SchemaDocument', { fields: { price: { type: 'float64' }, extra: { type: 'utf8' } } }],
    ['an error body of another shape', 'Error', { message: 'nope' }],
    ['an error body that is plain text in JSON', 'Error', 'Not Found'],
    ['a last page without next_offset', 'PagedRows', { items: [], total: 0, has_more: false }],
    ['a live page of any shape', 'LivePage', [{ a: 1 }]],
  ])('accepts %s', (_name, schema, value) => {
    expect(problems(schema, value)).toEqual([]);
  });

  it.each<[string, string, unknown]>([
    ['a /releases item without files', 'ListedRelease', { id: ID, day: '2026-10-31', version: 'v' }],
    ['a release ID of 63 characters', 'ListedRelease', { id: ID.slice(1), day: '2026-10-31', version: 'v', files }],
    ['a release ID with a slash', 'ListedRelease', { id: `${'a'.repeat(63)}/`, day: '2026-10-31', version: 'v', files }],
    ['a day that is not a date', 'ListedRelease', { id: ID, day: '31/10/2026', version: 'v', files }],
    ['a file digest that is not hex', 'Manifest', { id: ID, day: '2026-10-31', version: 'v', coverage: {}, files: { ...files, csv: { sha256: 'x'.repeat(64), bytes: 1 } } }],
    ['a release file list without parquet', 'ListedRelease', { id: ID, day: '2026-10-31', version: 'v', files: { json: digest, csv: digest } }],
    ['a manifest without coverage', 'Manifest', { id: ID, day: '2026-10-31', version: 'v', files }],
    ['a manifest whose row count is not an integer', 'Manifest', { id: ID, day: '2026-10-31', version: 'v', files, coverage: {}, rows: 1.5 }],
    ['a sample_type outside the spec', 'MarketEventRow', { sample_type: 'signal' }],
    ['a lowercase symbol', 'MarketEventRow', { symbol: 'btcusdt' }],
    ['a null outcome status (never null)', 'MarketEventRow', { status_1h: null }],
    ['a price as a string', 'MarketEventRow', { price: '101.5' }],
    ['a paged response without total', 'PagedRows', { items: [], has_more: false }],
    ['a negative next_offset', 'PagedRows', { items: [], total: 0, has_more: true, next_offset: -1 }],
    ['a release document without items', 'ReleaseDocument', { dataset: 'd', version: 'v', status: 'ready', limitations: [], fields: {}, release: { id: ID, day: '2026-10-31', version: 'v', files }, stale: false }],
  ])('refuses %s', (_name, schema, value) => {
    expect(problems(schema, value)).not.toEqual([]);
  });
});

describe('rdw openapi', () => {
  const run = async (...argv: string[]) => {
    const out = captureOutput();
    const err = captureOutput();
    const code = await runCli(argv, { env: {}, stdout: out.output, stderr: err.output });
    return { code, out: out.text(), err: err.text() };
  };

  it('prints the generated document as JSON, the same bytes every time and with --json', async () => {
    const plain = await run('openapi');
    expect(plain).toEqual({ code: 0, out: openApiJson(), err: '' });
    expect((await run('openapi', '--json')).out).toBe(plain.out);
    expect(JSON.parse(plain.out)).toEqual(openApiDocument());
    expect(openApiJson()).toBe(openApiJson());
  });

  it('fills the server defaults from --base-url', async () => {
    const given = await run('openapi', '--base-url', 'https://api.example.org/v1');
    expect(given.code).toBe(0);
    expect(JSON.parse(given.out).servers[0].variables.service_url.default).toBe('https://api.example.org');
  });

  it('refuses a base URL without /v1, naming the setting (exit 2)', async () => {
    const refused = await run('openapi', '--base-url', 'https://api.example.org/api');
    expect(refused).toEqual({ code: 2, out: '', err: expect.stringMatching(/^rdw: RDW_BASE_URL \(or --base-url\) "https:\/\/api\.example\.org\/api" is not the API root; .+\n$/) });
  });

  it('refuses arguments it does not take (exit 2)', async () => {
    const extra = await run('openapi', 'yaml');
    expect(extra.code).toBe(2);
    expect(extra.err).toMatch(/^rdw: .+\n$/);
  });
});
