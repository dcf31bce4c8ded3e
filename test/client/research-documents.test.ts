import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { startOddDocumentsServer, type FixedAnswer, type OddDocumentsServer } from '../support/odd-documents-server.js';

// Free and public documents in shapes the spec does not show come back exactly as sent (nothing added),
// and are still cached: for their own refresh_seconds, else the dataset's, else 60 seconds.
const KEY = `rdw_sk_${'B'.repeat(32)}`;

const answers = new Map<string, FixedAnswer>([
  ['/v1/research/array-body', { json: [{ symbol: 'BTCUSDT' }] }],
  ['/v1/research/no-refresh', { json: { key: 'no-refresh', items: [] } }],
  ['/v1/research/market-breadth', { json: { key: 'market-breadth', items: 'elsewhere' } }],
  ['/v1/research/own-refresh', { json: { key: 'own-refresh', refresh_seconds: 5 } }],
  ['/api/research/live/text-page', { json: 'closed' }],
  ['/api/research/live/null-page', { json: null }],
]);

describe('client research and live documents of any shape', () => {
  let server: OddDocumentsServer;
  beforeAll(async () => {
    server = await startOddDocumentsServer(answers);
  });
  afterAll(() => server.close());

  const fakeClock = () => {
    let now = 1_793_491_200_000;
    return { now: () => now, sleep: async (ms: number) => void (now += ms) };
  };
  const hits = (path: string) => server.hits.get(path) ?? 0;

  it.each([
    ['array-body', [{ symbol: 'BTCUSDT' }], 60],
    ['no-refresh', { key: 'no-refresh', items: [] }, 60],
    ['market-breadth', { key: 'market-breadth', items: 'elsewhere' }, 300], // src/contract declares 300 s
    ['own-refresh', { key: 'own-refresh', refresh_seconds: 5 }, 5],
  ])('returns the snapshot %s as sent and caches it for its interval', async (id, body, seconds) => {
    const clock = fakeClock();
    const client = createClient({ baseUrl: server.baseUrl, siteUrl: server.siteUrl, apiKey: KEY, clock });
    try {
      const path = `/v1/research/${id}`;
      const before = hits(path);
      expect(await client.research.snapshot(id)).toEqual(body);
      await clock.sleep(seconds * 1000 - 1);
      await client.research.snapshot(id);
      expect(hits(path)).toBe(before + 1);
      await clock.sleep(1);
      await client.research.snapshot(id);
      expect(hits(path)).toBe(before + 2);
    } finally {
      await client.close();
    }
  });

  it('returns a live page that is a string or null as that value, cached for 60 seconds', async () => {
    const clock = fakeClock();
    const client = createClient({ baseUrl: server.baseUrl, siteUrl: server.siteUrl, clock });
    try {
      expect(await client.live.json('text-page')).toBe('closed');
      expect(await client.live.json('null-page')).toBeNull();
      await client.live.json('null-page');
      expect(hits('/api/research/live/null-page')).toBe(1);
      await clock.sleep(60_000);
      expect(await client.live.json('null-page')).toBeNull();
      expect(hits('/api/research/live/null-page')).toBe(2);
    } finally {
      await client.close();
    }
  });
});
