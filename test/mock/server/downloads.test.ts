// `/download/<RELEASE_ID>/<FORMAT>`: immutable bytes, ETag/304, Range/206/416, 404s, and every fault kind.

import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOWNLOAD_FORMATS, type Release } from '../../../src/contract/index.js';
import { startMockServer, type MockServer } from '../../../src/mock/index.js';
import { errorOf, get } from './http.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let server: MockServer;
let releases: Release[];
let release: Release;
const url = (format: string, id = release.id) => `${server.baseUrl}/download/${id}/${format}`;

beforeAll(async () => {
  // Days before 2026-10-30 have no bundled schema.
  server = await startMockServer({ days: 4, schemaSince: '2026-10-30' });
  releases = ((await get(`${server.baseUrl}/releases?limit=100`, server.keys.desk)).json as { items: Release[] }).items;
  release = releases[0]!;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.faults.clear());

/** Reads a response until the server ends or breaks it: status, headers, bytes received, and how it ended. */
function download(target: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer; ended: 'end' | 'aborted' }> {
  const parsed = new URL(target);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: parsed.hostname, port: parsed.port, path: parsed.pathname, headers: { authorization: `Bearer ${server.keys.desk}`, ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let settled = false;
        const finish = (ended: 'end' | 'aborted') => {
          if (settled) return;
          settled = true;
          resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks), ended });
        };
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => finish(response.complete ? 'end' : 'aborted'));
        response.on('aborted', () => finish('aborted'));
        response.on('error', () => finish('aborted'));
        response.on('close', () => finish(response.complete ? 'end' : 'aborted'));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('files', () => {
  it.each(['csv', 'parquet', 'json', 'schema'] as const)('%s: bytes match the manifest, immutable headers', async (format) => {
    const answer = await get(url(format), server.keys.desk);
    expect(answer.status).toBe(200);
    const digest = release.files[format]!;
    expect(sha256(answer.bytes)).toBe(digest.sha256);
    expect(answer.bytes.length).toBe(digest.bytes);
    expect(answer.headers.get('content-length')).toBe(String(digest.bytes));
    expect(answer.headers.get('etag')).toBe(`"${digest.sha256}"`);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
  });

  it('content types per format', async () => {
    const types: Record<string, RegExp> = {
      csv: /^text\/csv/,
      parquet: /^application\/vnd\.apache\.parquet$/,
      json: /^application\/json/,
      manifest: /^application\/json/,
      schema: /^application\/json/,
    };
    for (const format of DOWNLOAD_FORMATS) expect((await get(url(format), server.keys.desk)).headers.get('content-type')).toMatch(types[format]!);
  });

  it('the manifest is the release object; its ETag is the sha256 of its bytes', async () => {
    const answer = await get(url('manifest'), server.keys.desk);
    expect(answer.json).toEqual(release);
    expect(answer.headers.get('etag')).toBe(`"${sha256(answer.bytes)}"`);
  });

  it('the CSV holds all six markets and both sample types', async () => {
    const text = (await get(url('csv'), server.keys.desk)).text;
    const header = text.split('\n')[0]!.split(',');
    const symbolAt = header.indexOf('symbol');
    const typeAt = header.indexOf('sample_type');
    const lines = text.trimEnd().split('\n').slice(1).map((line) => line.split(','));
    expect(lines).toHaveLength(release.rows);
    expect(new Set(lines.map((cells) => cells[symbolAt])).size).toBe(6);
    expect(new Set(lines.map((cells) => cells[typeAt]))).toEqual(new Set(['event', 'control']));
  });

  it('404: unknown release, malformed ID, unknown format, and schema before schemaSince', async () => {
    expect(errorOf(await get(url('csv', '0'.repeat(64)), server.keys.desk))).toMatchObject({ status: 404, code: 'not_found' });
    expect(errorOf(await get(url('csv', 'A'.repeat(64)), server.keys.desk))).toMatchObject({ status: 404, code: 'not_found' });
    for (const format of ['xlsx', 'CSV', 'arrow', 'csv.gz']) {
      expect(errorOf(await get(url(format), server.keys.desk)), format).toMatchObject({ status: 404, code: 'not_found' });
    }
    const old = releases.find((r) => r.day < '2026-10-30')!;
    expect(old.files.schema).toBeUndefined();
    expect(errorOf(await get(url('schema', old.id), server.keys.desk))).toMatchObject({ status: 404, code: 'not_found' });
    expect((await get(url('parquet', old.id), server.keys.desk)).status).toBe(200);
    expect(release.files.schema).toBeDefined();
  });
});

