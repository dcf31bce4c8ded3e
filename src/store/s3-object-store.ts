// The ObjectStore on S3 (AWS S3, MinIO, Ceph RGW, R2) through @aws-sdk/client-s3, loaded lazily by
// openS3Client. A conditional write uses `If-None-Match: *`; a store that does not implement it gets the
// object under a temporary key, copied into place when the key is still free.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Sha256Digest } from '../base/index.js';
import type { ObjectBody, ObjectInfo, ObjectStore, PutObjectOptions, PutOutcome } from './object-store.js';
import { loadS3Sdk, openS3Client, type OpenS3ClientOptions } from './open-s3-client.js';
import { storeFailure, isMissingObject, isPreconditionFailed, isConditionUnsupported } from './store-failure.js';
import { storeKey, type StoreUrl } from './store-url.js';

/** Bodies up to this size are sent from memory (retryable); larger ones are streamed from disk. */
const IN_MEMORY_BODY_BYTES = 64 * 1024 * 1024;

/** Where the fallback of a conditional write puts its temporary objects, under the prefix. */
export const STORE_TEMP_FOLDER = 'tmp';

export interface OpenS3ObjectStoreOptions extends OpenS3ClientOptions {
  /**
   * Send `If-None-Match: *` on a conditional write (default true). False: always the temporary key and copy,
   * for a store known not to implement it (one that answers 501 is found out on the first write anyway).
   */
  conditionalWrites?: boolean;
}

export class S3ObjectStore implements ObjectStore {
  readonly url: StoreUrl;
  readonly #client: S3Client;
  readonly #sdk: typeof import('@aws-sdk/client-s3');
  /** False once the store answered that it does not implement `If-None-Match` on PUT. */
  #conditionalPuts = true;

  private constructor(url: StoreUrl, client: S3Client, sdk: typeof import('@aws-sdk/client-s3')) {
    this.url = url;
    this.#client = client;
    this.#sdk = sdk;
  }

  /** Opens a store at `url` with a client from the standard chain (openS3Client). Sends no request. */
  static async open(url: StoreUrl, options: OpenS3ObjectStoreOptions = {}): Promise<S3ObjectStore> {
    const client = await openS3Client(options);
    const store = new S3ObjectStore(url, client, await loadS3Sdk());
    if (options.conditionalWrites === false) store.#conditionalPuts = false;
    return store;
  }

