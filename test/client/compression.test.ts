// Compression: rdw asks `gzip, br` for documents and `identity` for release files, decodes gzip/br/deflate
// on any response (asked or not), checks length and SHA-256 on the decoded bytes, and refuses an unknown coding.

import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnexpectedResponseError, createClient, type RdwClient } from '../../src/client/index.js';
import { fakeClock } from '../support/fake-clock.js';
import { sendJson, startScriptedServer, type ScriptedServer } from '../support/scripted-server.js';

const KEY = 'rdw_sk_compress0123456789abcdef01234567';
const LIMITS = { datasets: [], limits: { keys: 1, rpm: 6000, daily_bytes: 10_000_000 } };
const ENCODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gzipSync(bytes),
  br: (bytes) => brotliCompressSync(bytes),
  deflate: (bytes) => deflateSync(bytes),
  'deflate (raw)': (bytes) => deflateRawSync(bytes),
  'gzip, br': (bytes) => brotliCompressSync(gzipSync(bytes)),
};
const headerOf = (name: string) => name.replace(' (raw)', '');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('compressed responses', () => {
  let server: ScriptedServer;
  let client: RdwClient;
  let dir: string;
  const id = 'e'.repeat(64);
  const file = Buffer.from('symbol,price\n'.concat('BTCUSDT,1.5\n'.repeat(5_000)));
  const digest = { sha256: sha256(file), bytes: file.length };
  const manifest = Buffer.from(JSON.stringify({ id, files: { csv: digest } }));
  /** How release files are sent: the coding name of ENCODERS, or undefined for identity. */
  let fileCoding: string | undefined;

  const sendEncoded = (res: Parameters<ScriptedServer['handler']>[1], bytes: Buffer, coding: string | undefined, status = 200, extra: Record<string, string> = {}) => {
    const body = coding === undefined ? bytes : ENCODERS[coding]!(bytes);
    res.writeHead(status, {
      'content-length': String(body.length),
      ...(coding === undefined ? {} : { 'content-encoding': headerOf(coding) }),
      ...extra,
    });
    res.end(body);
  };

  beforeEach(async () => {
    fileCoding = undefined;
    server = await startScriptedServer((req, res, url) => {
      if (url.pathname === '/v1/catalog') return sendEncoded(res, Buffer.from(JSON.stringify(LIMITS)), 'gzip');
      // An ETag that is the SHA-256 of something else (the encoded bytes): never a checksum.
      if (url.pathname === `/v1/download/${id}/manifest`) return sendEncoded(res, manifest, fileCoding, 200, { etag: `"${sha256(Buffer.from('x'))}"` });
      if (url.pathname === `/v1/download/${id}/csv`) {
        const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
        if (match === null) return sendEncoded(res, file, fileCoding, 200, { 'accept-ranges': 'bytes' });
        const start = Number(match[1]);
        return sendEncoded(res, file.subarray(start), fileCoding, 206, {
          'accept-ranges': 'bytes',
          'content-range': `bytes ${start}-${file.length - 1}/${file.length}`,
        });
      }
      return sendJson(res, 404, {});
    });
    dir = await mkdtemp(join(tmpdir(), 'rdw-compress-'));
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, home: dir, clock: fakeClock(), retry: { random: () => 0 } });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const encodingAsked = (path: string) => server.log.filter((entry) => entry.path.startsWith(path)).map((entry) => entry.headers['accept-encoding']);

  it('asks gzip and br for documents, identity for release files and ranges', async () => {
    await client.manifest(id);
    await client.download(id, 'csv', join(dir, 'x.csv'));
    expect(encodingAsked('/v1/catalog')).toEqual(['gzip, br']);
    expect(encodingAsked('/v1/download/')).toEqual(['identity', 'identity']);
  });

  it.each(Object.keys(ENCODERS))('decodes %s on documents, manifests and release files; checks the decoded bytes', async (coding) => {
    fileCoding = coding;
    expect(await client.limits()).toMatchObject({ rpm: 6000, source: 'reported' });
    const result = await client.manifest(id);
    expect(Buffer.from(result.bytes).equals(manifest)).toBe(true);
    expect(result.sha256).toBe(sha256(manifest));
    expect(await client.download(id, 'csv', join(dir, 'x.csv'))).toEqual(digest);
    expect((await readFile(join(dir, 'x.csv'))).equals(file)).toBe(true);
  });

  it('does not join an encoded range to a partial: it starts over and verifies', async () => {
    fileCoding = 'gzip';
    const dest = join(dir, 'x.csv');
    await writeFile(`${dest}.partial`, file.subarray(0, 20_000));
    await writeFile(`${dest}.partial.json`, JSON.stringify({ releaseId: id, format: 'csv', sha256: digest.sha256, bytes: digest.bytes }));
    expect(await client.download(id, 'csv', dest, { expected: digest })).toEqual(digest);
    const ranges = server.log.filter((entry) => entry.path.endsWith('/csv')).map((entry) => entry.headers.range);
    expect(ranges).toEqual(['bytes=20000-', undefined]);
    expect((await readFile(dest)).equals(file)).toBe(true);
    expect((await readdir(dir)).filter((name) => name.startsWith('x.csv'))).toEqual(['x.csv']);
  });

  it.each([
    ['an unknown coding', (res: Parameters<ScriptedServer['handler']>[1]) => {
      res.writeHead(200, { 'content-encoding': 'zstd' });
      res.end(file);
    }],
    ['a gzip body that does not decode', (res: Parameters<ScriptedServer['handler']>[1]) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(Buffer.concat([gzipSync(file).subarray(0, 10), Buffer.alloc(500, 9)]));
    }],
  ])('refuses %s with one UnexpectedResponseError and keeps nothing', async (_name, answer) => {
    const inner = server.handler;
    server.handler = (req, res, url) => (url.pathname.startsWith('/v1/download/') ? answer(res) : inner(req, res, url));
    const manifestError = await client.manifest(id).catch((caught: unknown) => caught);
    expect(manifestError).toBeInstanceOf(UnexpectedResponseError);
    const error = await client.download(id, 'csv', join(dir, 'x.csv'), { expected: digest }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).code).toBe('RDW_UNEXPECTED_RESPONSE');
    expect(await readdir(dir)).not.toContain('x.csv');
    expect((await readdir(dir)).filter((name) => name.startsWith('x.csv'))).toEqual([]);
  });

  it('still refuses a decoded file whose bytes differ from the manifest (checksum on decoded bytes)', async () => {
    fileCoding = 'br';
    const wrong = { sha256: sha256(Buffer.from('other')), bytes: file.length };
    const error = await client.download(id, 'csv', join(dir, 'x.csv'), { expected: wrong }).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('RDW_INTEGRITY_MISMATCH');
    expect((await readdir(dir)).filter((name) => name.startsWith('x.csv'))).toEqual([]);
  });
});
