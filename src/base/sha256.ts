// SHA-256 helpers: the hex digest of bytes or text, and of a file read once as a stream.

import { createHash, hash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** Lowercase hex SHA-256 and size of some bytes (the shape of a release's `files` entry). */
export interface Sha256Digest {
  /** Lowercase hex SHA-256, 64 characters. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
}

/** Lowercase hex SHA-256 of bytes, or of text as UTF-8 (one-shot `crypto.hash`: no Hash object per call). */
export function sha256Hex(data: Uint8Array | string): string {
  return hash('sha256', data, 'hex');
}

/** `{ sha256, bytes }` of a byte array. */
export function sha256Digest(bytes: Uint8Array): Sha256Digest {
  return { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
}

/**
 * Feeds a file's bytes into `hash` (any algorithm, possibly already fed: a resumed download continues it).
 * @returns the number of bytes read.
 */
export async function hashFileInto(hash: Hash, file: string): Promise<number> {
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return bytes;
}

/** SHA-256 and size of a file on disk, read once. */
export async function hashFile(file: string): Promise<Sha256Digest> {
  const sha256 = createHash('sha256');
  const bytes = await hashFileInto(sha256, file);
  return { sha256: sha256.digest('hex'), bytes };
}
