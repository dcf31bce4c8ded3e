// Test harness over the embedded mock: one fake time source shared by the mock's rate clock and the
// client's clock, a temporary RDW_HOME, and helpers to read the mock's request log.

import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../../src/mock/index.js';
import { createClient, type ClientOptions, type RdwClient } from '../../src/client/index.js';
import { fakeClock, type FakeClock } from '../support/fake-clock.js';

export type MockOptions = Parameters<typeof startMockServer>[0];
export type MockServer = Awaited<ReturnType<typeof startMockServer>>;

export interface Harness {
  mock: MockServer;
  clock: FakeClock;
  home: string;
  /** A client on the mock with the shared fake clock and the temp home; options override. */
  client(key: string | undefined, options?: Partial<ClientOptions>): RdwClient;
  /** Request-log entries as `{ path, status }` (path without the /v1 prefix and query). */
  log(): { path: string; query: string; status: number; auth: boolean | undefined; range: string | undefined }[];
  close(): Promise<void>;
}

export async function startHarness(options: MockOptions = {}): Promise<Harness> {
  const clock = fakeClock();
  const mock = await startMockServer({ port: 0, days: 12, ...options, rateClock: () => clock.now() });
  const home = await mkdtemp(join(tmpdir(), 'rdw-client-'));
  const clients: RdwClient[] = [];
  return {
    mock,
    clock,
    home,
    client(key, extra = {}) {
      const client = createClient({
        baseUrl: mock.baseUrl,
        siteUrl: mock.siteUrl,
        ...(key === undefined ? {} : { apiKey: key }),
        clock,
        home,
        retry: { random: () => 0.5 },
        ...extra,
      });
      clients.push(client);
      return client;
    },
    log() {
      return (mock.requestLog as unknown as Record<string, unknown>[]).map((entry) => {
        const raw = String(entry.path ?? entry.url ?? '');
        const url = new URL(raw, 'http://x');
        return {
          path: url.pathname.replace(/^\/v1/, ''),
          query: url.search,
          status: Number(entry.status ?? entry.statusCode),
          auth: entry.auth as boolean | undefined,
          range: entry.range as string | undefined,
        };
      });
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await mock.close();
    },
  };
}
