// probeService (rdw doctor's reachability probe) through the client's transport: one GET without the key,
// redirects reported and not followed, the service's Date read, and a failure worded by the client's one table
// (transport-failure.ts) with the client's typed error. Real HTTP on 127.0.0.1.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { failureWords } from '../../src/client/transport-failure.js';
import { probeService } from '../../src/client/index.js';
import { isRdwError } from '../../src/contract/index.js';

let server: Server | undefined;
const seen: IncomingMessage[] = [];

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer((req, res) => {
    seen.push(req);
    handler!(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A port nothing listens on: one that was bound, then released. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

afterEach(async () => {
  seen.length = 0;
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

describe('probeService', () => {
  it('reads any HTTP answer as reachable, with its status and Date, sending no key', async () => {
    const date = 'Wed, 21 Oct 2026 07:28:00 GMT';
    const baseUrl = await serve((_req, res) => {
      res.writeHead(503, { date, 'content-type': 'text/plain' });
      res.end('down for maintenance');
    });
    const probe = await probeService({ baseUrl });
    expect(probe).toMatchObject({ reachable: true, status: 503, serverDateMs: Date.parse(date), redirectOrigin: undefined });
    expect(seen.map((req) => req.url)).toEqual(['/v1/research/catalog']);
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['user-agent']).toMatch(/^rdw-client\//);
  });

  it('reports a redirect with its origin and does not follow it', async () => {
    const baseUrl = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example:8443/v1/research/catalog' });
      res.end();
    });
    const probe = await probeService({ baseUrl });
    expect(probe).toMatchObject({ reachable: true, status: 302, redirectOrigin: 'https://elsewhere.example:8443' });
    expect(seen).toHaveLength(1);
  });

  it('words a refused connection with the client table and returns its typed error, without retrying', async () => {
    const port = await freePort();
    const probe = await probeService({ baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(probe.reachable).toBe(false);
    if (probe.reachable) return;
    expect(probe.reason).toBe(failureWords({ code: 'ECONNREFUSED' }));
    expect(probe.reason).toBe('connection refused: nothing listens there, ECONNREFUSED');
    expect(isRdwError(probe.error)).toBe(true);
    expect(probe.error.code).toBe('RDW_NETWORK');
  });

  it('words a service that sends no headers in time as the client does, within the probe timeout', async () => {
    const baseUrl = await serve(() => undefined); // never answers
    const probe = await probeService({ baseUrl, timeoutMs: 300 });
    expect(probe.reachable).toBe(false);
    if (probe.reachable) return;
    expect(probe.reason).toBe('no response headers in time, UND_ERR_HEADERS_TIMEOUT');
    expect(probe.error.code).toBe('RDW_TIMEOUT');
  });

  it('refuses a base URL that is not an API root (no /v1) as the client does, before any request', async () => {
    const baseUrl = await serve((_req, res) => res.end());
    await expect(probeService({ baseUrl: baseUrl.replace(/\/v1$/, '') })).rejects.toMatchObject({ code: 'RDW_USAGE', option: 'baseUrl' });
    expect(seen).toHaveLength(0);
  });
});
