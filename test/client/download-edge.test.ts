import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AbortedError, ManifestMismatchError, createClient, type RdwClient } from '../../src/client/index.js';
import { startEdgeServer, type EdgeServer } from './edge-server.js';
import { fakeClock } from '../support/fake-clock.js';

const KEY = 'rdw_sk_edge0123456789abcdef0123456789ab';

describe('edge cases over a scripted server', () => {
  let server: EdgeServer;
  let client: RdwClient;
  let dir: string;
  beforeEach(async () => {
    server = await startEdgeServer();
    dir = await mkdtemp(join(tmpdir(), 'rdw-edge-'));
    client = createClient({ baseUrl: server.baseUrl, apiKey: KEY, clock: fakeClock(), home: dir });
  });
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  const sidecarFor = (sha256: string, bytes: number) =>
    JSON.stringify({ releaseId: server.releaseId, format: 'parquet', sha256, bytes });
  const downloads = () => server.log.filter((entry) => entry.url.endsWith('/parquet'));

  it('restarts from byte 0 when the server answers 200 to a Range request', async () => {
    server.mode = 'ignore-range';
    const dest = join(dir, 'x.parquet');
    await writeFile(`${dest}.partial`, server.file.subarray(0, 40_000));
    await writeFile(`${dest}.partial.json`, sidecarFor(server.sha256, server.file.length));
    const digest = await client.download(server.releaseId, 'parquet', dest);
    expect(digest).toEqual({ sha256: server.sha256, bytes: server.file.length });
    expect(downloads().map((entry) => entry.range)).toEqual(['bytes=40000-']);
    expect((await readFile(dest)).equals(server.file)).toBe(true);
    expect(await readdir(dir)).not.toContain('x.parquet.partial');
  });

  it('restarts without Range after a 416 to a resumed download, with no uncaught error', async () => {
    server.mode = 'range-416';
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const dest = join(dir, 'x.parquet');
      await writeFile(`${dest}.partial`, server.file.subarray(0, 30_000));
      await writeFile(`${dest}.partial.json`, sidecarFor(server.sha256, server.file.length));
      const digest = await client.download(server.releaseId, 'parquet', dest);
      expect(digest).toEqual({ sha256: server.sha256, bytes: server.file.length });
      expect(downloads().map((entry) => entry.range)).toEqual(['bytes=30000-', undefined]);
      expect((await readFile(dest)).equals(server.file)).toBe(true);
      expect((await readdir(dir)).filter((name) => name.startsWith('x.parquet.partial'))).toEqual([]);
      // The discarded 416 body must not surface later as an uncaught stream error.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('says each wait of a second or more before it asks again for a body that broke off, and resumes where it broke', async () => {
    // A second independent server (session 34) dropped the connection mid-body: the waits between attempts were silent.
    const notices: { kind: string; message: string }[] = [];
    const patient = createClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      clock: fakeClock(),
      home: join(dir, 'patient'),
      retry: { baseDelayMs: 1000, jitterMs: 1, maxRetries: 4 },
      onNotice: (notice) => void notices.push(notice),
    });
    try {
      server.cutBodies = 2;
      const digest = await patient.download(server.releaseId, 'parquet', join(dir, 'cut.parquet'));
      expect(digest).toEqual({ sha256: server.sha256, bytes: server.file.length });
      expect(downloads().map((entry) => entry.range)).toEqual([undefined, 'bytes=50000-', 'bytes=75000-']);
      const waits = notices.filter((notice) => notice.kind === 'retry_wait').map((notice) => notice.message);
      expect(waits).toEqual([
        `The request for /v1/download/bbbbbbbbbbbb…/parquet failed (its body broke off after 50000 of 100000 bytes); retrying in 1 s (retry 1 of 4).`,
        `The request for /v1/download/bbbbbbbbbbbb…/parquet failed (its body broke off after 75000 of 100000 bytes); retrying in 2 s (retry 2 of 4).`,
      ]);
    } finally {
      await patient.close();
    }
  });

  it('resumes a partial whose sidecar matches, with a Range from its size', async () => {
    const dest = join(dir, 'x.parquet');
    await writeFile(`${dest}.partial`, server.file.subarray(0, 60_000));
    await writeFile(`${dest}.partial.json`, sidecarFor(server.sha256, server.file.length));
    await client.download(server.releaseId, 'parquet', dest);
    expect(downloads().map((entry) => entry.range)).toEqual(['bytes=60000-']);
    expect((await readFile(dest)).equals(server.file)).toBe(true);
  });

  it.each([
    ['no sidecar', undefined, 60_000],
    ['a sidecar for another checksum', 'c'.repeat(64), 60_000],
    ['a partial longer than expected', 'same', 150_000],
  ])('fetches from byte 0 with %s', async (_name, sidecarSha, partialBytes) => {
    const dest = join(dir, 'x.parquet');
    await writeFile(`${dest}.partial`, Buffer.alloc(partialBytes, 1));
    if (sidecarSha !== undefined) {
      await writeFile(`${dest}.partial.json`, sidecarFor(sidecarSha === 'same' ? server.sha256 : sidecarSha, server.file.length));
    }
    await client.download(server.releaseId, 'parquet', dest);
    expect(downloads().map((entry) => entry.range)).toEqual([undefined]);
    expect((await readFile(dest)).equals(server.file)).toBe(true);
  });

  it('places a complete verified partial without downloading it again', async () => {
    const dest = join(dir, 'x.parquet');
    await writeFile(`${dest}.partial`, server.file);
    await writeFile(`${dest}.partial.json`, sidecarFor(server.sha256, server.file.length));
    await client.download(server.releaseId, 'parquet', dest, { expected: { sha256: server.sha256, bytes: server.file.length } });
    expect(downloads()).toHaveLength(0);
    expect((await stat(dest)).size).toBe(server.file.length);
  });

  it('treats an empty row result (total 0) as success: no pages, one request', async () => {
    const pages = [];
    for await (const page of client.rows(server.releaseId, { symbol: 'DOGEUSDT', sample_type: 'event' })) pages.push(page);
    expect(pages).toEqual([]);
    expect(server.log.filter((entry) => entry.url.startsWith('/v1/rows/'))).toHaveLength(1);
  });

  it('refuses a manifest that describes another release', async () => {
    server.manifestId = 'c'.repeat(64);
    const error = await client.manifest(server.releaseId).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ManifestMismatchError);
    expect((error as ManifestMismatchError).code).toBe('RDW_MANIFEST_MISMATCH');
  });

  it('stops with AbortedError when the caller aborts, leaving nothing at dest', async () => {
    const dest = join(dir, 'x.parquet');
    const controller = new AbortController();
    controller.abort();
    const error = await client
      .download(server.releaseId, 'parquet', dest, { signal: controller.signal, expected: { sha256: server.sha256, bytes: server.file.length } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortedError);
    expect(await readdir(dir)).not.toContain('x.parquet');
  });
});
