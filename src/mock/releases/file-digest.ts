// SHA-256 and size of a byte array: the `files` entries of a release.

import { hash } from 'node:crypto';
import type { FileDigest } from '../../contract/index.js';

/** Lowercase hex SHA-256 of the bytes. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return hash('sha256', bytes, 'hex');
}

/** `{sha256, bytes}` of a file. */
export function fileDigest(bytes: Uint8Array): FileDigest {
  return { sha256: sha256Hex(bytes), bytes: bytes.byteLength };
}
