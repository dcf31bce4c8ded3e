// What rdw needs of an object store (the team store, `rdw export s3://`): read an object into a file or into
// memory, its size, write it once (conditionally), list, delete one key. Keys are relative to the store's prefix.

import type { Sha256Digest } from '../base/index.js';
import type { StoreUrl } from './store-url.js';

/** One object: its key relative to the store's prefix, and its size in bytes. */
export interface ObjectInfo {
  key: string;
  bytes: number;
}

/** What a bytes or file body is. A file is read from disk when sent. */
export type ObjectBody = Uint8Array | { file: string; bytes: number };

/** `written`: this call stored the object; `exists`: a conditional write found the key already there. */
export type PutOutcome = 'written' | 'exists';

export interface PutObjectOptions {
  /**
   * Write only when the key does not exist (default true): `If-None-Match: *` where the store supports it,
   * else a temporary key copied into place after a check. False overwrites (a repair of a refused object).
   */
  ifAbsent?: boolean;
  /** Content-Type stored with the object (default application/octet-stream). */
  contentType?: string;
}

export interface ObjectStore {
  /** The store's address (bucket and prefix), for messages. */
  readonly url: StoreUrl;
  /** Size of an object, or undefined when there is none. */
  head(key: string): Promise<ObjectInfo | undefined>;
  /**
   * An object's bytes, or undefined when there is none. Refuses (returns undefined for) an object larger than
   * `maxBytes` (default 64 MiB) without reading it: a manifest or schema is small.
   */
  getBytes(key: string, options?: { maxBytes?: number }): Promise<Uint8Array | undefined>;
  /** Streams an object into `file` (created or truncated), hashed on the way; undefined (and no file) when there is none. */
  getToFile(key: string, file: string): Promise<Sha256Digest | undefined>;
  /** Writes an object; see PutObjectOptions.ifAbsent. */
  put(key: string, body: ObjectBody, options?: PutObjectOptions): Promise<PutOutcome>;
  /** Every object whose key starts with `keyPrefix` (relative; '' for all), sorted by key. */
  list(keyPrefix: string): Promise<ObjectInfo[]>;
  /** Removes one object (no error when it is absent). */
  delete(key: string): Promise<void>;
  /** Releases the connections. */
  close(): void;
}