  #key(key: string): string {
    return storeKey(this.url, key);
  }

  async #send<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw storeFailure(error, this.url);
    }
  }

  async head(key: string): Promise<ObjectInfo | undefined> {
    try {
      const answer = await this.#client.send(new this.#sdk.HeadObjectCommand({ Bucket: this.url.bucket, Key: this.#key(key) }));
      return { key, bytes: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw storeFailure(error, this.url);
    }
  }

  async getBytes(key: string, options: { maxBytes?: number } = {}): Promise<Uint8Array | undefined> {
    const maxBytes = options.maxBytes ?? IN_MEMORY_BODY_BYTES;
    const body = await this.#get(key);
    if (body === undefined) return undefined;
    if (body.length !== undefined && body.length > maxBytes) {
      body.stream.destroy();
      return undefined;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    await this.#send(async () => {
      for await (const chunk of body.stream) {
        total += (chunk as Buffer).length;
        if (total > maxBytes) break;
        chunks.push(chunk as Buffer);
      }
    });
    if (total > maxBytes) {
      body.stream.destroy();
      return undefined;
    }
    return Buffer.concat(chunks);
  }

  async getToFile(key: string, file: string): Promise<Sha256Digest | undefined> {
    const body = await this.#get(key);
    if (body === undefined) return undefined;
    const hash = createHash('sha256');
    let bytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(body.stream, tap, createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      // A failure of this machine's disk (ENOSPC, EACCES …) is said as what it is, not as the store's.
      const syscall = (error as { syscall?: unknown }).syscall;
      if (syscall === 'open' || syscall === 'write' || syscall === 'close' || syscall === 'fsync') throw error;
      throw storeFailure(error, this.url);
    }
    return { sha256: hash.digest('hex'), bytes };
  }

  async #get(key: string): Promise<{ stream: Readable; length: number | undefined } | undefined> {
    try {
      const answer = await this.#client.send(new this.#sdk.GetObjectCommand({ Bucket: this.url.bucket, Key: this.#key(key) }));
      return { stream: answer.Body as Readable, length: answer.ContentLength };
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw storeFailure(error, this.url);
    }
  }

  async put(key: string, body: ObjectBody, options: PutObjectOptions = {}): Promise<PutOutcome> {
    const ifAbsent = options.ifAbsent ?? true;
    if (!ifAbsent) {
      await this.#put(this.#key(key), body, options.contentType, false);
      return 'written';
    }
    if (this.#conditionalPuts) {
      try {
        await this.#client.send(await this.#putCommand(this.#key(key), body, options.contentType, true));
        return 'written';
      } catch (error) {
        if (isPreconditionFailed(error)) return 'exists';
        if (!isConditionUnsupported(error)) throw storeFailure(error, this.url);
        this.#conditionalPuts = false;
      }
    }
    return this.#putByCopy(key, body, options.contentType);
  }

  /** The fallback of a conditional write: a temporary key, a check, a server-side copy (atomic), the temp removed. */
  async #putByCopy(key: string, body: ObjectBody, contentType: string | undefined): Promise<PutOutcome> {
    if ((await this.head(key)) !== undefined) return 'exists';
    const temp = `${STORE_TEMP_FOLDER}/${randomBytes(8).toString('hex')}.${key.split('/').pop() ?? 'object'}`;
    await this.#put(this.#key(temp), body, contentType, false);
    try {
      if ((await this.head(key)) !== undefined) return 'exists';
      const source = `${this.url.bucket}/${this.#key(temp).split('/').map(encodeURIComponent).join('/')}`;
      await this.#send(() =>
        this.#client.send(new this.#sdk.CopyObjectCommand({ Bucket: this.url.bucket, Key: this.#key(key), CopySource: source })),
      );
      return 'written';
    } finally {
      await this.delete(temp).catch(() => undefined);
    }
  }

  async #put(fullKey: string, body: ObjectBody, contentType: string | undefined, ifAbsent: boolean): Promise<void> {
    await this.#send(async () => this.#client.send(await this.#putCommand(fullKey, body, contentType, ifAbsent)));
  }

  async #putCommand(fullKey: string, body: ObjectBody, contentType: string | undefined, ifAbsent: boolean) {
    const payload =
      body instanceof Uint8Array ? body : body.bytes <= IN_MEMORY_BODY_BYTES ? await readFile(body.file) : createReadStream(body.file);
    return new this.#sdk.PutObjectCommand({
      Bucket: this.url.bucket,
      Key: fullKey,
      Body: payload,
      ContentLength: body instanceof Uint8Array ? body.length : body.bytes,
      ContentType: contentType ?? 'application/octet-stream',
      ...(ifAbsent ? { IfNoneMatch: '*' } : {}),
    });
  }

  async list(keyPrefix: string): Promise<ObjectInfo[]> {
    const found: ObjectInfo[] = [];
    const base = this.url.prefix === '' ? '' : `${this.url.prefix}/`;
    let token: string | undefined;
    do {
      const page = await this.#send(() =>
        this.#client.send(
          new this.#sdk.ListObjectsV2Command({ Bucket: this.url.bucket, Prefix: base + keyPrefix, ContinuationToken: token }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key !== undefined && item.Key.startsWith(base)) found.push({ key: item.Key.slice(base.length), bytes: item.Size ?? 0 });
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await this.#send(() => this.#client.send(new this.#sdk.DeleteObjectCommand({ Bucket: this.url.bucket, Key: this.#key(key) })));
  }

  close(): void {
    this.#client.destroy();
  }
}
