// Paging /rows when a server leaves out what the spec names (total, has_more, next_offset): every row once,
// in order, without a request past the end; a total that changes between pages is still refused.

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_rows0123456789abcdef0123456789ab';
const id = 'c'.repeat(64);
const ROWS = Array.from({ length: 17 }, (_, i) => ({ row_id: `r${i}` }));

type PageShape = (page: { items: unknown[]; offset: number; limit: number }) => Record<string, unknown>;

describe('row pages from a server that leaves fields out', () => {
  let server: ScriptedServer;
  let client: RdwClient;
  let shape: PageShape;

  beforeEach(async () => {
    server = await startScriptedServer((_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 1e9 } });
      if (url.pathname === `/v1/rows/${id}`) {
        const offset = Number(url.searchParams.get('offset'));
        const limit = Number(url.searchParams.get('limit'));
        return sendJson(res, 200, shape({ items: ROWS.slice(offset, offset + limit), offset, limit }));
      }
      return sendJson(res, 404, {});
    });
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, home: await mkdtemp(join(tmpdir(), 'rdw-rows-')), clock: fakeClock() });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const collect = async (): Promise<string[]> => {
    const ids: string[] = [];
    for await (const page of client.rows(id, { pageSize: 5 })) ids.push(...page.map((row) => String(row.row_id)));
    return ids;
  };
  const rowRequests = () => server.log.filter((entry) => entry.path.startsWith(`/v1/rows/`)).length;

  it.each<[string, PageShape, number]>([
    ['has_more without total', ({ items, offset }) => ({ items, has_more: offset + items.length < 17, next_offset: offset + items.length }), 4],
    ['total without has_more', ({ items, offset }) => ({ items, total: 17, next_offset: offset + items.length }), 4],
    ['only items (a short page ends it)', ({ items }) => ({ items }), 4],
    ['has_more and total but no next_offset', ({ items, offset }) => ({ items, total: 17, has_more: offset + items.length < 17 }), 4],
  ])('reads every row once with %s', async (_name, pageShape, requests) => {
    shape = pageShape;
    expect(await collect()).toEqual(ROWS.map((row) => row.row_id));
    expect(rowRequests()).toBe(requests);
  });

  it('refuses a total that changes between pages rather than mix rows', async () => {
    shape = ({ items, offset }) => ({ items, total: 17 + offset, has_more: true, next_offset: offset + items.length });
    await expect(collect()).rejects.toMatchObject({ code: 'RDW_UNEXPECTED_RESPONSE' });
  });

  // A second independent server's paging (session 34): its next_offset skipped or re-read rows and the client
  // handed out 276 or 876 rows of 476 without a word.
  it.each<[string, PageShape, RegExp]>([
    ['skips rows (next_offset past the page)', ({ items, offset, limit }) => ({ items, total: 17, has_more: offset + limit < 17, next_offset: offset + 2 * limit }), /the page at offset 0 held 5 rows but the next starts at 10, so rows would be skipped/],
    ['repeats rows (next_offset inside the page)', ({ items, offset, limit }) => ({ items, total: 17, has_more: offset + limit < 17, next_offset: offset + 2 }), /the page at offset 0 held 5 rows but the next starts at 2, so rows would be repeated/],
    ['does not advance', ({ items, offset }) => ({ items, total: 17, has_more: true, next_offset: offset }), /the page at offset 0 held 5 rows but the next starts at 0, so rows would be repeated/],
    ['ends before its total', ({ items, offset }) => ({ items, total: 20, has_more: offset + items.length < 17, next_offset: offset + items.length }), /ended after 17 rows of the 20 their total states/],
  ])('refuses a paging that %s, before handing out a row it cannot vouch for', async (_name, pageShape, message) => {
    shape = pageShape;
    const handed: string[] = [];
    const failure = await (async () => {
      for await (const page of client.rows(id, { pageSize: 5 })) handed.push(...page.map((row) => String(row.row_id)));
    })().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'RDW_UNEXPECTED_RESPONSE', message: expect.stringMatching(message) });
    expect((failure as Error).message).toMatch(/^The \/rows pages of release cccccccccccc… .*; download the full release file instead\.$/);
    // Every row handed out before the refusal is a row of the release, once and in order.
    expect(handed).toEqual(ROWS.slice(0, handed.length).map((row) => row.row_id));
  });
});
