// Every endpoint of the spec answers with its documented shape; unknown paths 404; non-GET 405.

import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, RELEASE_ID_PATTERN, RESEARCH_DATASETS, SYMBOLS, schemaDocument, type Release } from '../../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { errorOf, get, raw } from './http.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ days: 21 });
});
afterAll(async () => {
  await server.close();
});

describe('free Research scope', () => {
  it('lists every Research dataset with same-origin JSON and CSV paths', async () => {
    const catalog = (await get(`${server.baseUrl}/research/catalog`, server.keys.free)).json as {
      scope: string;
      datasets: { id: string; json_url: string; csv_url: string }[];
      limitations: string[];
    };
    expect(catalog.datasets.map((d) => d.id)).toEqual(RESEARCH_DATASETS.map((d) => d.id));
    expect(catalog.scope.length).toBeGreaterThan(0);
    expect(catalog.limitations.length).toBeGreaterThan(0);
    for (const dataset of catalog.datasets) {
      const json = await get(`${server.siteUrl}${dataset.json_url}`, server.keys.free);
      expect(json.status).toBe(200);
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
      expect(json.json).toMatchObject({ key: dataset.id, calculation_version: expect.any(String), stale: expect.any(Boolean) });
      const csv = await get(`${server.siteUrl}${dataset.csv_url}`, server.keys.free);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const spec = RESEARCH_DATASETS.find((d) => d.id === dataset.id)!;
      expect(csv.text.split('\n')[0]).toBe(spec.columns.map((c) => c.name).join(','));
      expect(csv.text.trimEnd().split('\n').length - 1).toBe((json.json as { items: unknown[] }).items.length);
    }
  });

  it('answers a stale snapshot with 200 and stale: true kept in the body', async () => {
    const stale: string[] = [];
    for (const dataset of RESEARCH_DATASETS) {
      const answer = await get(`${server.baseUrl}/research/${dataset.id}`, server.keys.free);
      expect(answer.status).toBe(200);
      if ((answer.json as { stale: boolean }).stale) stale.push(dataset.id);
    }
    // listing-calendar is updated by hand and lags: at the default clock at least one snapshot is stale.
    expect(stale.length).toBeGreaterThan(0);
  });

  it('404s an unknown dataset and refuses row filters (422)', async () => {
    expect(errorOf(await get(`${server.baseUrl}/research/nope`, server.keys.free))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await get(`${server.baseUrl}/research/market-breadth?symbol=BTCUSDT`, server.keys.free))).toMatchObject({
      status: 422,
      code: 'invalid_parameter',
      parameter: 'symbol',
    });
  });
});

describe('public live scope', () => {
  it('serves live pages as JSON and CSV without a key, under the site URL', async () => {
    const pages = RESEARCH_DATASETS.filter((d) => d.live_page_key);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      const json = await get(`${server.siteUrl}/api/research/live/${page.live_page_key}`);
      expect(json.status).toBe(200);
      expect(json.json).toMatchObject({ key: page.id });
      const csv = await get(`${server.siteUrl}/api/research/live/${page.live_page_key}.csv`);
      expect(csv.status).toBe(200);
      expect(csv.text.startsWith(page.columns[0]!.name)).toBe(true);
    }
    expect((await get(`${server.siteUrl}/api/research/live/volatility-regime`)).status).toBe(404);
    expect((await get(`${server.siteUrl}/api/research/live/nope.csv`)).status).toBe(404);
    expect((await get(`${server.baseUrl}/api/research/live/market-breadth`)).status).toBe(404);
  });
});

