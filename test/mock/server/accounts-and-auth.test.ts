// Seeded accounts, keys and the 401/403/409 rows of the spec's Errors table, over real HTTP.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, API_ERROR_CODES } from '../../../src/contract/index.js';
import { KeySlotsFullError, MockError, SEEDED_KEY_NAMES, startMockServer, type MockServer } from '../../../src/mock/index.js';
import { errorOf, get } from './http.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ days: 3 });
});
afterAll(async () => {
  await server.close();
});

const research = () => `${server.baseUrl}/research/catalog`;
const paid = () => `${server.baseUrl}/catalog`;

describe('seeded keys', () => {
  it('has every seeded key: the fixed prefix plus 32 base62 characters, all distinct', () => {
    expect(Object.keys(server.keys).sort()).toEqual([...SEEDED_KEY_NAMES].sort());
    const pattern = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{32}$`);
    for (const key of Object.values(server.keys)) expect(key).toMatch(pattern);
    expect(new Set(Object.values(server.keys)).size).toBe(SEEDED_KEY_NAMES.length);
  });

  it('derives the keys from the seed: same seed, same keys; another seed, other keys', async () => {
    const same = await startMockServer({ days: 1 });
    const other = await startMockServer({ days: 1, seed: 2 });
    try {
      expect(same.keys).toEqual(server.keys);
      expect(other.keys.researcher).not.toBe(server.keys.researcher);
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });

  // name -> [research status, paid status, error code or undefined]
  const table: [string, number, number, string | undefined][] = [
    ['free', 200, 403, 'plan_required'],
    ['researcher', 200, 200, undefined],
    ['desk', 200, 200, undefined],
    ['lapsed', 200, 403, 'plan_required'],
    ['downgradedFirst', 200, 200, undefined],
    ['downgradedExtra', 403, 403, 'key_over_allowance'],
    ['revoked', 401, 401, 'unauthorized'],
    ['audit', 401, 401, 'unauthorized'],
  ];
  it.each(table)('%s key: research %i, paid %i', async (name, researchStatus, paidStatus, code) => {
    const key = server.keys[name as keyof typeof server.keys];
    const free = await get(research(), key);
    const catalog = await get(paid(), key);
    expect(free.status).toBe(researchStatus);
    expect(catalog.status).toBe(paidStatus);
    if (code !== undefined) {
      const failed = catalog;
      expect(errorOf(failed)).toMatchObject({ status: paidStatus, code });
      expect(API_ERROR_CODES[errorOf(failed).code]).toBe(paidStatus);
    } else {
      expect(catalog.json).toMatchObject({ datasets: [{ id: 'market-events-v1' }] });
    }
  });

  it('reports each plan\'s limits in both catalogs', async () => {
    const researcher = (await get(paid(), server.keys.researcher)).json as { limits: unknown };
    const desk = (await get(paid(), server.keys.desk)).json as { limits: unknown };
    const free = (await get(research(), server.keys.free)).json as { limits: unknown };
    expect(researcher.limits).toEqual({ keys: 1, rpm: 60, daily_bytes: 1024 ** 3 });
    expect(desk.limits).toEqual({ keys: 5, rpm: 300, daily_bytes: 5 * 1024 ** 3 });
    expect(free.limits).toEqual({ keys: 1, rpm: 60, daily_bytes: 0 });
  });
});

describe('401: missing, wrong, revoked, audit, quoted, in the URL', () => {
  const headerCases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['an empty header', { authorization: '' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a wrong key of the right shape', { authorization: `Bearer ${API_KEY_PREFIX}${'a'.repeat(32)}` }],
    ['a key without the prefix', { authorization: `Bearer ${'a'.repeat(39)}` }],
    ['the displayed short form', { authorization: `Bearer ${API_KEY_PREFIX}abcd...` }],
    ['Bearer without a value', { authorization: 'Bearer ' }],
  ];
  it.each(headerCases)('refuses %s', async (_name, headers) => {
    const answer = await get(research(), undefined, { headers });
    expect(answer.status).toBe(401);
    expect(errorOf(answer).code).toBe('unauthorized');
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses a quoted key, single or double quotes, and a key with extra spaces', async () => {
    for (const value of [`Bearer "${server.keys.researcher}"`, `Bearer '${server.keys.researcher}'`, `Bearer  ${server.keys.researcher}`, `Bearer ${server.keys.researcher} x`]) {
      const answer = await get(research(), undefined, { headers: { authorization: value } });
      expect(answer.status, value.replace(server.keys.researcher, 'KEY')).toBe(401);
    }
  });

  it('accepts the scheme name in any letter case', async () => {
    expect((await get(research(), undefined, { headers: { authorization: `bearer ${server.keys.researcher}` } })).status).toBe(200);
  });

  it('refuses a key in the query string even with a valid header', async () => {
    for (const query of ['key', 'api_key', 'apikey', 'token', 'access_token', 'API_KEY']) {
      const answer = await get(`${server.baseUrl}/catalog?${query}=${server.keys.desk}`, server.keys.desk);
      expect(answer.status, query).toBe(401);
      expect(errorOf(answer).code).toBe('unauthorized');
    }
    const hidden = await get(`${server.baseUrl}/releases?limit=1&x=${server.keys.desk}`, server.keys.desk);
    expect(hidden.status).toBe(401);
  });

  it('never writes a key into the request log', () => {
    const text = JSON.stringify(server.requestLog);
    for (const key of Object.values(server.keys)) expect(text).not.toContain(key);
    expect(server.requestLog.some((entry) => entry.path.includes('[redacted]'))).toBe(true);
  });
});

describe('admin API', () => {
  it('creates accounts and keys, 409 when the slots are full, and revokes', async () => {
    const account = server.admin.createAccount('researcher');
    const key = server.admin.createKey(account, 'laptop');
    expect((await get(paid(), key)).status).toBe(200);
    const error = (() => {
      try {
        server.admin.createKey(account, 'second');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(KeySlotsFullError);
    expect(error).toBeInstanceOf(MockError);
    expect((error as KeySlotsFullError).status).toBe(409);
    expect((error as KeySlotsFullError).code).toBe('RDW_MOCK_KEY_SLOTS_FULL');
    expect(server.admin.revokeKey(key)).toBe(true);
    expect((await get(paid(), key)).status).toBe(401);
    // a revoked key frees its slot
    const replacement = server.admin.createKey(account, 'replacement');
    expect((await get(paid(), replacement)).status).toBe(200);
    expect(server.admin.revokeKey(`${API_KEY_PREFIX}${'z'.repeat(32)}`)).toBe(false);
  });

  it('the seeded desk account holds all five keys: a sixth is refused', () => {
    expect(() => server.admin.createKey(server.accounts.desk, 'sixth')).toThrow(KeySlotsFullError);
  });

  it('downgrade: keys beyond the new allowance get 403; the first keeps paid and free access; upgrade restores', async () => {
    const account = server.admin.createAccount('desk');
    const first = server.admin.createKey(account, 'a');
    const second = server.admin.createKey(account, 'b');
    server.admin.changePlan(account, 'researcher');
    expect((await get(paid(), first)).status).toBe(200);
    expect(errorOf(await get(paid(), second))).toMatchObject({ status: 403, code: 'key_over_allowance' });
    expect((await get(research(), second)).status).toBe(403);
    server.admin.changePlan(account, 'free');
    expect(errorOf(await get(paid(), first))).toMatchObject({ status: 403, code: 'plan_required' });
    expect((await get(research(), first)).status).toBe(200);
    server.admin.changePlan(account, 'desk');
    expect((await get(paid(), second)).status).toBe(200);
  });

  it('counts requests per account', async () => {
    const account = server.admin.createAccount('free');
    const key = server.admin.createKey(account);
    await get(research(), key);
    await get(`${server.baseUrl}/research/market-breadth`, key);
    expect(server.admin.usage(account)).toEqual({ requests: 2, bytesToday: 0 });
  });
});
