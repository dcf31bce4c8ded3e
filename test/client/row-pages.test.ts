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
});
