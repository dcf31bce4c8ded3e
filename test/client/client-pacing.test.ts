// Pacing and 429 handling with small limits and one fake time source (mock rateClock = client clock).

import { afterEach, describe, expect, it } from 'vitest';
import { LimitError } from '../../src/contract/index.js';
import { RateLimitedError } from '../../src/client/index.js';
import { startHarness, type Harness } from './mock-harness.js';
import { keyLeaks } from './key-leaks.js';

const RPM = 12;

describe('pacing and rate limits', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  /** Fills the server's request window for a key with raw requests (a misbehaving other program). */
  const exhaust = async (key: string) => {
    for (let i = 0; i < RPM + 2; i += 1) {
      const response = await fetch(`${h.mock.baseUrl}/research/catalog`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status === 429) return Number(response.headers.get('retry-after'));
    }
    throw new Error('the mock never answered 429');
  };

  it('sends 120 requests from two clients of one key without a single 429', async () => {
    h = await startHarness({ days: 2, limits: { researcher: { rpm: RPM } } });
    const a = h.client(h.mock.keys.researcher);
    const b = h.client(h.mock.keys.researcher);
    const start = h.clock.now();
    for (let i = 0; i < 60; i += 1) {
      await a.releases({ limit: 1 });
      await b.research.catalog();
    }
    const statuses = h.log().map((entry) => entry.status);
    expect(statuses.filter((status) => status === 429)).toEqual([]);
    expect(statuses.length).toBeGreaterThanOrEqual(120);
    // 12 per minute (the plan's full rate, issue 17): 120+ requests need at least 9 further minutes of fake
    // time, and the limiter takes no more than the 10 windows they fill (60 s + its 250 ms margin each, + 1 s).
    expect(h.clock.now() - start).toBeGreaterThanOrEqual(9 * 60_000);
    expect(h.clock.now() - start).toBeLessThanOrEqual(10 * 61_000);
  });

  it('waits at least Retry-After (plus jitter) after a 429, then succeeds', async () => {
    h = await startHarness({ days: 2, limits: { researcher: { rpm: RPM } } });
    const retryAfter = await exhaust(h.mock.keys.researcher);
    expect(retryAfter).toBeGreaterThan(0);
    const client = h.client(h.mock.keys.researcher, { retry: { random: () => 0.5, jitterMs: 1_000 } });
    const slept = h.clock.slept;
    const catalog = await client.research.catalog();
    expect(catalog.limits.rpm).toBe(RPM);
    const waited = h.clock.slept - slept;
    expect(waited).toBeGreaterThanOrEqual(retryAfter * 1000 + 500);
    expect(h.log().filter((entry) => entry.status === 429).length).toBe(2);
  });

  it('stops after the bounded number of retries with RateLimitedError', async () => {
    h = await startHarness({ days: 2, limits: { researcher: { rpm: RPM } } });
    const retryAfter = await exhaust(h.mock.keys.researcher);
    const client = h.client(h.mock.keys.researcher, { retry: { maxRetries: 0 } });
    const error = await client.research.catalog().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toBeInstanceOf(LimitError);
    expect((error as RateLimitedError).code).toBe('RDW_RATE_LIMITED');
    expect((error as RateLimitedError).status).toBe(429);
    expect((error as RateLimitedError).retryAfter).toBe(retryAfter);
    expect(keyLeaks(error, [h.mock.keys.researcher])).toEqual([]);
  });

  it('stops when the next wait would pass the total-wait cap, without sleeping it', async () => {
    h = await startHarness({ days: 2, limits: { researcher: { rpm: RPM } } });
    const retryAfter = await exhaust(h.mock.keys.researcher);
    const client = h.client(h.mock.keys.researcher, { retry: { maxRetries: 10, maxWaitMs: retryAfter * 1000 - 1 } });
    const slept = h.clock.slept;
    const error = await client.research.catalog().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(h.clock.slept - slept).toBe(0);
  });
});
