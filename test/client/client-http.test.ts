// The client against the embedded mock over real HTTP: scopes, errors, paging, caching, pacing, retries.

import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type Dispatcher } from 'undici';
import { AuthError, LimitError, RdwError, UsageError } from '../../src/contract/index.js';
import {
  ApiNotFoundError,
  ForbiddenError,
  RowQueryTooLargeError,
  UnauthorizedError,
  ValidationError,
  type RdwClient,
} from '../../src/client/index.js';
import { startHarness, type Harness } from './mock-harness.js';
import { keyLeaks } from './key-leaks.js';

describe('client over the mock: scopes and errors', () => {
  let h: Harness;
  let paid: RdwClient;
  let releaseId: string;
  const thrown: unknown[] = [];
  const capture = async (promise: Promise<unknown>): Promise<unknown> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    thrown.push(error);
    return error;
  };

  beforeAll(async () => {
    h = await startHarness({ days: 6 });
    paid = h.client(h.mock.keys.researcher);
    releaseId = (await paid.releases({ limit: 1 }))[0]!.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('lists releases newest first with their file digests', async () => {
    const releases = await paid.releases({ limit: 3 });
    expect(releases).toHaveLength(3);
    expect(releases[0]!.day > releases[1]!.day).toBe(true);
    expect(releases[0]!.files.parquet.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reads the account limits from the paid catalog, and from the research catalog for a free key', async () => {
    expect(await paid.limits()).toMatchObject({ rpm: expect.any(Number), daily_bytes: expect.any(Number), keys: 1 });
    const free = h.client(h.mock.keys.free);
    expect((await free.limits()).daily_bytes).toBe(0);
  });

  it.each([
    ['revoked', UnauthorizedError, 'RDW_UNAUTHORIZED', 401, AuthError],
    ['audit', UnauthorizedError, 'RDW_UNAUTHORIZED', 401, AuthError],
    ['free', ForbiddenError, 'RDW_FORBIDDEN', 403, AuthError],
    ['lapsed', ForbiddenError, 'RDW_FORBIDDEN', 403, AuthError],
    ['downgradedExtra', ForbiddenError, 'RDW_FORBIDDEN', 403, AuthError],
  ] as const)('a %s key is refused on the paid scope with its typed error', async (name, Class, code, status, Family) => {
    const client = h.client(h.mock.keys[name]);
    const error = await capture(client.releases({ limit: 1 }));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(Family);
    expect((error as RdwError).code).toBe(code);
    expect((error as { status: number }).status).toBe(status);
  });

  it('keeps the free scope open to the first key after a downgrade', async () => {
    const client = h.client(h.mock.keys.downgradedFirst);
    expect((await client.research.catalog()).datasets.length).toBeGreaterThan(0);
  });

  it('maps an unknown release to ApiNotFoundError (404)', async () => {
    const error = await capture(paid.manifest('0'.repeat(64)));
    expect(error).toBeInstanceOf(ApiNotFoundError);
    expect((error as ApiNotFoundError).code).toBe('RDW_API_NOT_FOUND');
    expect((error as ApiNotFoundError).status).toBe(404);
  });

  it.each([
    ['a malformed release ID', (c: RdwClient) => c.manifest('not-a-release')],
    ['an unknown format', (c: RdwClient) => c.download('0'.repeat(64), 'xlsx' as never, '/tmp/x')],
    ['a releases limit out of range', (c: RdwClient) => c.releases({ limit: 101 })],
    ['a lowercase symbol', async (c: RdwClient) => c.rows('0'.repeat(64), { symbol: 'btcusdt' })],
    ['a page size out of range', async (c: RdwClient) => c.rows('0'.repeat(64), { pageSize: 501 })],
  ])('refuses %s with UsageError before any request', async (_name, call) => {
    const before = h.log().length;
    const error = await capture((async () => call(paid))());
    expect(error).toBeInstanceOf(UsageError);
    expect(h.log().length).toBe(before);
  });

  it('maps a 422 from the server to ValidationError naming the parameter', async () => {
    // Rewrite a valid query on its way out so that the server itself answers 422.
    const lowercase: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) =>
      dispatch({ ...options, path: options.path.replace('symbol=BTCUSDT', 'symbol=btcusdt') }, handler);
    const client = h.client(h.mock.keys.researcher, { dispatcher: new Agent().compose(lowercase) });
    const error = await capture((async () => {
      for await (const page of client.rows(releaseId, { symbol: 'BTCUSDT' })) void page;
    })());
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('RDW_API_VALIDATION');
    expect((error as ValidationError).status).toBe(422);
    expect((error as ValidationError).parameter).toBe('symbol');
  });

  it('serves the research scope: catalog, snapshot, typed CSV with an Arrow table', async () => {
    const client = h.client(h.mock.keys.free);
    const catalog = await client.research.catalog();
    expect(catalog.datasets.map((d) => d.id)).toContain('market-breadth');
    const snapshot = await client.research.snapshot('market-breadth');
    expect(snapshot.key).toBe('market-breadth');
    expect(typeof snapshot.stale).toBe('boolean');
    const csv = await client.research.csv('market-breadth');
    expect(csv.columns).toContain('price');
    expect(csv.rows.length).toBe(snapshot.items.length);
    expect(csv.table.numRows).toBe(csv.rows.length);
    const priced = csv.rows.find((row) => row.price !== null);
    expect(typeof priced?.price).toBe('number');
    expect(csv.rows.map((row) => row.symbol)).toEqual(snapshot.items.map((item) => item.symbol));
  });

  it('caches a snapshot for refresh_seconds: the second call sends no request', async () => {
    const client = h.client(h.mock.keys.free);
    const first = await client.research.snapshot('funding-pressure');
    const count = () => h.log().filter((entry) => entry.path === '/research/funding-pressure').length;
    const before = count();
    const second = await client.research.snapshot('funding-pressure');
    expect(count()).toBe(before);
    expect(second).toBe(first);
    await h.clock.sleep(first.refresh_seconds * 1000);
    await client.research.snapshot('funding-pressure');
    expect(count()).toBe(before + 1);
  });

  it('surfaces stale: true as sent', async () => {
    const client = h.client(h.mock.keys.free);
    const snapshots = await Promise.all(['market-breadth', 'funding-pressure', 'volatility-regime', 'listing-calendar'].map((id) => client.research.snapshot(id)));
    const raw = await Promise.all(
      snapshots.map(async (s) => {
        const response = await fetch(`${h.mock.baseUrl}/research/${s.key}`, { headers: { authorization: `Bearer ${h.mock.keys.free}` } });
        return ((await response.json()) as { stale: boolean }).stale;
      }),
    );
    expect(snapshots.map((s) => s.stale)).toEqual(raw);
  });

  it('reads the public live scope without sending the key', async () => {
    const seen: (string | undefined)[] = [];
    const spy: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
      const headers = options.headers as Record<string, string> | undefined;
      seen.push(headers?.authorization);
      return dispatch(options, handler);
    };
    const client = h.client(h.mock.keys.researcher, { dispatcher: new Agent().compose(spy) });
    const json = await client.live.json('market-breadth');
    const csv = await client.live.csv('market-breadth');
    expect(json.items.length).toBe(csv.rows.length);
    expect(seen).toHaveLength(2);
    expect(seen.every((value) => value === undefined)).toBe(true);
  });

  it('refuses an oversized row query with RowQueryTooLargeError', async () => {
    const small = await startHarness({ days: 3, limits: { rowQueryMaxRows: 10 } });
    try {
      const client = small.client(small.mock.keys.researcher);
      const [release] = await client.releases({ limit: 1 });
      const error = await capture((async () => {
        for await (const page of client.rows(release!.id)) void page;
      })());
      expect(error).toBeInstanceOf(RowQueryTooLargeError);
      expect(error).toBeInstanceOf(LimitError);
      expect((error as RowQueryTooLargeError).code).toBe('RDW_ROW_QUERY_TOO_LARGE');
      expect([413, 503]).toContain((error as RowQueryTooLargeError).status);
    } finally {
      await small.close();
    }
  });

  it('turns a persistent 503 on /rows into RowQueryTooLargeError after bounded retries', async () => {
    const client = h.client(h.mock.keys.researcher, { retry: { maxRetries: 1, random: () => 0.5 } });
    h.mock.faults.add({ releaseId, format: 'rows', kind: 'status503' });
    try {
      const before = h.log().filter((entry) => entry.path === `/rows/${releaseId}`).length;
      const error = await capture((async () => {
        for await (const page of client.rows(releaseId)) void page;
      })());
      expect(error).toBeInstanceOf(RowQueryTooLargeError);
      expect((error as RowQueryTooLargeError).status).toBe(503);
      expect(h.log().filter((entry) => entry.path === `/rows/${releaseId}`).length - before).toBe(2);
    } finally {
      h.mock.faults.clear();
    }
  });

  it('never puts the key in any thrown error, its causes, or the state files', async () => {
    expect(thrown.length).toBeGreaterThan(8);
    const keys = Object.values(h.mock.keys) as string[];
    for (const error of thrown) expect(keyLeaks(error, keys)).toEqual([]);
    const stateDir = join(h.home, 'state');
    for (const name of await readdir(stateDir)) {
      const text = await readFile(join(stateDir, name), 'utf8');
      for (const key of keys) expect(text).not.toContain(key);
    }
  });
});

