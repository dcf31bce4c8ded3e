// Responses a foreign server may send that must not cost unbounded memory or time (issue 31 items 3, 4,
// 10, 7b), over node:http servers of the test (test/support/scripted-server.ts, not the mock): an endless
// chunked body, a declared 1 GiB body, a gzip bomb, a trickle, a Retry-After date from a skewed clock, and a
// 401 from a host a redirect led to.

import { createHash } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/contract/index.js';
import {
  ResponseTooLargeError,
  SizeMismatchError,
  TimeoutError,
  UnauthorizedError,
  clientMessages,
  createClient,
  type ClientNotice,
  type ClientOptions,
  type RdwClient,
} from '../../src/client/index.js';
import { fakeClock, type FakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_bounded0123456789abcdef0123456789';
const KiB = 1024;
const MiB = 1024 * KiB;
const LIMITS = { rows: 6000, keys: 1, daily_bytes: null };

/** Writes `chunk` until the client goes away (or `max` bytes), honouring backpressure; resolves with the bytes written. */
function stream(res: ServerResponse, chunk: Buffer, max = Number.POSITIVE_INFINITY): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    const more = (): void => {
      while (written < max && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end();
    };
    res.once('close', () => resolve(written));
    more();
  });
}

describe('responses bounded in size and time', () => {
  let api: ScriptedServer;
  let clock: FakeClock;
  let notices: ClientNotice[];
  let clients: RdwClient[];
  /** Bytes each streamed answer had written when its connection closed. */
  let written: number[];
  beforeEach(async () => {
    clock = fakeClock();
    notices = [];
    clients = [];
    written = [];
    api = await startScriptedServer();
  });
  afterEach(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await api.close();
  });
  /** A new key per client: pacing state (a 429's block) is per key and process, and must not reach the next test. */
  let serial = 0;
  const client = (options: Partial<ClientOptions> = {}): RdwClient => {
    serial += 1;
    const made = createClient({
      baseUrl: api.baseUrl,
      apiKey: `${KEY}${serial}`,
      clock,
      knownLimits: { rpm: 6000, current: true },
      retry: { random: () => 0 },
      onNotice: (notice) => notices.push(notice),
      ...options,
    });
    clients.push(made);
    return made;
  };
  /** Answers /v1/catalog with limits and `path` with `answer`; 404 elsewhere. */
  const serve = (path: string, answer: (res: ServerResponse) => void | Promise<void>) => {
    api.handler = async (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, { datasets: [], limits: { ...LIMITS, rpm: 6000 } });
      if (url.pathname !== path) return sendJson(res, 404, {});
      await answer(res);
    };
  };
  const requests = (path: string) => api.log.filter((entry) => entry.path.startsWith(path)).length;

  it('stops an endless chunked JSON body at the document limit: one sentence, exit 5, the connection dropped', async () => {
    serve('/v1/releases', async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      written.push(await stream(res, Buffer.alloc(64 * KiB, 0x20)));
    });
    const error = await client({ responseLimits: { document: 256 * KiB } })
      .releases({ limit: 5 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.code).toBe('RDW_RESPONSE_TOO_LARGE');
    expect(tooLarge.exitCode).toBe(EXIT_CODES.limit);
    expect(tooLarge).toMatchObject({ limit: 256 * KiB, kind: 'document', status: 200 });
    expect(tooLarge.message).toBe(clientMessages.responseTooLarge('/v1/releases?limit=5', 'a JSON document', 256 * KiB));
    expect(tooLarge.message.split('. ')).toHaveLength(1);
    await expect.poll(() => written.length).toBe(1);
    // The client hung up soon after the limit: what the server wrote is the limit plus what sockets buffer, not more.
    expect(written[0]).toBeLessThan(16 * MiB);
    expect(requests('/v1/releases')).toBe(1);
  });

  it('refuses a body that declares 1 GiB before reading it', async () => {
    serve('/v1/schema', async (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * MiB) });
      written.push(await stream(res, Buffer.alloc(64 * KiB, 0x20), 1024 * MiB));
    });
    const error = await client().schema().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(8 * MiB);
    await expect.poll(() => written.length).toBe(1);
    expect(written[0]).toBeLessThan(16 * MiB);
  });

  it('counts a gzip bomb (1 MiB on the wire, 1 GiB inflated) by its decoded size', async () => {
    const member = gzipSync(Buffer.alloc(16 * MiB, 0x20));
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member)); // 64 gzip members: 1 GiB decoded
    expect(bomb.length).toBeLessThan(2 * MiB);
    serve('/v1/schema', (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const before = process.memoryUsage().rss;
    const error = await client({ responseLimits: { document: 2 * MiB } })
      .schema()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limit).toBe(2 * MiB);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * MiB);
  });

  it('bounds a /rows page by the rows limit and a research CSV by the CSV limit', async () => {
    const id = 'a'.repeat(64);
    serve(`/v1/rows/${id}`, async (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await stream(res, Buffer.alloc(16 * KiB, 0x20));
    });
    const rows = client({ responseLimits: { document: 4 * KiB, rows: 64 * KiB } });
    const pages = async () => {
      for await (const _page of rows.rows(id)) return;
    };
    await expect(pages()).rejects.toMatchObject({ code: 'RDW_RESPONSE_TOO_LARGE', kind: 'rows', limit: 64 * KiB });
    serve('/v1/research/market-breadth/csv', async (res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write('day,value\n');
      await stream(res, Buffer.from('2026-11-01,1\n'.repeat(1000)));
    });
    await expect(client({ responseLimits: { csv: 32 * KiB } }).research.csv('market-breadth')).rejects.toMatchObject({
      code: 'RDW_RESPONSE_TOO_LARGE',
      kind: 'csv',
    });
  });

  it("stops a streamed release file at the manifest's bytes (an endless body: SizeMismatchError, nothing left)", async () => {
    const id = 'b'.repeat(64);
    serve(`/v1/download/${id}/parquet`, async (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      written.push(await stream(res, Buffer.alloc(64 * KiB, 7)));
    });
    const dir = await mkdtemp(join(tmpdir(), 'rdw-bounded-'));
    const expected = { bytes: 200 * KiB, sha256: createHash('sha256').update('x').digest('hex') };
    const error = await client()
      .download(id, 'parquet', join(dir, 'x.parquet'), { expected })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SizeMismatchError);
    expect(await readdir(dir)).toEqual([]);
    await expect.poll(() => written.length).toBe(1);
    expect(written[0]).toBeLessThan(16 * MiB);
  });

  it('gives up on a trickled body at the total deadline, says so while waiting, and does not retry', async () => {
    serve('/v1/schema', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{');
      // One byte every 100 ms: the idle timeout (bodyMs) never fires.
      const timer = setInterval(() => res.write(' '), 100);
      res.once('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const error = await client({ timeouts: { totalMs: 1_500, bodyMs: 1_000 } })
      .schema()
      .catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('total');
    expect((error as TimeoutError).exitCode).toBe(EXIT_CODES.failure);
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(requests('/v1/schema')).toBe(1);
    const waits = notices.filter((notice) => notice.kind === 'response_wait');
    expect(waits, JSON.stringify(notices)).toHaveLength(1);
    expect(waits[0]!.message).toMatch(/^Still waiting for \/v1\/schema after [\d.]+ s; rdw gives up at 1\.5 s\.$/);
    expect(waits[0]!.waitMs).toBeGreaterThan(0);
  });

  it("says when a try ends while no answer has begun: its headers timeout, not the total deadline", async () => {
    // A second independent server (session 34): a /catalog that never answered was retried 5 × 30 s while each
    // notice said "rdw gives up at 120 s".
    serve('/v1/schema', () => undefined);
    const error = await client({ timeouts: { headersMs: 1_600, totalMs: 60_000 }, retry: { random: () => 0, maxRetries: 0 } })
      .schema()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('headers');
    const waits = notices.filter((notice) => notice.kind === 'response_wait');
    expect(waits, JSON.stringify(notices)).toHaveLength(1);
    expect(waits[0]!.message).toMatch(/^No answer yet to \/v1\/schema after [\d.]+ s; this try gives up at 1\.6 s\.$/);
    // The try's time left (1.6 s less the second waited so far), not the total deadline's ~59 s.
    expect(waits[0]!.waitMs).toBeLessThan(1_000);
  });

  /** Serves release `id`'s parquet as 1,000 bytes, then 10 bytes every 100 ms (never the 64 KiB it is said to be). */
  const trickledFile = async (id: string) => {
    serve(`/v1/download/${id}/parquet`, (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' });
      res.write(Buffer.alloc(1000, 1));
      const timer = setInterval(() => res.write(Buffer.alloc(10, 1)), 100);
      res.once('close', () => clearInterval(timer));
    });
    const dir = await mkdtemp(join(tmpdir(), 'rdw-bounded-'));
    return { dir, expected: { bytes: 64 * KiB, sha256: createHash('sha256').update('y').digest('hex') } };
  };

  it('gives a trickled release file totalMs plus 1 s per 64 KiB, then stops without retrying and keeps the resumable partial', async () => {
    const id = 'd'.repeat(64);
    const { dir, expected } = await trickledFile(id);
    const progress: number[] = [];
    const started = performance.now();
    const error = await client({ timeouts: { totalMs: 500, bodyMs: 1_000 } })
      .download(id, 'parquet', join(dir, 'x.parquet'), { expected, onProgress: (done) => progress.push(done) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('total');
    // 500 ms + 1 s for 64 KiB at the 64 KiB/s floor.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_400);
    expect(requests(`/v1/download/${id}/parquet`)).toBe(1);
    expect(notices.filter((notice) => notice.kind === 'response_wait')).toEqual([]);
    expect(progress.at(-1)).toBeGreaterThan(1000);
    expect((await readdir(dir)).sort()).toEqual(['x.parquet.partial', 'x.parquet.partial.json']);
  });

  it('says the wait of a trickled release file when no progress callback shows it (a pull without a bar: cron, --json)', async () => {
    // A second independent server (session 34): at 4 KB/s one notice, then 29 s of silence on a piped pull.
    const id = 'e'.repeat(64);
    const { dir, expected } = await trickledFile(id);
    const error = await client({ timeouts: { totalMs: 500, bodyMs: 1_000 } })
      .download(id, 'parquet', join(dir, 'x.parquet'), { expected })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    const waits = notices.filter((notice) => notice.kind === 'response_wait');
    expect(waits.length, JSON.stringify(notices)).toBeGreaterThanOrEqual(1);
    expect(waits[0]!.message).toMatch(/^Still waiting for \/v1\/download\/eeeeeeeeeeee…\/parquet after [\d.]+ s; rdw gives up at 1\.5 s\.$/);
    // With the CLI's prefix, a download's wait fits 100 columns even near the default 120 s deadline.
    expect(`rdw: ${waits[0]!.message.replace(/after [\d.]+ s; rdw gives up at [\d.]+ s/, 'after 119.9 s; rdw gives up at 120 s')}`.length).toBeLessThanOrEqual(100);
  });

  it('says nothing about a request that answers within a second', async () => {
    serve('/v1/schema', (res) => sendJson(res, 200, { fields: {} }));
    await client().schema();
    expect(notices.filter((notice) => notice.kind === 'response_wait')).toEqual([]);
  });

  it.each([
    ["ahead by 10 minutes, measured against the response's Date", 600_000, true, 3_000],
    ['behind by 10 minutes', -600_000, true, 3_000],
    ['without a Date header: measured against the local clock', 0, false, 3_000],
  ])('reads a Retry-After HTTP-date from a server clock %s', async (_name, skewMs, sendDate, expectedMs) => {
    let answered = 0;
    serve('/v1/schema', (res) => {
      answered += 1;
      if (answered > 1) return sendJson(res, 200, { fields: {} });
      // The server's clock: the fake clock shifted by the skew; its Date and its Retry-After both read it.
      const serverNow = clock.now() + skewMs;
      res.sendDate = false;
      const headers: Record<string, string> = { 'retry-after': new Date(serverNow + 3_000).toUTCString() };
      if (sendDate) headers.date = new Date(serverNow).toUTCString();
      res.writeHead(429, headers);
      res.end('{}');
    });
    await client().schema();
    expect(clock.sleeps).toEqual([expectedMs]);
    expect(notices.find((notice) => notice.kind === 'rate_wait')?.waitMs).toBe(expectedMs);
  });

  it('names a 401 from a host a redirect led to (no key sent there) as such, not as a bad key', async () => {
    const cdn = await startScriptedServer((_req, res) => sendJson(res, 401, { error: { status: 401, code: 'unauthorized', message: 'no key' } }));
    try {
      api.handler = (_req, res, url) => {
        if (url.pathname === '/v1/research/catalog') {
          res.writeHead(302, { location: `${cdn.origin}/v1/research/catalog`, 'content-length': '0' });
          return res.end();
        }
        return sendJson(res, 401, { error: { status: 401, code: 'unauthorized', message: 'bad key' } });
      };
      const withheld = await client().research.catalog().catch((caught: unknown) => caught);
      expect(withheld).toBeInstanceOf(UnauthorizedError);
      expect((withheld as UnauthorizedError).keyWithheld).toBe(true);
      expect((withheld as UnauthorizedError).message).toBe(clientMessages.unauthorizedKeyWithheld('/v1/research/catalog'));
      expect(cdn.log[0]!.headers.authorization).toBeUndefined();
      // The same 401 from the base URL's own host is about the key.
      const refused = await client().schema().catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(UnauthorizedError);
      expect((refused as UnauthorizedError).keyWithheld).toBe(false);
    } finally {
      await cdn.close();
    }
  });
});
