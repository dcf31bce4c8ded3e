// Test helper: runs `fn` against a fresh embedded mock server (port 0) and always closes it.

import { startMockServer, type MockServer, type MockServerOptions } from '../../src/mock/index.js';

/** Starts a mock with `options` (small `days` by default: 12), runs `fn`, closes the server. */
export async function withMockServer<T>(options: MockServerOptions, fn: (server: MockServer) => Promise<T>): Promise<T> {
  const server = await startMockServer({ port: 0, days: 12, ...options });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}