describe('paid scope', () => {
  it('/catalog gives coverage, symbols, freshness and the account limits', async () => {
    const catalog = (await get(`${server.baseUrl}/catalog`, server.keys.researcher)).json as {
      datasets: { id: string; symbols: string[]; first_day: string; last_day: string; days: number; freshness: { latest_generated_at: number } }[];
    };
    const [dataset] = catalog.datasets;
    expect(dataset).toMatchObject({ id: 'market-events-v1', symbols: [...SYMBOLS], days: 21 });
    expect(dataset!.first_day < dataset!.last_day).toBe(true);
    expect(dataset!.freshness.latest_generated_at).toBeGreaterThan(0);
  });

  it('/schema is the current schema document', async () => {
    const answer = await get(`${server.baseUrl}/schema`, server.keys.researcher);
    expect(answer.json).toEqual(schemaDocument());
  });

  it('/releases lists one current release per day, newest first; default limit 20; limit 1-100', async () => {
    const all = (await get(`${server.baseUrl}/releases?limit=100`, server.keys.researcher)).json as { items: Release[] };
    expect(all.items).toHaveLength(21);
    const days = all.items.map((r) => r.day);
    expect(days).toEqual([...days].sort().reverse());
    expect(new Set(days).size).toBe(21);
    for (const release of all.items) expect(release.id).toMatch(RELEASE_ID_PATTERN);
    const defaults = (await get(`${server.baseUrl}/releases`, server.keys.researcher)).json as { items: Release[] };
    expect(defaults.items).toEqual(all.items.slice(0, 20));
    const one = (await get(`${server.baseUrl}/releases?limit=1`, server.keys.researcher)).json as { items: Release[] };
    expect(one.items).toEqual(all.items.slice(0, 1));
  });

  it.each(['0', '101', '-1', '1.5', '1e1', 'abc', '', ' 5', '+5', '0x10', '99999999999'])('/releases?limit=%j is 422', async (value) => {
    const answer = await get(`${server.baseUrl}/releases?limit=${encodeURIComponent(value)}`, server.keys.researcher);
    expect(errorOf(answer)).toMatchObject({ status: 422, code: 'invalid_parameter', parameter: 'limit' });
  });

  it('/releases refuses date-range and offset parameters (422)', async () => {
    for (const query of ['offset=1', 'from=2026-10-01', 'limit=5&limit=6']) {
      expect(errorOf(await get(`${server.baseUrl}/releases?${query}`, server.keys.researcher)).status).toBe(422);
    }
  });
});

describe('routing', () => {
  it('derives its routes from the spec: every endpoint path answers something other than 404 or 405', async () => {
    const [release] = ((await get(`${server.baseUrl}/releases?limit=1`, server.keys.desk)).json as { items: Release[] }).items;
    const fill = (path: string) =>
      path
        .replace('<DATASET_ID>', 'market-breadth')
        .replace('<PAGE_KEY>', 'market-breadth')
        .replace('<RELEASE_ID>', release!.id)
        .replace('<FORMAT>', 'csv');
    for (const endpoint of ENDPOINTS) {
      const base = endpoint.scope === 'public' ? server.siteUrl : server.baseUrl;
      const answer = await get(`${base}${fill(endpoint.path)}`, server.keys.desk);
      expect(answer.status, endpoint.name).toBe(200);
    }
  });

  it.each([
    '/v1',
    '/v1/',
    '/v1/catalog/',
    '//v1/catalog',
    '/v2/catalog',
    '/v1/CATALOG',
    '/v1/releases/x',
    '/v1/rows',
    '/v1/download/abc',
    '/catalog',
    '/',
    '/v1/research',
    '/v1/research/../catalog',
    '/v1/research/%2e%2e',
  ])('%s is 404 not_found', async (path) => {
    const answer = await raw(server.siteUrl, path, { headers: { authorization: `Bearer ${server.keys.desk}` } });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { status: 404, code: 'not_found' } });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s is 405 with Allow: GET', async (method) => {
    const answer = await get(`${server.baseUrl}/catalog`, server.keys.desk, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
    expect(errorOf(answer).code).toBe('method_not_allowed');
  });

  it('CONNECT is 405 with Allow: GET and the error body, not a closed socket', async () => {
    const url = new URL(server.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(`CONNECT ${url.host} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${server.keys.desk}\r\n\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => void (text += chunk));
      socket.once('end', () => resolve(text));
      socket.once('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 405 /);
    expect(head).toMatch(/\r\nallow: GET\r\n/i);
    expect(JSON.parse(body!)).toMatchObject({ error: { status: 405, code: 'method_not_allowed' } });
  });

  it('HEAD is 405 too (every endpoint is GET only)', async () => {
    const response = await fetch(`${server.baseUrl}/catalog`, { method: 'HEAD', headers: { authorization: `Bearer ${server.keys.desk}` } });
    expect(response.status).toBe(405);
  });
});
