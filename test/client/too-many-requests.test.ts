// 429s of a foreign service: without Retry-After a bounded, announced wait (5 s doubling, 60 s at most, within
// retry.maxRetries and retry.maxWaitMs); a daily-byte 429 recognised by its code or its Retry-After size
// (> 120 s) whatever the body, never retried.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/contract/index.js';
import {
  ByteBudgetError,
  RateLimitedError,
  clientMessages,
  createClient,
  type ClientNotice,
  type RdwClient,
  type RetryOptions,
} from '../../src/client/index.js';
import { fakeClock, type FakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_toomany0123456789abcdef012345678';

/** One scripted 429: its Retry-After header (none when undefined) and its body text. */
interface TooMany {
  retryAfter?: string;
  body?: string;
}

describe('429 Too Many Requests', () => {
  let server: ScriptedServer;
  let clock: FakeClock;
  let home: string;
  let notices: ClientNotice[];
  let clients: RdwClient[];
  /** Answers for /v1/schema and downloads, in order; when empty: 200. */
  let queue: (TooMany | 'ok')[];
  const file = Buffer.alloc(20_000, 3);
  const digest = { sha256: createHash('sha256').update(file).digest('hex'), bytes: file.length };
  const id = '9'.repeat(64);

  const client = (retry: RetryOptions = {}): RdwClient => {
    const made = createClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      home,
      clock,
      retry: { random: () => 0, ...retry },
      onNotice: (notice) => notices.push(notice),
    });
    clients.push(made);
    return made;
  };
  const requests = (path: string) => server.log.filter((entry) => entry.path === path).length;
  const waits = () => notices.filter((notice) => notice.kind === 'rate_wait');

  beforeEach(async () => {
    clock = fakeClock(); // 2026-11-01T00:00:00Z: the next UTC midnight is 24 h away
    home = await mkdtemp(join(tmpdir(), 'rdw-429-'));
    notices = [];
    clients = [];
    queue = [];
    server = await startScriptedServer((_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: null } });
      const next = queue.shift() ?? 'ok';
      if (next !== 'ok') {
        // The server's Date is the fake clock's (a Retry-After date is measured against the response's Date).
        const date = new Date(clock.now()).toUTCString();
        res.writeHead(429, next.retryAfter === undefined ? { date } : { 'retry-after': next.retryAfter, date });
        return res.end(next.body ?? '');
      }
      if (url.pathname === '/v1/schema') return sendJson(res, 200, { fields: {} });
      res.writeHead(200, { 'content-length': String(file.length) });
      return res.end(file);
    });
  });
  afterEach(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await server.close();
  });

  it('waits 5 s, then 10 s, without Retry-After, announcing each wait, then succeeds', async () => {
    queue = [{}, {}];
    await client().schema();
    expect(clock.sleeps).toEqual([5_000, 10_000]);
    expect(requests('/v1/schema')).toBe(3);
    expect(waits()).toEqual([
      { kind: 'rate_wait', message: clientMessages.rateWait('/v1/schema', 5_000, 1, 4, false), waitMs: 5_000 },
      { kind: 'rate_wait', message: clientMessages.rateWait('/v1/schema', 10_000, 2, 4, false), waitMs: 10_000 },
    ]);
  });

  it('gives up after retry.maxRetries with RateLimitedError, having waited 75 s in all', async () => {
    queue = Array.from({ length: 10 }, () => ({}));
    const error = await client().schema().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).exitCode).toBe(EXIT_CODES.limit);
    expect(clock.sleeps).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(requests('/v1/schema')).toBe(5);
  });

  it('stops before a wait would pass retry.maxWaitMs (120 s), each single wait at most 60 s', async () => {
    queue = Array.from({ length: 20 }, () => ({}));
    const error = await client({ maxRetries: 10 }).schema().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(60);
    expect(clock.sleeps).toEqual([5_000, 10_000, 20_000, 40_000]);
  });

  it.each([
    ['2', 2_000, true],
    ['1', 1_000, true],
    ['0', 0, false],
  ])('announces a Retry-After of %s s only when the wait is 1 s or more', async (retryAfter, waitMs, announced) => {
    queue = [{ retryAfter }];
    await client().schema();
    expect(clock.slept).toBe(waitMs);
    expect(waits()).toEqual(announced ? [{ kind: 'rate_wait', message: clientMessages.rateWait('/v1/schema', waitMs, 1, 4, true), waitMs }] : []);
  });

  const nextMidnight = new Date(Date.UTC(2026, 10, 2)).toUTCString();
  it.each([
    ['the mock body code, no Retry-After', { body: JSON.stringify({ error: { status: 429, code: 'daily_byte_limit', message: 'used up' } }) }],
    ['a flat code with a short Retry-After', { retryAfter: '30', body: JSON.stringify({ code: 'daily_bytes_exceeded' }) }],
    ['an error string', { body: JSON.stringify({ error: 'Daily byte quota reached' }) }],
    ['a plain-text body and Retry-After 121 s', { retryAfter: '121', body: 'Too Many Requests' }],
    ['an empty body and Retry-After of the next UTC midnight (a date)', { retryAfter: nextMidnight }],
    ['an unknown code and Retry-After 3600 s', { retryAfter: '3600', body: JSON.stringify({ error: { code: 'quota_exceeded' } }) }],
  ])('takes a 429 with %s as the daily byte limit: ByteBudgetError, never retried', async (_name, answer) => {
    queue = [answer];
    const error = await client().schema().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ByteBudgetError);
    expect((error as ByteBudgetError).status).toBe(429);
    expect((error as ByteBudgetError).nextUtcDay).toBe('2026-11-02');
    expect((error as ByteBudgetError).exitCode).toBe(EXIT_CODES.limit);
    expect(requests('/v1/schema')).toBe(1);
    expect(clock.slept).toBe(0);
  });

  it('says the service\'s own wait, not the next UTC day, when only a Retry-After short of midnight made it the daily limit', async () => {
    // A second independent server (session 34): a plain 429 with Retry-After 600 on the listing said "try again
    // after 2026-11-02T00:00:00Z", 23 hours past what the service asked.
    queue = [{ retryAfter: '600', body: 'Too Many Requests' }];
    const error = await client().releases({ limit: 5 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ByteBudgetError);
    expect((error as ByteBudgetError).retryAfter).toBe(600);
    expect((error as ByteBudgetError).message).toBe(clientMessages.longRetryAfter('/v1/releases?limit=5', 600, '2026-11-01T00:10:00Z'));
    // With a daily code the day is named, as before.
    queue = [{ retryAfter: '600', body: JSON.stringify({ error: { code: 'daily_byte_limit' } }) }];
    const daily = await client().schema().catch((caught: unknown) => caught);
    expect((daily as ByteBudgetError).message).toBe(clientMessages.byteBudgetServer('/v1/schema', '2026-11-02'));
  });

  it('takes a Retry-After of exactly 120 s without a code as the request rate: waited, retried', async () => {
    queue = [{ retryAfter: '120', body: '{}' }];
    await client().schema();
    expect(clock.sleeps).toEqual([120_000]);
    expect(requests('/v1/schema')).toBe(2);
  });

  it('takes an explicit rate code as the request rate even with a long Retry-After, stopping at the wait cap', async () => {
    queue = [{ retryAfter: '300', body: JSON.stringify({ error: { code: 'rate_limited' } }) }];
    const error = await client().schema().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfter).toBe(300);
    expect(clock.slept).toBe(0);
  });

  it("fails the next command's request at once while an earlier 429's hold is longer than retry.maxWaitMs (no hour-long sleep)", async () => {
    // One command meets a rate 429 that says "retry in an hour": it gives up at once, the key held for an hour.
    queue = [{ retryAfter: '3600', body: JSON.stringify({ error: { code: 'rate_limited' } }) }];
    const first = await client().schema().catch((caught: unknown) => caught);
    expect(first).toBeInstanceOf(RateLimitedError);
    // The next command (a new client of the same key and home), the server healthy again: not sent, not slept.
    const sentBefore = requests('/v1/schema');
    const second = await client().schema().catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(RateLimitedError);
    expect((second as RateLimitedError).retryAfter).toBe(3600);
    expect((second as RateLimitedError).exitCode).toBe(EXIT_CODES.limit);
    // (its first request is the account's limits, /v1/catalog: held the same)
    expect((second as RateLimitedError).message).toBe(clientMessages.rateHeld('/v1/catalog', 3600, '2026-11-01T01:00:00Z'));
    expect(requests('/v1/schema')).toBe(sentBefore);
    expect(clock.slept).toBe(0);
    expect(notices.filter((notice) => notice.kind === 'pace_wait')).toEqual([]);
    // Once the hold has passed, the same request goes through.
    await clock.sleep(3_600_000);
    await client().schema();
    expect(requests('/v1/schema')).toBe(sentBefore + 1);
  });

  it.each([
    ['reaches the next UTC midnight', '86400', 0],
    ['is 10 minutes (today stays open)', '600', 1],
  ])('marks today used up only when the daily 429 says so or its Retry-After %s', async (_name, retryAfter, laterRequests) => {
    const dir = await mkdtemp(join(tmpdir(), 'rdw-429-dl-'));
    const api = client();
    queue = [{ retryAfter }];
    const error = await api.download(id, 'parquet', join(dir, 'a.parquet'), { expected: digest }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ByteBudgetError);
    const path = `/v1/download/${id}/parquet`;
    expect(requests(path)).toBe(1);
    await api.download(id, 'parquet', join(dir, 'b.parquet'), { expected: digest }).catch(() => undefined);
    expect(requests(path)).toBe(1 + laterRequests);
    expect((await readdir(dir)).filter((name) => name.startsWith('a.parquet'))).toEqual([]);
  });
});
