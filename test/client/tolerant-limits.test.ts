// Paid /catalog limits in any shape, or none: rdw reads what it can, assumes the spec's plan table for
// the rest (60 rpm, byte budget unknown, keys unknown), says so once, and a 401/403 still stops a paid call.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuthError, EXIT_CODES } from '../../src/contract/index.js';
import {
  ByteBudgetError,
  ForbiddenError,
  UnauthorizedError,
  clientMessages,
  createClient,
  type ClientNotice,
  type RdwClient,
} from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_limits0123456789abcdef0123456789';
const GiB = 2 ** 30;

describe('account limits from a foreign /catalog', () => {
  let server: ScriptedServer;
  let home: string;
  let notices: ClientNotice[];
  const clients: RdwClient[] = [];
  const client = (): RdwClient => {
    const made = createClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      home,
      clock: fakeClock(),
      retry: { random: () => 0, maxRetries: 0 },
      onNotice: (notice) => notices.push(notice),
    });
    clients.push(made);
    return made;
  };
  const catalogWith = (body: unknown) => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, body);
      if (url.pathname === '/v1/releases') return sendJson(res, 200, { items: [] });
      return sendJson(res, 404, { error: { status: 404, code: 'not_found', message: 'unknown' } });
    };
  };
  const requested = (path: string) => server.log.filter((entry) => entry.path.startsWith(path)).length;

  beforeEach(async () => {
    server = await startScriptedServer();
    home = await mkdtemp(join(tmpdir(), 'rdw-limits-'));
    notices = [];
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((made) => made.close()));
    await server.close();
  });

  it.each([
    ['the spec shape', { datasets: [], limits: { keys: 5, rpm: 300, daily_bytes: 5 * GiB } }, { keys: 5, rpm: 300, daily_bytes: 5 * GiB, source: 'reported', origin: '/catalog' }, 0],
    ['numbers as strings and sizes', { limits: { keys: '1', rpm: '300/min', daily_bytes: '1 GiB' } }, { keys: 1, rpm: 300, daily_bytes: GiB, source: 'reported' }, 0],
    ['a decimal size (GB read as 10^9)', { limits: { rpm: 60, daily_bytes: '5GB/day', keys: 1 } }, { daily_bytes: 5e9 }, 0],
    [
      'nested and renamed fields',
      { limits: { requests: { per_minute: 120 }, bytes: { per_day: 2 * GiB }, api_keys: { max: 2 } } },
      { keys: 2, rpm: 120, daily_bytes: 2 * GiB, source: 'reported' },
      0,
    ],
    [
      'renamed fields at the top level (no `limits`)',
      { datasets: [{ id: 'market-events-v1', rows: 12 }], requests_per_minute: 90, daily_byte_limit: 1000, max_keys: 1 },
      { keys: 1, rpm: 90, daily_bytes: 1000, source: 'reported' },
      0,
    ],
    [
      'usage counters beside the allowances',
      { limits: { rate_limit: { limit: 300, remaining: 3, reset: 1_800_000_000 }, daily_bytes: { limit: 4096, used: 4000 }, keys: 5 } },
      { keys: 5, rpm: 300, daily_bytes: 4096 },
      0,
    ],
    ['a list of name/value pairs', { limits: [{ name: 'rpm', value: 90 }, { name: 'daily_bytes', value: 2048 }, { name: 'keys', value: 1 }] }, { rpm: 90, daily_bytes: 2048, keys: 1 }, 0],
    ['daily_bytes null', { limits: { keys: 1, rpm: 600, daily_bytes: null } }, { keys: 1, rpm: 600, daily_bytes: undefined, source: 'reported', origin: '/catalog' }, 1],
    ['no limits at all', { datasets: [] }, { keys: undefined, rpm: 60, daily_bytes: undefined, source: 'assumed', origin: '/catalog gave no readable limits' }, 1],
    ['limits null', { datasets: [], limits: null }, { keys: undefined, rpm: 60, daily_bytes: undefined, source: 'assumed' }, 1],
    ['limits as a word', { limits: 'unlimited' }, { rpm: 60, daily_bytes: undefined, source: 'assumed' }, 1],
    ['a byte limit but no rate', { limits: { daily_bytes: 1000 } }, { keys: undefined, rpm: 60, daily_bytes: 1000, source: 'assumed' }, 1],
  ])('reads %s', async (_name, body, expected, noticeCount) => {
    catalogWith(body);
    const limits = await client().limits();
    expect(limits).toMatchObject(expected);
    expect(notices).toHaveLength(noticeCount);
    for (const notice of notices) expect(notice.kind).toBe('limits_assumed');
  });

  it('says once per client what it assumed, however often the limits are used', async () => {
    catalogWith({ datasets: [] });
    const api = client();
    await api.limits();
    await api.releases();
    await api.catalog();
    await api.limits();
    expect(notices).toEqual([{ kind: 'limits_assumed', message: clientMessages.limitsAssumed('/catalog gave no readable limits', 60) }]);
    expect(requested('/v1/catalog')).toBe(2); // one for the limits, one for catalog() itself
  });

  it.each([
    ['404', 404, '/catalog answered 404'],
    ['500', 500, '/catalog answered 500'],
    ['405', 405, '/catalog answered 405'],
  ])('assumes the plan table when /catalog answers %s, and the paid call goes on', async (_name, status, origin) => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/releases') return sendJson(res, 200, { items: [] });
      return sendJson(res, status, { message: 'no' });
    };
    const api = client();
    expect(await api.releases()).toEqual([]);
    expect(await api.limits()).toEqual({ keys: undefined, rpm: 60, daily_bytes: undefined, source: 'assumed', origin });
    expect(notices.map((notice) => notice.message)).toEqual([clientMessages.limitsAssumed(origin, 60)]);
  });

  it('assumes the plan table when /catalog is not JSON', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>catalog</html>');
    };
    expect(await client().limits()).toMatchObject({ rpm: 60, source: 'assumed', origin: '/catalog was not readable JSON' });
  });

  it('reports a 401 on /catalog as UnauthorizedError (exit 4) before anything else is read', async () => {
    server.handler = (_req, res) => sendJson(res, 401, { error: 'invalid key' });
    const api = client();
    for (const call of [() => api.releases(), () => api.limits(), () => api.manifest('a'.repeat(64))]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as AuthError).exitCode).toBe(EXIT_CODES.auth);
    }
    expect(server.log.map((entry) => entry.path)).toEqual(['/v1/catalog', '/v1/catalog', '/v1/catalog']);
  });

  it('stops every paid call on a 403 from /catalog (exit 4), sending nothing else; limits() falls back to /research/catalog', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/research/catalog') return sendJson(res, 200, { scope: 'free', datasets: [], limits: { keys: 1, rpm: 60, daily_bytes: 0 } });
      return sendJson(res, 403, { error: { status: 403, code: 'plan_required', message: 'no plan' } });
    };
    const api = client();
    const dir = await mkdtemp(join(tmpdir(), 'rdw-limits-dl-'));
    const calls = [
      () => api.releases(),
      () => api.manifest('a'.repeat(64)),
      () => api.download('a'.repeat(64), 'parquet', join(dir, 'x.parquet'), { expected: { sha256: 'f'.repeat(64), bytes: 10 } }),
      async () => {
        for await (const page of api.rows('a'.repeat(64))) void page;
      },
    ];
    for (const call of calls) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).exitCode).toBe(EXIT_CODES.auth);
    }
    expect(new Set(server.log.map((entry) => entry.path))).toEqual(new Set(['/v1/catalog']));
    expect(await readdir(dir)).toEqual([]);
    expect(await api.limits()).toEqual({ keys: 1, rpm: 60, daily_bytes: 0, source: 'reported', origin: '/research/catalog' });
  });

  it('throws ForbiddenError from limits() when both catalogs answer 403', async () => {
    server.handler = (_req, res) => sendJson(res, 403, { error: { status: 403, code: 'key_over_allowance', message: 'over' } });
    const error = await client().limits().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as ForbiddenError).apiCode).toBe('key_over_allowance');
  });

  it('assumes the free plan when a key without a plan finds no readable /research/catalog limits', async () => {
    server.handler = (_req, res, url) => {
      if (url.pathname === '/v1/research/catalog') return sendJson(res, 200, { datasets: [] });
      return sendJson(res, 403, { error: { status: 403, code: 'plan_required', message: 'no plan' } });
    };
    expect(await client().limits()).toEqual({ keys: 1, rpm: 60, daily_bytes: 0, source: 'assumed', origin: '/research/catalog gave no readable limits' });
    expect(notices.map((notice) => notice.kind)).toEqual(['limits_assumed']);
  });

  describe('with daily_bytes unknown', () => {
    const file = Buffer.alloc(50_000, 7);
    const digest = { sha256: createHash('sha256').update(file).digest('hex'), bytes: file.length };
    const id = 'c'.repeat(64);
    let daily429: { retryAfter: string | undefined; body: string } | undefined;
    beforeEach(() => {
      daily429 = undefined;
      server.handler = (_req, res, url) => {
        if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { rpm: 600, daily_bytes: null, keys: 1 } });
        if (url.pathname === `/v1/download/${id}/parquet`) {
          if (daily429 !== undefined) {
            res.writeHead(429, daily429.retryAfter === undefined ? {} : { 'retry-after': daily429.retryAfter });
            return res.end(daily429.body);
          }
          res.writeHead(200, { 'content-length': String(file.length) });
          return res.end(file);
        }
        return sendJson(res, 404, {});
      };
    });

    it('does no local pre-check: a download of any size is sent', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rdw-limits-dl-'));
      const api = client();
      expect(await api.download(id, 'parquet', join(dir, 'a.parquet'), { expected: digest })).toEqual(digest);
      // Far more than any plan's daily bytes: still no local refusal (the service decides).
      const huge = { sha256: digest.sha256, bytes: 64 * GiB };
      await api.download(id, 'parquet', join(dir, 'b.parquet'), { expected: huge }).catch(() => undefined);
      expect(requested(`/v1/download/${id}/parquet`)).toBe(2);
    });

    it("stops on the service's daily 429 and then refuses later downloads that day without a request", async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rdw-limits-dl-'));
      const api = client();
      daily429 = { retryAfter: '86400', body: 'Too Many Requests' };
      const error = await api.download(id, 'parquet', join(dir, 'a.parquet'), { expected: digest }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ByteBudgetError);
      expect((error as ByteBudgetError).status).toBe(429);
      expect((error as ByteBudgetError).exitCode).toBe(EXIT_CODES.limit);
      daily429 = undefined;
      const again = await api.download(id, 'parquet', join(dir, 'b.parquet'), { expected: digest }).catch((caught: unknown) => caught);
      expect(again).toBeInstanceOf(ByteBudgetError);
      expect((again as ByteBudgetError).status).toBeUndefined();
      expect(requested(`/v1/download/${id}/parquet`)).toBe(1);
      expect(await readdir(dir)).toEqual([]);
    });
  });
});
