import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashFile, hashFileInto, makeTemporaryFolder, removeTree, sha256Digest, sha256Hex } from '../../src/base/index.js';

describe('SHA-256 helpers', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await makeTemporaryFolder('rdw-base-sha256-');
  });
  afterAll(async () => {
    await removeTree(dir);
  });

  it('gives the standard digests of bytes and of UTF-8 text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('Bücher €'))).toBe(sha256Hex('Bücher €'));
    expect(sha256Digest(new Uint8Array([1, 2, 3]))).toEqual({ sha256: createHash('sha256').update(Buffer.from([1, 2, 3])).digest('hex'), bytes: 3 });
  });

  it('hashes a file on disk once, larger than one read chunk', async () => {
    const bytes = Buffer.alloc(200_000, 7);
    bytes.write('start', 0);
    const file = path.join(dir, 'big.bin');
    await writeFile(file, bytes);
    expect(await hashFile(file)).toEqual({ sha256: sha256Hex(bytes), bytes: 200_000 });
  });

  it('feeds a file into a hash already fed (a resumed download continues it)', async () => {
    const file = path.join(dir, 'tail.bin');
    await writeFile(file, 'world');
    const hash = createHash('sha256').update('hello ');
    expect(await hashFileInto(hash, file)).toBe(5);
    expect(hash.digest('hex')).toBe(sha256Hex('hello world'));
  });
});
