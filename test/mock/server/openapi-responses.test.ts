// Every kind of answer the mock gives (each endpoint's 200, 206/304/416 downloads, 401, 403, 404, 413, 422,
// 429, 503) conforms to the OpenAPI document generated from src/contract: status, content type and body (Ajv).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { OPENAPI_DOCUMENT_PATH, RESEARCH_DATASETS, openApiDocument, type Release } from '../../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { OpenApiValidator } from '../../support/openapi-validator.js';
import { get, type Answer } from './http.js';

/** One request to the mock and the status it must answer. */
interface Case {
  name: string;
  path: string;
  /** `base` (default) = under {base_url}; `site` = under {site_url}. */
  under?: 'base' | 'site';
  key?: keyof MockServer['keys'];
  headers?: Record<string, string>;
  status: number;
  /** False when the status falls to the operation's `default` response (a mock choice the spec does not name). */
  documented?: boolean;
}

let server: MockServer;
/** A second mock with tight limits and faults, for 413, 429 and 503. */
let edge: MockServer;
let current: Release;
let schemaless: Release;
let etag: string;

beforeAll(async () => {
  server = await startMockServer({ port: 0, days: 6, schemaSince: '2026-10-29' });
  edge = await startMockServer({
    port: 0,
    days: 2,
    limits: { rowQueryMaxRows: 1, publicRpm: 1, free: { rpm: 1 }, researcher: { daily_bytes: 10 } },
    faults: [
      { format: 'rows', kind: 'status503', times: 1 },
      { format: 'csv', kind: 'status503' },
    ],
  });
  const listed = (await get(`${server.baseUrl}/releases?limit=100`, server.keys.desk)).json as { items: Release[] };
  current = listed.items[0]!;
  schemaless = listed.items.find((release) => release.files.schema === undefined)!;
  etag = (await get(`${server.baseUrl}/download/${current.id}/manifest`, server.keys.desk)).headers.get('etag')!;
});
afterAll(async () => {
  await Promise.all([server?.close(), edge?.close()]);
});

const ZERO_ID = '0'.repeat(64);

