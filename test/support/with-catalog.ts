// Test helper: a catalog in a temporary RDW_HOME, optionally with a client on a mock server; always closed.

import { createClient, type ClientOptions, type RdwClient } from '../../src/client/index.js';
import { openCatalog, type Catalog, type CatalogOptions } from '../../src/catalog/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { withTempHome } from './temp-home.js';

/** Runs `fn` with a fresh catalog in a temporary home; closes it and removes the home. */
export async function withCatalog<T>(fn: (catalog: Catalog, home: string) => Promise<T>, options: CatalogOptions = {}): Promise<T> {
  return withTempHome(async (home) => {
    const catalog = await openCatalog(home, options);
    try {
      return await fn(catalog, home);
    } finally {
      await catalog.close();
    }
  });
}

/** A client on `mock` (the `desk` key by default) with fast retries; its state lives in `home`. */
export function mockClient(mock: MockServer, home: string, options: Partial<ClientOptions> = {}): RdwClient {
  return createClient({
    baseUrl: mock.baseUrl,
    siteUrl: mock.siteUrl,
    apiKey: mock.keys.desk,
    home,
    retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 2, random: () => 0.5 },
    ...options,
  });
}
