// Redirects a foreign service may send (API moved, downloads on a CDN): followed for at most 5 hops, the
// key only to the base URL's origin, a loop / a sixth hop / a non-http(s) target refused with one error.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedirectError, clientMessages, createClient, type ClientNotice, type RdwClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { keyLeaks } from './key-leaks.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_redirect0123456789abcdef01234567';
const LIMITS = { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 10_000_000 } };

describe('redirects', () => {
  let api: ScriptedServer;
  let cdn: ScriptedServer;
  let home: string;
  let notices: ClientNotice[];
  let client: RdwClient;
  const file = Buffer.alloc(80_000);
  for (let i = 0; i < file.length; i += 1) file[i] = (i * 31 + 7) % 251;
  const digest = { sha256: createHash('sha256').update(file).digest('hex'), bytes: file.length };
  const id = 'd'.repeat(64);

  /** The CDN: serves the file, honouring `Range: bytes=N-`. */
  const serveFile: ScriptedServer['handler'] = (req, res) => {
    const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = match === null ? 0 : Number(match[1]);
    res.writeHead(match === null ? 200 : 206, {
      'accept-ranges': 'bytes',
      'content-length': String(file.length - start),
      ...(match === null ? {} : { 'content-range': `bytes ${start}-${file.length - 1}/${file.length}` }),
    });
    res.end(file.subarray(start));
  };

  beforeEach(async () => {
    api = await startScriptedServer();
    cdn = await startScriptedServer(serveFile);
    home = await mkdtemp(join(tmpdir(), 'rdw-redirect-'));
    notices = [];
    client = createClient({ baseUrl: api.baseUrl, apiKey: KEY, home, clock: fakeClock(), onNotice: (notice) => notices.push(notice) });
  });
  afterEach(async () => {
    await client.close();
    await api.close();
    await cdn.close();
  });

  const redirect = (res: Parameters<ScriptedServer['handler']>[1], status: number, location: string) => {
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  };

  it.each([301, 302, 303, 307, 308])('follows a %i to a relative Location on the same origin, keeping the key there', async (status) => {
    api.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return redirect(res, status, '../v2/catalog');
      if (url.pathname === '/v2/catalog') return sendJson(res, 200, LIMITS);
      return sendJson(res, 404, {});
    };
    expect(await client.limits()).toMatchObject({ rpm: 6000, source: 'reported' });
    expect(api.log.map((entry) => [entry.path, entry.headers.authorization])).toEqual([
      ['/v1/catalog', `Bearer ${KEY}`],
      ['/v2/catalog', `Bearer ${KEY}`],
    ]);
    expect(notices).toEqual([]); // same origin: nothing to announce
  });

  it('sends no Authorization to another origin, still verifies the file, and announces it once without a host', async () => {
    api.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, LIMITS);
      if (url.pathname.startsWith('/v1/download/')) return redirect(res, 302, `${cdn.origin}/files${url.pathname}`);
      return sendJson(res, 404, {});
    };
    const dir = await mkdtemp(join(tmpdir(), 'rdw-redirect-dl-'));
    expect(await client.download(id, 'parquet', join(dir, 'a.parquet'), { expected: digest })).toEqual(digest);
    expect(await client.download(id, 'csv', join(dir, 'b.csv'), { expected: digest })).toEqual(digest);
    expect((await readFile(join(dir, 'a.parquet'))).equals(file)).toBe(true);
    expect(cdn.log.map((entry) => entry.path)).toEqual([`/files/v1/download/${id}/parquet`, `/files/v1/download/${id}/csv`]);
    for (const entry of cdn.log) expect(entry.headers.authorization).toBeUndefined();
    expect(JSON.stringify(cdn.log)).not.toContain(KEY.slice(7));
    expect(notices).toEqual([{ kind: 'redirect', message: clientMessages.redirectCrossOrigin(`/v1/download/${id}/parquet`) }]);
    expect(notices[0]!.message).not.toContain('127.0.0.1');
  });

  it('never sends the key again once a chain has left the origin, even when it comes back', async () => {
    api.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return redirect(res, 307, `${cdn.origin}/bounce`);
      if (url.pathname === '/v1/catalog-home') return sendJson(res, 200, LIMITS);
      return sendJson(res, 404, {});
    };
    cdn.handler = (_req, res) => redirect(res, 307, `${api.baseUrl}/catalog-home`);
    await client.limits();
    expect(api.log.map((entry) => [entry.path, entry.headers.authorization !== undefined])).toEqual([
      ['/v1/catalog', true],
      ['/v1/catalog-home', false],
    ]);
    expect(cdn.log[0]!.headers.authorization).toBeUndefined();
  });

  it('resumes a partial download on the CDN with Range, and verifies it', async () => {
    api.handler = (_req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendJson(res, 200, LIMITS);
      return redirect(res, 302, `${cdn.origin}/files${url.pathname}`);
    };
    const dir = await mkdtemp(join(tmpdir(), 'rdw-redirect-dl-'));
    const dest = join(dir, 'x.parquet');
    await writeFile(`${dest}.partial`, file.subarray(0, 30_000));
    await writeFile(`${dest}.partial.json`, JSON.stringify({ releaseId: id, format: 'parquet', sha256: digest.sha256, bytes: digest.bytes }));
    expect(await client.download(id, 'parquet', dest, { expected: digest })).toEqual(digest);
    expect(api.log.filter((entry) => entry.path.includes('/download/')).map((entry) => entry.headers.range)).toEqual(['bytes=30000-']);
    expect(cdn.log.map((entry) => [entry.headers.range, entry.headers['accept-encoding']])).toEqual([['bytes=30000-', 'identity']]);
    expect((await readFile(dest)).equals(file)).toBe(true);
    expect(await readdir(dir)).toEqual(['x.parquet']);
  });

  it('follows exactly 5 hops', async () => {
    api.handler = (_req, res, url) => {
      const hop = Number(/^\/hop\/(\d+)$/.exec(url.pathname)?.[1] ?? 0);
      if (url.pathname === '/v1/catalog' || hop < 5) return redirect(res, 302, `/hop/${hop + 1}`);
      return sendJson(res, 200, LIMITS);
    };
    expect(await client.limits()).toMatchObject({ rpm: 6000, source: 'reported' });
    expect(api.log).toHaveLength(6);
  });

  it.each([
    ['a sixth hop', (n: number) => `/hop/${n + 1}`, 'too_many', 6],
    ['a loop', (n: number) => (n === 0 ? '/hop/1' : '/v1/catalog'), 'loop', 2],
    ['a non-http target', () => 'file:///etc/passwd', 'scheme', 1],
    ['a javascript target', () => 'javascript:alert(1)', 'scheme', 1],
    ['no Location', () => '', 'no_location', 1],
  ] as const)('refuses %s with one RedirectError, not retried', async (_name, next, reason, requests) => {
    api.handler = (_req, res, url) => {
      const hop = Number(/^\/hop\/(\d+)$/.exec(url.pathname)?.[1] ?? 0);
      const location = next(hop);
      if (location === '') {
        res.writeHead(302, { 'content-length': '0' });
        return res.end();
      }
      return redirect(res, 302, location);
    };
    const error = await client.releases().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).code).toBe('RDW_REDIRECT');
    expect((error as RedirectError).reason).toBe(reason);
    expect(api.log).toHaveLength(requests);
    expect(keyLeaks(error, [KEY])).toEqual([]);
    expect((error as Error).message).not.toContain('127.0.0.1');
  });
});