/** Cases are listed before the mock starts: `$ID` is the newest release, `$OLD` one without a bundled schema, `$ETAG` the newest manifest's ETag. */
function cases(): Case[] {
  const id = '$ID';
  const research = RESEARCH_DATASETS.flatMap((dataset): Case[] => [
    { name: `research snapshot ${dataset.id}`, path: `/research/${dataset.id}`, key: 'free', status: 200 },
    { name: `research csv ${dataset.id}`, path: `/research/${dataset.id}/csv`, key: 'free', status: 200 },
  ]);
  const live = RESEARCH_DATASETS.flatMap((dataset): Case[] =>
    dataset.live_page_key
      ? [
          { name: `live json ${dataset.live_page_key}`, path: `/api/research/live/${dataset.live_page_key}`, under: 'site', status: 200 },
          { name: `live csv ${dataset.live_page_key}`, path: `/api/research/live/${dataset.live_page_key}.csv`, under: 'site', status: 200 },
        ]
      : [],
  );
  const downloads = (['csv', 'parquet', 'json', 'manifest', 'schema'] as const).map(
    (format): Case => ({ name: `download ${format}`, path: `/download/${id}/${format}`, key: 'desk', status: 200 }),
  );
  return [
    { name: 'the OpenAPI document, no key', path: OPENAPI_DOCUMENT_PATH, status: 200 },
    { name: 'research catalog', path: '/research/catalog', key: 'free', status: 200 },
    ...research,
    ...live,
    { name: 'paid catalog', path: '/catalog', key: 'researcher', status: 200 },
    { name: 'schema', path: '/schema', key: 'researcher', status: 200 },
    { name: 'releases', path: '/releases', key: 'desk', status: 200 },
    { name: 'releases limit 3', path: '/releases?limit=3', key: 'desk', status: 200 },
    { name: 'rows, filtered page', path: `/rows/${id}?symbol=BTCUSDT&sample_type=control&limit=5&offset=2`, key: 'desk', status: 200 },
    { name: 'rows past the end (empty page)', path: `/rows/${id}?offset=100000`, key: 'desk', status: 200 },
    ...downloads,
    { name: 'download of an old release: its manifest', path: '/download/$OLD/manifest', key: 'desk', status: 200 },
    { name: 'download range', path: `/download/${id}/parquet`, key: 'desk', headers: { range: 'bytes=0-99' }, status: 206 },
    { name: 'download range of the json file', path: `/download/${id}/json`, key: 'desk', headers: { range: 'bytes=10-' }, status: 206 },
    { name: 'download not modified', path: `/download/${id}/manifest`, key: 'desk', headers: { 'if-none-match': '$ETAG' }, status: 304 },
    { name: 'download range outside the file', path: `/download/${id}/csv`, key: 'desk', headers: { range: 'bytes=999999999-' }, status: 416 },
    { name: 'no key', path: '/catalog', status: 401 },
    { name: 'revoked key', path: '/releases', key: 'revoked', status: 401 },
    { name: 'audit key', path: '/research/catalog', key: 'audit', status: 401 },
    { name: 'key in the query string', path: '/releases?api_key=rdw_sk_x', key: 'desk', status: 401 },
    { name: 'free key on the paid scope', path: '/catalog', key: 'free', status: 403 },
    { name: 'lapsed plan on rows', path: `/rows/${id}`, key: 'lapsed', status: 403 },
    { name: 'key over the allowance after a downgrade', path: '/research/catalog', key: 'downgradedExtra', status: 403 },
    { name: 'unknown release rows', path: `/rows/${ZERO_ID}`, key: 'desk', status: 404 },
    { name: 'unknown release download', path: `/download/${ZERO_ID}/parquet`, key: 'desk', status: 404 },
    { name: 'old release without bundled schema', path: '/download/$OLD/schema', key: 'desk', status: 404 },
    { name: 'unknown research dataset', path: '/research/no-such-dataset', key: 'free', status: 404 },
    { name: 'unknown live page', path: '/api/research/live/no-such-page', under: 'site', status: 404 },
    { name: 'lowercase symbol', path: `/rows/${id}?symbol=btcusdt`, key: 'desk', status: 422 },
    { name: 'unknown sample_type', path: `/rows/${id}?sample_type=signal`, key: 'desk', status: 422 },
    { name: 'rows limit 0', path: `/rows/${id}?limit=0`, key: 'desk', status: 422 },
    { name: 'rows offset above 100000', path: `/rows/${id}?offset=100001`, key: 'desk', status: 422 },
    { name: 'releases limit 101', path: '/releases?limit=101', key: 'desk', status: 422 },
    { name: 'row filter on a research snapshot', path: '/research/market-breadth?symbol=BTCUSDT', key: 'free', status: 422 },
    { name: 'row filter on a live page', path: '/api/research/live/market-breadth?symbol=BTCUSDT', under: 'site', status: 422 },
    { name: 'key in the URL of a public page', path: '/api/research/live/market-breadth?key=abc', under: 'site', status: 401, documented: false },
  ];
}

let validator: OpenApiValidator;

const fill = (text: string): string => text.replace('$ID', current.id).replace('$OLD', schemaless.id).replace('$ETAG', etag);

async function ask(target: MockServer, testCase: Case): Promise<{ url: string; answer: Answer }> {
  const url = `${testCase.under === 'site' ? target.siteUrl : target.baseUrl}${fill(testCase.path)}`;
  const headers = Object.fromEntries(Object.entries(testCase.headers ?? {}).map(([name, value]) => [name, fill(value)]));
  const answer = await get(url, testCase.key === undefined ? undefined : target.keys[testCase.key], { headers });
  return { url, answer };
}

function expectConforms(url: string, answer: Answer, testCase: Pick<Case, 'status' | 'documented'>): void {
  expectConformsWith(validator, url, answer, testCase);
}

function expectConformsWith(judge: OpenApiValidator, url: string, answer: Answer, testCase: Pick<Case, 'status' | 'documented'>): void {
  expect(answer.status).toBe(testCase.status);
  const verdict = judge.check(url, answer);
  expect(verdict.problems).toEqual([]);
  expect(verdict.documented).toBe(testCase.documented ?? true);
}

