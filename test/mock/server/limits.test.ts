// The Limits table: account-wide rpm (fake rate clock), per-IP public limit, daily byte budget on the data clock.

import { describe, expect, it } from 'vitest';
import type { Release } from '../../../src/contract/index.js';
import { withMockServer } from '../../support/with-mock-server.js';
import { errorOf, get } from './http.js';

/** A fake millisecond clock for the rate windows. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('requests per minute', () => {
  it('refuses the request over the plan rpm with 429 and Retry-After, and admits again after it', async () => {
    const clock = fakeClock();
    await withMockServer({ days: 2, rateClock: clock.now, limits: { researcher: { rpm: 5 } } }, async (server) => {
      const hit = () => get(`${server.baseUrl}/research/catalog`, server.keys.researcher);
      for (let i = 0; i < 5; i += 1) {
        expect((await hit()).status).toBe(200);
        clock.advance(1_000);
      }
      const refused = await hit();
      expect(errorOf(refused)).toMatchObject({ status: 429, code: 'rate_limited' });
      // the first request was at t0; 5 s have passed, so the window frees in 55 s
      expect(refused.headers.get('retry-after')).toBe('55');
      clock.advance(54_000);
      expect((await hit()).status).toBe(429);
      clock.advance(1_000);
      expect((await hit()).status).toBe(200);
    });
  });

  it('is account-wide: two keys of one Research Desk account share the window', async () => {
    const clock = fakeClock();
    await withMockServer({ days: 2, rateClock: clock.now, limits: { desk: { rpm: 4 } } }, async (server) => {
      const account = server.admin.createAccount('desk');
      const first = server.admin.createKey(account, 'a');
      const second = server.admin.createKey(account, 'b');
      const statuses: number[] = [];
      for (const key of [first, second, first, second, second, first]) statuses.push((await get(`${server.baseUrl}/schema`, key)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      // another account is not affected
      expect((await get(`${server.baseUrl}/schema`, server.keys.desk)).status).toBe(200);
      const refused = await get(`${server.baseUrl}/schema`, second);
      expect(Number(refused.headers.get('retry-after'))).toBe(60);
    });
  });

  it('uses the spec plan values by default: 60 for Researcher, 300 for Research Desk', async () => {
    const clock = fakeClock();
    await withMockServer({ days: 2, rateClock: clock.now }, async (server) => {
      const count = async (key: string, attempts: number) => {
        let ok = 0;
        for (let i = 0; i < attempts; i += 1) if ((await get(`${server.baseUrl}/schema`, key)).status === 200) ok += 1;
        return ok;
      };
      expect(await count(server.keys.researcher, 61)).toBe(60);
      expect(await count(server.keys.desk, 301)).toBe(300);
    });
  });

  it('public live endpoints: 60 per minute per IP shared by JSON and CSV, no key needed', async () => {
    const clock = fakeClock();
    await withMockServer({ days: 2, rateClock: clock.now }, async (server) => {
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        const path = i % 2 === 0 ? '/api/research/live/market-breadth' : '/api/research/live/market-breadth.csv';
        statuses.push((await get(`${server.siteUrl}${path}`)).status);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      const refused = await get(`${server.siteUrl}/api/research/live/funding-pressure`);
      expect(errorOf(refused)).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // the key-holding scope has its own, account-wide window
      expect((await get(`${server.baseUrl}/research/catalog`, server.keys.free)).status).toBe(200);
      clock.advance(60_000);
      expect((await get(`${server.siteUrl}/api/research/live/funding-pressure`)).status).toBe(200);
    });
  });
});

describe('daily byte budget', () => {
  it('refuses a file that does not fit with 429 daily_byte_limit before any byte; Retry-After to the next UTC day; advance resets', async () => {
    await withMockServer({ days: 2 }, async (probe) => {
      const [release] = ((await get(`${probe.baseUrl}/releases?limit=1`, probe.keys.researcher)).json as { items: [Release] }).items;
      const budget = release.files.csv.bytes + 100;
      await withMockServer({ days: 2, limits: { researcher: { daily_bytes: budget } } }, async (server) => {
        const csv = `${server.baseUrl}/download/${release.id}/csv`;
        expect((await get(csv, server.keys.researcher)).status).toBe(200);
        expect(server.admin.usage(server.accounts.researcher).bytesToday).toBe(release.files.csv.bytes);
        // 100 bytes left: a 100-byte range fits, the next byte does not
        expect((await get(csv, server.keys.researcher, { headers: { range: 'bytes=0-99' } })).status).toBe(206);
        const refused = await get(csv, server.keys.researcher, { headers: { range: 'bytes=0-0' } });
        expect(errorOf(refused)).toMatchObject({ status: 429, code: 'daily_byte_limit' });
        // data clock 2026-11-01T00:00:00Z: the next UTC day is a whole day away
        expect(refused.headers.get('retry-after')).toBe('86400');
        expect(server.requestLog.at(-1)).toMatchObject({ status: 429, bytes: refused.bytes.length });
        // JSON endpoints do not spend the budget
        expect((await get(`${server.baseUrl}/releases?limit=1`, server.keys.researcher)).status).toBe(200);
        server.advance(6 * 3600);
        const later = await get(csv, server.keys.researcher, { headers: { range: 'bytes=0-0' } });
        expect(later.headers.get('retry-after')).toBe(String(18 * 3600));
        server.advance(18 * 3600);
        expect((await get(csv, server.keys.researcher)).status).toBe(200);
      });
    });
  });

  it('a plan change clears the day\'s budget; the free plan gets 403, not 429', async () => {
    await withMockServer({ days: 2, limits: { researcher: { daily_bytes: 10 } } }, async (server) => {
      const [release] = ((await get(`${server.baseUrl}/releases?limit=1`, server.keys.researcher)).json as { items: [Release] }).items;
      const account = server.admin.createAccount('researcher');
      const key = server.admin.createKey(account);
      const csv = `${server.baseUrl}/download/${release.id}/csv`;
      expect((await get(csv, key, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
      expect((await get(csv, key, { headers: { range: 'bytes=0-0' } })).status).toBe(429);
      server.admin.changePlan(account, 'desk');
      expect((await get(csv, key)).status).toBe(200);
      expect(errorOf(await get(csv, server.keys.free))).toMatchObject({ status: 403, code: 'plan_required' });
    });
  });
});
