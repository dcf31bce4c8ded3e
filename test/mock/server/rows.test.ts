// `/rows/<RELEASE_ID>`: the Row-parameter table (422), paging rules, 404 for unknown/malformed IDs, 413.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYMBOLS, type MarketEventRow, type PagedRows, type Release, type ReleaseDocument } from '../../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { errorOf, get, raw } from './http.js';

let server: MockServer;
let release: Release;
let document: ReleaseDocument;
const rowsUrl = (query = '', id = release.id) => `${server.baseUrl}/rows/${id}${query ? `?${query}` : ''}`;

beforeAll(async () => {
  server = await startMockServer({ days: 3 });
  [release] = ((await get(`${server.baseUrl}/releases?limit=1`, server.keys.desk)).json as { items: [Release] }).items;
  document = (await get(`${server.baseUrl}/download/${release.id}/json`, server.keys.desk)).json as ReleaseDocument;
});
afterAll(async () => {
  await server.close();
});

async function page(query: string): Promise<PagedRows> {
  const answer = await get(rowsUrl(query), server.keys.desk);
  expect(answer.status, query).toBe(200);
  return answer.json as PagedRows;
}

describe('paging', () => {
  it('pages through every row with has_more/next_offset; the pages equal the JSON file items', async () => {
    const rows: MarketEventRow[] = [];
    let offset = 0;
    for (;;) {
      const result = await page(`limit=37&offset=${offset}`);
      expect(result.total).toBe(release.rows);
      rows.push(...result.items);
      if (!result.has_more) {
        expect(result.next_offset).toBeNull();
        break;
      }
      expect(result.next_offset).toBe(offset + 37);
      expect(result.items).toHaveLength(37);
      offset = result.next_offset!;
    }
    expect(rows).toEqual(document.items);
  });

  it('defaults to limit 100, offset 0', async () => {
    const result = await page('');
    expect(result.items).toEqual(document.items.slice(0, 100));
    expect(result.has_more).toBe(release.rows > 100);
  });

  it('filters by symbol and sample_type, totals counting the filtered rows', async () => {
    for (const symbol of SYMBOLS) {
      for (const sampleType of ['event', 'control']) {
        const expected = document.items.filter((row) => row.symbol === symbol && row.sample_type === sampleType);
        const result = await page(`symbol=${symbol}&sample_type=${sampleType}&limit=500`);
        expect(result.total).toBe(expected.length);
        expect(result.items).toEqual(expected.slice(0, 500));
      }
    }
    const controls = await page('sample_type=control&limit=1');
    expect(controls.total).toBe(document.items.filter((row) => row.sample_type === 'control').length);
  });

  it('an offset beyond the total gives an empty page, still a success', async () => {
    const result = await page('offset=100000');
    expect(result).toEqual({ items: [], total: release.rows, has_more: false, next_offset: null });
  });

  it('a filter matching nothing is a valid success with total 0', async () => {
    // A release of a day with no rows of one symbol/sample type combination, when the simulator has one;
    // otherwise the filtered result beyond its end shows the same empty shape.
    const counts = new Map<string, number>();
    for (const row of document.items) counts.set(`${row.symbol}/${row.sample_type}`, (counts.get(`${row.symbol}/${row.sample_type}`) ?? 0) + 1);
    const empty = SYMBOLS.flatMap((symbol) => ['event', 'control'].map((type) => `${symbol}/${type}`)).find((key) => !counts.has(key));
    if (empty) {
      const [symbol, type] = empty.split('/');
      expect(await page(`symbol=${symbol}&sample_type=${type}`)).toEqual({ items: [], total: 0, has_more: false, next_offset: null });
    } else {
      const total = counts.get('DOGEUSDT/event')!;
      expect(await page(`symbol=DOGEUSDT&sample_type=event&offset=${total}`)).toEqual({ items: [], total, has_more: false, next_offset: null });
    }
  });
});