describe('the mock against the OpenAPI document', () => {
  beforeAll(() => {
    validator = new OpenApiValidator(openApiDocument({ baseUrl: server.baseUrl, siteUrl: server.siteUrl }));
  });

  it.each(cases().map((testCase) => [testCase.name, testCase] as const))('%s conforms', async (_name, testCase) => {
    const { url, answer } = await ask(server, testCase);
    expectConforms(url, answer, testCase);
  });

  it('serves at {base_url}/openapi.json the generated document, valid OpenAPI 3.1, with its own address as server defaults', async () => {
    const answer = await get(`${server.baseUrl}${OPENAPI_DOCUMENT_PATH}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(openApiDocument({ baseUrl: server.baseUrl, siteUrl: server.siteUrl }));
    const result = await new Validator().validate(answer.json as object);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('refuses a key in the URL of the document too (401)', async () => {
    expect((await get(`${server.baseUrl}${OPENAPI_DOCUMENT_PATH}?token=rdw_sk_abc`)).status).toBe(401);
  });
});

describe('the mock at its limits against the OpenAPI document', () => {
  let edgeValidator: OpenApiValidator;
  let edgeRelease: Release;
  beforeAll(async () => {
    edgeValidator = new OpenApiValidator(openApiDocument({ baseUrl: edge.baseUrl, siteUrl: edge.siteUrl }));
    const listed = (await get(`${edge.baseUrl}/releases?limit=1`, edge.keys.desk)).json as { items: Release[] };
    edgeRelease = listed.items[0]!;
  });

  const conforms = async (testCase: Case): Promise<void> => {
    const { url, answer } = await ask(edge, testCase);
    expectConformsWith(edgeValidator, url, answer, testCase);
  };

  it('503 then 413 for a row query the row endpoint cannot serve', async () => {
    await conforms({ name: 'rows unavailable', path: `/rows/${edgeRelease.id}?limit=5`, key: 'desk', status: 503 });
    await conforms({ name: 'rows too large', path: `/rows/${edgeRelease.id}?limit=5`, key: 'desk', status: 413 });
  });

  it('503 for an unavailable file', async () => {
    await conforms({ name: 'csv unavailable', path: `/download/${edgeRelease.id}/csv`, key: 'desk', status: 503 });
  });

  it('429 for the daily byte budget, with Retry-After', async () => {
    const daily = await ask(edge, { name: 'daily bytes', path: `/download/${edgeRelease.id}/parquet`, key: 'researcher', status: 429 });
    expect(daily.answer.headers.get('retry-after')).toMatch(/^\d+$/);
    await conforms({ name: 'daily bytes', path: `/download/${edgeRelease.id}/parquet`, key: 'researcher', status: 429 });
  });

  it('serves the document outside the request window: it neither counts nor is refused; then 429 for the account window', async () => {
    for (let index = 0; index < 3; index += 1) {
      const { url, answer } = await ask(edge, { name: 'document', path: OPENAPI_DOCUMENT_PATH, key: 'free', status: 200 });
      expectConformsWith(edgeValidator, url, answer, { status: 200 });
    }
    expect(edge.admin.usage(edge.accounts.free).requests).toBe(0);
    await conforms({ name: 'first request of the window', path: '/research/catalog', key: 'free', status: 200 });
    await conforms({ name: 'second request of the window', path: '/research/catalog', key: 'free', status: 429 });
  });

  it('429 for the public per-IP window', async () => {
    await conforms({ name: 'first public request', path: '/api/research/live/market-breadth.csv', under: 'site', status: 200 });
    await conforms({ name: 'second public request', path: '/api/research/live/market-breadth', under: 'site', status: 429 });
  });

  it('405 for a method other than GET, with the open error body', async () => {
    const answer = await get(`${edge.baseUrl}/releases`, edge.keys.desk, { method: 'DELETE' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
    expect(edgeValidator.validateComponent('Error', answer.text)).toEqual([]);
  });
});
