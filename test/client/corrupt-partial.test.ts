// A kept partial download whose bytes were corrupted on disk (issue 15): the resumed file fails its check,
// so the client discards it and fetches the file once more from byte 0 within the same call. A server
// whose bytes really differ is still refused after that one fresh try. Served by a node:http server here.

import { createHash } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChecksumMismatchError, createClient, type RdwClient } from '../../src/client/index.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

const KEY = 'rdw_sk_partial0123456789abcdef0123456789';
const ID = 'c'.repeat(64);
const FILE = Buffer.from(Array.from({ length: 120_000 }, (_, i) => (i * 31 + 7) % 251));
const DIGEST = { sha256: createHash('sha256').update(FILE).digest('hex'), bytes: FILE.length };

interface Served {
  baseUrl: string;
  /** The Range header of each download request (undefined: none). */
  ranges: (string | undefined)[];
  /** What the server sends as the file (default: FILE). */
  body: Buffer;
  close(): Promise<void>;
}

/** Serves `/v1/download/<ID>/parquet` with byte ranges, and limits on `/v1/catalog`. */
async function serve(): Promise<Served> {
  const served: Served = { baseUrl: '', ranges: [], body: FILE, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/v1/catalog') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ datasets: [], limits: { keys: 5, rpm: 6000, daily_bytes: 2 ** 30 } }));
      return;
    }
    if (url.pathname !== `/v1/download/${ID}/parquet`) {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { status: 404, code: 'not_found', message: 'not found' } }));
      return;
    }
    const range = req.headers.range;
    served.ranges.push(range);
    const body = served.body;
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('content-type', 'application/octet-stream');
    const match = range === undefined ? null : /^bytes=(\d+)-$/.exec(range);
    if (match !== null) {
      const start = Number(match[1]);
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${body.length - 1}/${body.length}`);
      res.setHeader('content-length', String(body.length - start));
      res.end(body.subarray(start));
      return;
    }
    res.setHeader('content-length', String(body.length));
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  served.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/v1`;
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return served;
}

describe('a corrupted partial download', () => {
  let server: Served;
  let client: RdwClient;
  let dir: string;
  beforeEach(async () => {
    server = await serve();
    dir = await makeTemporaryFolder('rdw-partial-');
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, home: dir, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
    await removeTree(dir);
  });

  /** Leaves `<dest>.partial` holding the first `bytes` of the file with one byte flipped, and its sidecar. */
  async function corruptPartial(dest: string, bytes: number): Promise<void> {
    const kept = Buffer.from(FILE.subarray(0, bytes));
    kept[1234] = kept[1234]! ^ 0xff;
    await writeFile(`${dest}.partial`, kept);
    await writeFile(`${dest}.partial.json`, JSON.stringify({ releaseId: ID, format: 'parquet', ...DIGEST }));
  }

  it('is resumed, fails its check, and is fetched once more from byte 0 in the same call', async () => {
    const dest = join(dir, 'x.parquet');
    await corruptPartial(dest, 50_000);
    const digest = await client.download(ID, 'parquet', dest, { expected: DIGEST });
    expect(digest).toEqual(DIGEST);
    expect(server.ranges).toEqual(['bytes=50000-', undefined]);
    expect((await readFile(dest)).equals(FILE)).toBe(true);
    expect((await readdir(dir)).filter((name) => name.startsWith('x.parquet.'))).toEqual([]);
  });

  it('is refused when the fresh copy fails too (the server serves other bytes): one fresh try, nothing kept', async () => {
    const dest = join(dir, 'x.parquet');
    await corruptPartial(dest, 50_000);
    const other = Buffer.from(FILE);
    other[100_000] = other[100_000]! ^ 0xff;
    server.body = other;
    const error = await client.download(ID, 'parquet', dest, { expected: DIGEST }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(server.ranges).toEqual(['bytes=50000-', undefined]);
    expect((await readdir(dir)).filter((name) => name.startsWith('x.parquet'))).toEqual([]);
  });

  it('is not fetched again when the download started from byte 0 and failed: a bad server costs one request', async () => {
    const dest = join(dir, 'x.parquet');
    const other = Buffer.from(FILE);
    other[5] = other[5]! ^ 0xff;
    server.body = other;
    const error = await client.download(ID, 'parquet', dest, { expected: DIGEST }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(server.ranges).toEqual([undefined]);
  });
});