describe('422: every invalid row parameter', () => {
  const cases: [string, string][] = [
    ['symbol=btcusdt', 'symbol'],
    ['symbol=BtcUsdt', 'symbol'],
    ['symbol=ADAUSDT', 'symbol'],
    ['symbol=', 'symbol'],
    ['symbol=BTCUSDT,ETHUSDT', 'symbol'],
    ['sample_type=events', 'sample_type'],
    ['sample_type=EVENT', 'sample_type'],
    ['sample_type=', 'sample_type'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=10.0', 'limit'],
    ['limit=1e2', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=', 'limit'],
    ['limit=%2010', 'limit'],
    ['limit=0x10', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=100001', 'offset'],
    ['offset=2.5', 'offset'],
    ['offset=NaN', 'offset'],
    ['offset=Infinity', 'offset'],
    ['offset=', 'offset'],
    ['limit=5&limit=6', 'limit'],
    ['day=2026-10-31', 'day'],
    ['format=csv', 'format'],
  ];
  it.each(cases)('%s -> 422 naming %s', async (query, parameter) => {
    const answer = await get(rowsUrl(query), server.keys.desk);
    expect(errorOf(answer)).toMatchObject({ status: 422, code: 'invalid_parameter', parameter });
  });

  it('accepts the bounds: limit 1 and 500, offset 0 and 100000', async () => {
    expect((await page('limit=1')).items).toHaveLength(1);
    expect((await page('limit=500')).items.length).toBe(Math.min(500, release.rows));
    expect((await page('offset=0&limit=1')).items).toHaveLength(1);
    expect((await page('offset=100000')).items).toHaveLength(0);
  });
});

describe('404 and 413', () => {
  it('404s an unknown release ID of the right shape', async () => {
    const unknown = 'f'.repeat(64);
    expect(errorOf(await get(rowsUrl('', unknown), server.keys.desk))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it.each(['F'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), '..', 'latest', '%2e%2e%2fetc'])(
    'checks the release ID shape before any lookup: %s is 404',
    async (id) => {
      const answer = await raw(server.siteUrl, `/v1/rows/${id}`, { headers: { authorization: `Bearer ${server.keys.desk}` } });
      expect(answer.status).toBe(404);
    },
  );

  it('answers 413 with the remedy when the filtered result exceeds rowQueryMaxRows', async () => {
    const small = await startMockServer({ days: 3, limits: { rowQueryMaxRows: 10 } });
    try {
      const [latest] = ((await get(`${small.baseUrl}/releases?limit=1`, small.keys.desk)).json as { items: [Release] }).items;
      expect(latest.rows).toBeGreaterThan(10);
      const answer = await get(`${small.baseUrl}/rows/${latest.id}?limit=5`, small.keys.desk);
      expect(errorOf(answer)).toMatchObject({ status: 413, code: 'query_too_large' });
      expect(errorOf(answer).message).toContain(`/download/${latest.id}/`);
      // each filter is judged by its own total: at most 10 rows is served, more is 413
      expect(latest.id).toBe(release.id);
      for (const symbol of SYMBOLS) {
        for (const type of ['event', 'control']) {
          const total = document.items.filter((row) => row.symbol === symbol && row.sample_type === type).length;
          const filtered = await get(`${small.baseUrl}/rows/${latest.id}?symbol=${symbol}&sample_type=${type}&limit=1`, small.keys.desk);
          expect(filtered.status, `${symbol}/${type}: ${total}`).toBe(total > 10 ? 413 : 200);
        }
      }
    } finally {
      await small.close();
    }
  });

  it('a rows fault answers 503, once when limited to one time', async () => {
    server.faults.add({ releaseId: release.id, format: 'rows', kind: 'status503', times: 1 });
    expect(errorOf(await get(rowsUrl('limit=1'), server.keys.desk))).toMatchObject({ status: 503, code: 'unavailable' });
    expect((await get(rowsUrl('limit=1'), server.keys.desk)).status).toBe(200);
  });
});
