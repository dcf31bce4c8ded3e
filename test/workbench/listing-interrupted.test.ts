// Ctrl-C while a service builds its `/releases` listing (the embedded mock takes seconds for 100 days; a slow
// server longer): the caller's abort signal cuts the listing's request, so a pull or sync stops at once
// instead of after the listing. Over a scripted node:http server (not the mock) that never answers /releases.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/catalog/index.js';
import { AbortedError, type RdwClient } from '../../src/client/index.js';
import { listLatestReleases, pullWanted } from '../../src/workbench/index.js';
import { openScriptedCatalog, type ScriptedCatalog } from '../support/scripted-catalog.js';
import { sendJson, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_listinginterrupted0123456789abcdef';
const LIMITS = { plan: 'desk', rows: 6000, keys: 1, daily_bytes: null, rpm: 6000 };
const ITEM = { id: 'a'.repeat(64), day: '2026-10-31', version: 'mev-calc-7', generated_at: 1_793_000_000 };

describe('a listing cut by the caller', () => {
  let scripted: ScriptedCatalog;
  let api: ScriptedServer;
  let catalog: Catalog;
  let client: RdwClient;
  /** Whether the server saw the client drop the hanging /releases request. */
  let dropped: Promise<void>;
  /** How /releases is answered: hang (until the client drops it) or at once. */
  let hang: boolean;

  beforeEach(async () => {
    hang = true;
    let sawDrop!: () => void;
    dropped = new Promise((resolve) => (sawDrop = resolve));
    scripted = await openScriptedCatalog((req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { limits: LIMITS, datasets: [] });
      if (url.pathname !== '/v1/releases') return sendJson(res, 404, { error: { status: 404, code: 'not_found', message: 'unknown' } });
      if (!hang) return sendJson(res, 200, { items: [ITEM] });
      req.socket.once('close', () => sawDrop());
    }, KEY);
    ({ api, catalog, client } = scripted);
  });
  afterEach(() => scripted.close());

  it('client.releases({ signal }): the abort cuts the request (AbortedError, the connection dropped)', async () => {
    const controller = new AbortController();
    const listing = client.releases({ limit: 100, signal: controller.signal });
    setTimeout(() => controller.abort('SIGINT'), 100);
    await expect(listing).rejects.toBeInstanceOf(AbortedError);
    await dropped;
    expect(api.log.map((entry) => entry.path)).toContain('/v1/releases?limit=100');
  });

  it('listLatestReleases and pullWanted: an interrupt during the listing is an empty listing, nothing recorded', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('SIGINT'), 100);
    await expect(listLatestReleases(catalog, client, 100, { signal: controller.signal })).resolves.toEqual([]);
    await dropped;

    const again = new AbortController();
    setTimeout(() => again.abort('SIGINT'), 100);
    const pulled = await pullWanted(catalog, client, { latest: 100 }, { signal: again.signal });
    expect(pulled.ids).toEqual([]);
    expect(pulled.result).toEqual({ pulled: [], failed: [], notStarted: [] });
    expect(await catalog.query('SELECT count(*)::INTEGER AS n FROM listed_releases')).toEqual([{ n: 0 }]);
  });

  it('without an abort the listing is read and recorded; an error that is not the caller\'s abort still throws', async () => {
    hang = false;
    const controller = new AbortController();
    const listed = await listLatestReleases(catalog, client, 100, { signal: controller.signal });
    expect(listed.map((item) => item.id)).toEqual([ITEM.id]);
    expect(await catalog.query('SELECT id FROM listed_releases')).toEqual([{ id: ITEM.id }]);
    // A failure of the listing itself, with the signal given but not aborted, is the listing's error as before.
    api.handler = (_req, res) => sendJson(res, 404, { error: { status: 404, code: 'not_found', message: 'unknown' } });
    await expect(listLatestReleases(catalog, client, 100, { signal: controller.signal })).rejects.toMatchObject({ code: 'RDW_API_NOT_FOUND' });
  });
});