describe('conditional and range requests', () => {
  it('If-None-Match with the ETag is 304 with no body and no byte charged', async () => {
    const before = server.admin.usage(server.accounts.desk).bytesToday;
    const etag = `"${release.files.parquet.sha256}"`;
    for (const header of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const answer = await get(url('parquet'), server.keys.desk, { headers: { 'if-none-match': header } });
      expect(answer.status, header).toBe(304);
      expect(answer.bytes.length).toBe(0);
    }
    expect(server.admin.usage(server.accounts.desk).bytesToday).toBe(before);
    expect((await get(url('parquet'), server.keys.desk, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('Range gives 206 with Content-Range; the parts join to the file', async () => {
    const full = (await get(url('csv'), server.keys.desk)).bytes;
    const size = full.length;
    const head = await get(url('csv'), server.keys.desk, { headers: { range: 'bytes=0-99' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
    expect(head.headers.get('content-length')).toBe('100');
    const tail = await get(url('csv'), server.keys.desk, { headers: { range: 'bytes=100-' } });
    expect(tail.headers.get('content-range')).toBe(`bytes 100-${size - 1}/${size}`);
    expect(Buffer.concat([head.bytes, tail.bytes]).equals(Buffer.from(full))).toBe(true);
    const suffix = await get(url('csv'), server.keys.desk, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(suffix.bytes).equals(Buffer.from(full.subarray(size - 10)))).toBe(true);
    const clipped = await get(url('csv'), server.keys.desk, { headers: { range: `bytes=${size - 5}-${size + 1000}` } });
    expect(clipped.status).toBe(206);
    expect(clipped.bytes.length).toBe(5);
  });

  it('logs each download with its status, bytes sent, account and range, never the key', async () => {
    await get(url('csv'), server.keys.desk, { headers: { range: 'bytes=10-19' } });
    expect(server.requestLog.at(-1)).toEqual({
      method: 'GET',
      path: `/v1/download/${release.id}/csv`,
      status: 206,
      bytes: 10,
      account: server.accounts.desk,
      auth: true,
      range: 'bytes=10-19',
    });
  });

  it('416 with Content-Range bytes */size for an unsatisfiable range', async () => {
    const size = release.files.csv.bytes;
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0']) {
      const answer = await get(url('csv'), server.keys.desk, { headers: { range } });
      expect(answer.status, range).toBe(416);
      expect(answer.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(errorOf(answer).code).toBe('range_not_satisfiable');
    }
  });

  it('ignores a malformed or multi-part Range and a stale If-Range: the whole file, 200', async () => {
    for (const headers of [{ range: 'bytes=0-1,5-9' }, { range: 'items=0-5' }, { range: 'bytes=9-3' }, { range: 'bytes=0-9', 'if-range': '"old"' }]) {
      const answer = await get(url('csv'), server.keys.desk, { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(answer.bytes.length).toBe(release.files.csv.bytes);
    }
    const matching = await get(url('csv'), server.keys.desk, { headers: { range: 'bytes=0-9', 'if-range': `"${release.files.csv.sha256}"` } });
    expect(matching.status).toBe(206);
  });
});

describe('faults', () => {
  it('corrupt: same length, flipped bytes, the ETag still names the true digest', async () => {
    server.faults.add({ releaseId: release.id, format: 'parquet', kind: 'corrupt', times: 1 });
    const bad = await get(url('parquet'), server.keys.desk);
    expect(bad.status).toBe(200);
    expect(bad.bytes.length).toBe(release.files.parquet.bytes);
    expect(sha256(bad.bytes)).not.toBe(release.files.parquet.sha256);
    expect(bad.headers.get('etag')).toBe(`"${release.files.parquet.sha256}"`);
    const good = await get(url('parquet'), server.keys.desk);
    expect(sha256(good.bytes)).toBe(release.files.parquet.sha256);
  });

  it('truncate: Content-Length of the full file, the connection closes early', async () => {
    server.faults.add({ releaseId: release.id, format: 'csv', kind: 'truncate', times: 1 });
    const cut = await download(url('csv'));
    expect(cut.status).toBe(200);
    expect(cut.headers['content-length']).toBe(String(release.files.csv.bytes));
    expect(cut.ended).toBe('aborted');
    expect(cut.bytes.length).toBeLessThan(release.files.csv.bytes);
    // resume with Range from what arrived
    const rest = await download(url('csv'), { range: `bytes=${cut.bytes.length}-` });
    expect(rest.status).toBe(206);
    expect(sha256(Buffer.concat([cut.bytes, rest.bytes]))).toBe(release.files.csv.sha256);
  });

  it('reset: the connection is reset mid-body', async () => {
    server.faults.add({ releaseId: '*', format: 'json', kind: 'reset' });
    const broken = await download(url('json'));
    expect(broken.ended).toBe('aborted');
    expect(broken.bytes.length).toBeLessThan(release.files.json.bytes);
    await expect(fetch(url('json'), { headers: { authorization: `Bearer ${server.keys.desk}` } }).then((r) => r.arrayBuffer())).rejects.toThrow();
  });

  it('status503: 503 unavailable the given number of times, then the file', async () => {
    server.faults.add({ releaseId: release.id, format: '*', kind: 'status503', times: 2 });
    expect(errorOf(await get(url('csv'), server.keys.desk))).toMatchObject({ status: 503, code: 'unavailable' });
    expect((await get(url('parquet'), server.keys.desk)).status).toBe(503);
    expect((await get(url('csv'), server.keys.desk)).status).toBe(200);
  });

  it('slow: the body arrives in delayed chunks, complete and correct', async () => {
    server.faults.add({ releaseId: release.id, format: 'parquet', kind: 'slow', delayMs: 40, times: 1 });
    const started = performance.now();
    const answer = await download(url('parquet'));
    const chunks = Math.ceil(release.files.parquet.bytes / (16 * 1024));
    expect(answer.ended).toBe('end');
    expect(sha256(answer.bytes)).toBe(release.files.parquet.sha256);
    expect(performance.now() - started).toBeGreaterThanOrEqual((chunks - 1) * 40 - 5);
  });

  it('a rule for another release or format does not apply', async () => {
    server.faults.add({ releaseId: releases[1]!.id, format: 'csv', kind: 'status503' });
    server.faults.add({ releaseId: release.id, format: 'json', kind: 'status503' });
    expect((await get(url('csv'), server.keys.desk)).status).toBe(200);
  });
});