describe('client over the mock: paging', () => {
  let h: Harness;
  let client: RdwClient;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness({ days: 4 });
    client = h.client(h.mock.keys.desk);
    dir = await mkdtemp(join(tmpdir(), 'rdw-paging-'));
  });
  afterAll(async () => {
    await h.close();
  });

  it('pages over all rows and equals the JSON download row for row', async () => {
    const [release] = await client.releases({ limit: 1 });
    const id = release!.id;
    const paged = [];
    for await (const page of client.rows(id, { pageSize: 97 })) paged.push(...page);
    await client.download(id, 'json', join(dir, 'r.json'));
    const document = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8')) as { items: unknown[] };
    expect(paged.length).toBe(release!.rows);
    expect(paged).toEqual(document.items);
    const rowRequests = h.log().filter((entry) => entry.path === `/rows/${id}`);
    expect(rowRequests.length).toBe(Math.ceil(release!.rows / 97));
  });

  it('keeps the release ID and filters on every page', async () => {
    const [release] = await client.releases({ limit: 1 });
    const id = release!.id;
    const expected = h.mock.archive.rows(id).filter((row) => row.symbol === 'ETHUSDT' && row.sample_type === 'control');
    const pageSize = Math.max(1, Math.ceil(expected.length / 3));
    const rows = [];
    for await (const page of client.rows(id, { symbol: 'ETHUSDT', sample_type: 'control', pageSize })) rows.push(...page);
    expect(rows.length).toBeGreaterThan(pageSize);
    expect(rows).toEqual(expected);
    const queries = h.log().filter((entry) => entry.path === `/rows/${id}` && entry.query.includes('ETHUSDT'));
    expect(queries.length).toBe(Math.ceil(rows.length / pageSize));
    for (const entry of queries) {
      const query = new URLSearchParams(entry.query);
      expect(query.get('symbol')).toBe('ETHUSDT');
      expect(query.get('sample_type')).toBe('control');
    }
  });
});
