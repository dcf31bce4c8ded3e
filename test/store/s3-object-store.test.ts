// The ObjectStore primitives on a real S3 server (radosgw): conditional writes by If-None-Match and by the
// temporary key and copy, reads into memory and into a file (hashed on the way), head, list, delete, and the
// typed failures (a missing bucket is refused, a closed port is unavailable). Skipped without radosgw outside CI
// (test/store/s3-server.test.ts fails under CI=true when it is missing).

import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { S3ObjectStore, StoreRefusedError, StoreUnavailableError, parseStoreUrl } from '../../src/store/index.js';
import { hasS3Server, startS3Server, type S3Server } from '../support/s3-server.js';

const installed = await hasS3Server();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.runIf(installed)('S3ObjectStore on radosgw', () => {
  let server: S3Server;
  let folder: string;
  const opened: S3ObjectStore[] = [];

  beforeAll(async () => {
    server = await startS3Server();
    folder = await makeTemporaryFolder('rdw-s3-objects-');
    const s3 = new S3Client({
      endpoint: server.endpoint,
      region: server.region,
      forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'objects' }));
    s3.destroy();
  }, 300_000);

  afterAll(async () => {
    for (const store of opened) store.close();
    if (folder !== undefined) await removeTree(folder);
    await server?.stop();
  }, 120_000);

  async function open(url: string, options: { conditionalWrites?: boolean; env?: Record<string, string> } = {}): Promise<S3ObjectStore> {
    const store = await S3ObjectStore.open(parseStoreUrl(url), { ...options, env: { ...server.env, ...options.env }, maxAttempts: 1 });
    opened.push(store);
    return store;
  }

  it.each([
    ['If-None-Match: *', true],
    ['a temporary key and a copy', false],
  ])('writes a key once by %s: the second writer finds it there and the first bytes stay', async (_how, conditionalWrites) => {
    const store = await open(`s3://objects/once-${conditionalWrites}`, { conditionalWrites });
    expect(await store.put('a/b', Buffer.from('first'))).toBe('written');
    expect(await store.put('a/b', Buffer.from('second'))).toBe('exists');
    expect(Buffer.from((await store.getBytes('a/b'))!).toString()).toBe('first');
    // an overwrite (a repair) replaces it
    expect(await store.put('a/b', Buffer.from('third'), { ifAbsent: false })).toBe('written');
    expect(Buffer.from((await store.getBytes('a/b'))!).toString()).toBe('third');
    // no temporary object is left behind
    expect((await store.list('')).map((object) => object.key)).toEqual(['a/b']);
  });

  it.each([true, false])('two writers of one key at once (conditional writes %s): one object, the same bytes', async (conditionalWrites) => {
    const [a, b] = [await open('s3://objects/race', { conditionalWrites }), await open('s3://objects/race', { conditionalWrites })];
    const body = Buffer.alloc(256 * 1024, 7);
    const key = `race-${conditionalWrites}`;
    const outcomes = await Promise.all([a.put(key, body), b.put(key, body)]);
    expect(outcomes).toContain('written');
    expect(sha256((await a.getBytes(key))!)).toBe(sha256(body));
    expect((await a.list(key)).map((object) => object.key)).toEqual([key]);
  });

  it('streams an object into a file with its sha256, sends a file body, heads and lists by prefix, deletes', async () => {
    const store = await open('s3://objects/files');
    const source = path.join(folder, 'source.bin');
    const bytes = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    await writeFile(source, bytes);
    expect(await store.put('sha256/x/one', { file: source, bytes: bytes.length })).toBe('written');
    const target = path.join(folder, 'target.bin');
    expect(await store.getToFile('sha256/x/one', target)).toEqual({ sha256: sha256(bytes), bytes: bytes.length });
    expect(sha256(await readFile(target))).toBe(sha256(bytes));
    expect(await store.head('sha256/x/one')).toEqual({ key: 'sha256/x/one', bytes: bytes.length });
    expect(await store.head('sha256/x/none')).toBeUndefined();
    expect(await store.getBytes('sha256/x/none')).toBeUndefined();
    expect(await store.getToFile('sha256/x/none', path.join(folder, 'none.bin'))).toBeUndefined();
    await expect(stat(path.join(folder, 'none.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
    // a failure of this machine's disk is said as what it is, not as the store's
    const unwritable = store.getToFile('sha256/x/one', path.join(folder, 'no-such-folder', 'target.bin'));
    await expect(unwritable).rejects.toMatchObject({ code: 'ENOENT', syscall: 'open' });
    // a larger object than asked for is not read into memory
    expect(await store.getBytes('sha256/x/one', { maxBytes: 1000 })).toBeUndefined();
    await store.put('sha256/y/two', Buffer.from('2'));
    expect((await store.list('sha256/')).map((object) => [object.key, object.bytes])).toEqual([
      ['sha256/x/one', bytes.length],
      ['sha256/y/two', 1],
    ]);
    await store.delete('sha256/x/one');
    await store.delete('sha256/x/one');
    expect((await store.list('')).map((object) => object.key)).toEqual(['sha256/y/two']);
  });

  it('refuses a bucket that does not exist (StoreRefusedError) and names a closed port unavailable (StoreUnavailableError)', async () => {
    const missing = await open('s3://no-such-bucket/x');
    await expect(missing.put('k', Buffer.from('v'))).rejects.toBeInstanceOf(StoreRefusedError);
    await expect(missing.list('')).rejects.toMatchObject({ code: 'RDW_STORE_REFUSED', storeUrl: 's3://no-such-bucket/x' });
    const closed = await open('s3://objects/x', { env: { AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' } });
    const failure = await closed.head('k').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).not.toContain(server.secretAccessKey);
    expect((failure as Error).message).toContain('s3://objects/x');
  });
});

describe('S3ObjectStore against a server that accepts and never answers', () => {
  it('gives up after the idle bound with StoreUnavailableError (no hang)', async () => {
    const net = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as import('node:net').AddressInfo).port;
    const store = await S3ObjectStore.open(parseStoreUrl('s3://silent/x'), {
      env: { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b', AWS_REGION: 'us-east-1' },
      maxAttempts: 1,
      idleTimeoutMs: 300,
    });
    try {
      await expect(store.head('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      store.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);
});
