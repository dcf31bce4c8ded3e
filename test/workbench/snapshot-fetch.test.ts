// A snapshot the service answers that cannot go into the history of the dataset it was asked for (a second
// independent server's adversary, session 35): one without a numeric generated_at made `rdw sync` exit 2, "usage",
// on every cron run; one whose key named another dataset was filed under that one. Over a scripted node:http server
// (not the mock): the first is the service's fault (UnexpectedResponseError, exit 1) and records nothing, the second
// is refused the same way, and a snapshot without a key is recorded under the ID it was fetched for.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotHistory, type Catalog } from '../../src/catalog/index.js';
import { UnexpectedResponseError, type RdwClient } from '../../src/client/index.js';
import { EXIT_CODES } from '../../src/contract/index.js';
import { snapshotHistoryMethods } from '../../src/workbench/snapshot-history.js';
import { workbenchMessages } from '../../src/workbench/messages.js';
import { openScriptedCatalog, type ScriptedCatalog } from '../support/scripted-catalog.js';
import { sendJson } from '../support/scripted-server.js';

const KEY = 'rdw_sk_snapshotfetch0123456789abcdef01234';

describe('fetchSnapshot: what the service answered, recorded only as the dataset asked for', () => {
  let scripted: ScriptedCatalog;
  let catalog: Catalog;
  let client: RdwClient;
  /** The body /v1/research/<id> answers with. */
  let body: Record<string, unknown>;

  beforeEach(async () => {
    scripted = await openScriptedCatalog((_req, res, url) => {
      if (url.pathname.startsWith('/v1/research/')) return sendJson(res, 200, body);
      return sendJson(res, 404, { error: { status: 404, code: 'not_found', message: 'unknown' } });
    }, KEY);
    ({ catalog, client } = scripted);
  });
  afterEach(() => scripted.close());

  const fetch = (id: string) => snapshotHistoryMethods(catalog, client).fetchSnapshot(id);

  it.each([
    ['without generated_at', { key: 'no-time', items: [] }, 'no-time', 'has no numeric generated_at'],
    ['with generated_at as text', { key: 'text-time', generated_at: '2026-11-01', items: [] }, 'text-time', 'has no numeric generated_at'],
    ['naming another dataset as its key', { key: 'other-key', generated_at: 1_793_491_200, items: [] }, 'mismatch', 'names another dataset, "other-key", as its key'],
  ])('refuses a snapshot %s: the service\'s fault (exit 1), nothing recorded', async (_name, answer, id, why) => {
    body = answer;
    const error = await fetch(id).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).exitCode).toBe(EXIT_CODES.failure);
    expect((error as Error).message).toBe(workbenchMessages.snapshotUnrecordable(id, why));
    expect(await catalog.query('SELECT count(*)::INTEGER AS n FROM snapshots')).toEqual([{ n: 0 }]);
  });

  it('records a snapshot without a key under the ID it was fetched for', async () => {
    body = { generated_at: 1_793_491_200, items: [{ symbol: 'BTCUSDT' }] };
    await expect(fetch('keyless')).resolves.toMatchObject({ recorded: true });
    expect((await snapshotHistory(catalog, 'keyless')).map((entry) => entry.generated_at)).toEqual([1_793_491_200]);
  });
});
