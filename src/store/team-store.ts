// The team store (issue 32): the content store's objects on S3-compatible object storage, shared by a desk.
// Objects are content-addressed as the local store's files (`<prefix>/sha256/<2 hex>/<64 hex>`); a release's
// manifest, whose digest nothing names before it is read, lives at `<prefix>/releases/<id>/manifest.json`.
// Nothing read from it is trusted: every object is hashed against the digest it must have, and a refused one
// is said once (a notice), fetched from the API by the caller and repaired here with verified bytes.
// A store that cannot be reached is said once and skipped for the rest of the process (the API serves).

import { rm } from 'node:fs/promises';
import { SHA256_HEX_PATTERN, sha256Digest, type Sha256Digest } from '../base/index.js';
import { storeMessages } from './messages.js';
import type { ObjectStore } from './object-store.js';
import { StoreError } from './store-errors.js';

/** What a read from the team store gave. */
export type TeamFetch = 'verified' | 'missing' | 'refused';

export interface TeamStoreOptions {
  /** One sentence per thing a person should know (an object refused, the store down). Default: none. */
  onNotice?: (sentence: string) => void;
}

/** Counts of what this process read from and wrote to the team store. */
export interface TeamStoreCounts {
  /** Objects read and verified. */
  verified: number;
  /** Objects refused (bytes not those they must be). */
  refused: number;
  /** Objects written (published or repaired). */
  published: number;
  /** Objects repaired (overwritten after a refusal). */
  repaired: number;
}

export class TeamStore {
  readonly objects: ObjectStore;
  readonly counts: TeamStoreCounts = { verified: 0, refused: 0, published: 0, repaired: 0 };
  #onNotice: (sentence: string) => void;
  /** Set once the store failed a request: said once, and the store is not asked again by this process. */
  #down: StoreError | undefined;
  /** Keys this process found whole or wrote: not published again. */
  readonly #present = new Set<string>();
  /** Manifest reads started ahead (`prefetchManifest`), each taken once by `fetchManifest`. */
  readonly #manifestsAhead = new Map<string, Promise<Uint8Array | undefined>>();
  /** Keys whose object was refused: the next publish overwrites them. */
  readonly #refused = new Set<string>();

  constructor(objects: ObjectStore, options: TeamStoreOptions = {}) {
    this.objects = objects;
    this.#onNotice = options.onNotice ?? (() => undefined);
  }

  /** Sends the notices from now on to `listener` (a command's progress bar writes them above itself). */
  sayTo(listener: (sentence: string) => void): void {
    this.#onNotice = listener;
  }

  /** `s3://bucket/prefix`. */
  get href(): string {
    return this.objects.url.href;
  }

  /** False once a request failed (the store is down or refuses): the caller goes to the API alone. */
  get available(): boolean {
    return this.#down === undefined;
  }

  /** The failure that took the store out of this process's use, if any. */
  get failure(): StoreError | undefined {
    return this.#down;
  }

  /** Key of a content-addressed object: `sha256/ab/ab12…` (relative to the prefix). */
  static fileKey(sha256: string): string {
    if (!SHA256_HEX_PATTERN.test(sha256)) throw new TypeError(`not a sha256 hex digest: ${sha256}`);
    return `sha256/${sha256.slice(0, 2)}/${sha256}`;
  }

  /** Key of a release's manifest: `releases/<id>/manifest.json` (relative to the prefix). */
  static manifestKey(releaseId: string): string {
    return `releases/${releaseId}/manifest.json`;
  }

  /**
   * Reads the object of `expected` into `file`, hashed on the way: `verified` when its bytes are the digest's,
   * `refused` (said once; `file` removed) when they are not, `missing` when there is none or the store is down.
   * @param what the file in words, for the notice ("the parquet file of release 3f2a…")
   */
  async fetchFile(expected: Sha256Digest, file: string, what: string): Promise<TeamFetch> {
    const read = await this.#readFile(TeamStore.fileKey(expected.sha256), expected, file);
    if (read.outcome === 'refused') this.refuse(TeamStore.fileKey(expected.sha256), what, read.why ?? '');
    return read.outcome;
  }

  /**
   * Checks the object at `key` against `expected` (read into `file`, then removed), saying nothing:
   * `verified`, `missing` (or the store down: see `available`), or `refused` with why.
   */
  async checkObject(key: string, expected: Sha256Digest, file: string): Promise<{ outcome: TeamFetch; why?: string }> {
    try {
      return await this.#readFile(key, expected, file);
    } finally {
      await rm(file, { force: true });
    }
  }

  /** Writes verified bytes (a file or in memory) over whatever `key` holds: the repair of a refused or missing object. */
  async replace(key: string, body: Uint8Array | { file: string; bytes: number }, contentType?: string): Promise<boolean> {
    if (!this.available) return false;
    try {
      await this.objects.put(key, body, { ifAbsent: false, ...(contentType === undefined ? {} : { contentType }) });
    } catch (error) {
      this.#fail(error);
      return false;
    }
    this.#present.add(key);
    this.#refused.delete(key);
    this.counts.published += 1;
    this.counts.repaired += 1;
    return true;
  }

  async #readFile(key: string, expected: Sha256Digest, file: string): Promise<{ outcome: TeamFetch; why?: string }> {
    if (!this.available) return { outcome: 'missing' };
    let actual: Sha256Digest | undefined;
    try {
      actual = await this.objects.getToFile(key, file);
    } catch (error) {
      await rm(file, { force: true });
      this.#fail(error);
      return { outcome: 'missing' };
    }
    if (actual === undefined) return { outcome: 'missing' };
    if (actual.sha256 === expected.sha256 && actual.bytes === expected.bytes) {
      this.#present.add(key);
      this.counts.verified += 1;
      return { outcome: 'verified' };
    }
    await rm(file, { force: true });
    return { outcome: 'refused', why: describeDifference(expected, actual) };
  }

  /**
   * Reads a small object of `expected` into memory: its bytes when they hash to the digest, else undefined
   * (`refused` said once, or missing, or the store down).
   */
  async fetchBytes(expected: Sha256Digest, what: string): Promise<Uint8Array | undefined> {
    if (!this.available) return undefined;
    const key = TeamStore.fileKey(expected.sha256);
    const bytes = await this.#getBytes(key, expected.bytes);
    if (bytes === undefined) return undefined;
    const actual = sha256Digest(bytes);
    if (actual.sha256 === expected.sha256 && actual.bytes === expected.bytes) {
      this.#present.add(key);
      this.counts.verified += 1;
      return bytes;
    }
    this.refuse(key, what, describeDifference(expected, actual));
    return undefined;
  }

  /**
   * The bytes stored as release `releaseId`'s manifest, unverified: the caller checks them against the listing
   * or lock (and calls `refuseManifest` when they fail). Undefined when there is none or the store is down.
   */
  async fetchManifest(releaseId: string): Promise<Uint8Array | undefined> {
    const ahead = this.#manifestsAhead.get(releaseId);
    if (ahead !== undefined) {
      this.#manifestsAhead.delete(releaseId);
      return ahead;
    }
    if (!this.available) return undefined;
    return this.#getBytes(TeamStore.manifestKey(releaseId), 16 * 1024 * 1024);
  }

  /**
   * Starts reading release `releaseId`'s stored manifest now, for the `fetchManifest` that follows (a pull reads
   * the manifests of the next releases while it checks this one). Resolves with what that call will give.
   */
  prefetchManifest(releaseId: string): Promise<Uint8Array | undefined> {
    let ahead = this.#manifestsAhead.get(releaseId);
    if (ahead === undefined) {
      ahead = this.available ? this.#getBytes(TeamStore.manifestKey(releaseId), 16 * 1024 * 1024) : Promise.resolve(undefined);
      this.#manifestsAhead.set(releaseId, ahead);
    }
    return ahead;
  }

  /** Records that release `releaseId`'s stored manifest was verified (by the caller, against the listing). */
  manifestVerified(releaseId: string): void {
    this.#present.add(TeamStore.manifestKey(releaseId));
    this.counts.verified += 1;
  }

  /** Says that release `releaseId`'s stored manifest was refused (`why`), and marks it for repair. */
  refuseManifest(releaseId: string, why: string): void {
    this.refuse(TeamStore.manifestKey(releaseId), storeMessages.manifestWhat(releaseId), why);
  }

  /** Marks `key` refused for `why` and says so once. */
  refuse(key: string, what: string, why: string): void {
    this.#present.delete(key);
    if (!this.#refused.has(key)) this.counts.refused += 1;
    this.#refused.add(key);
    this.#onNotice(storeMessages.objectRefused(this.href, what, why));
  }

  /** Publishes a verified file under its digest (conditional write; an overwrite when its object was refused). */
  async publishFile(file: string, digest: Sha256Digest): Promise<void> {
    await this.#publish(TeamStore.fileKey(digest.sha256), { file, bytes: digest.bytes });
  }

  /** Publishes verified bytes under their digest. */
  async publishBytes(bytes: Uint8Array): Promise<void> {
    await this.#publish(TeamStore.fileKey(sha256Digest(bytes).sha256), bytes);
  }

  /** Publishes release `releaseId`'s verified manifest bytes. */
  async publishManifest(releaseId: string, bytes: Uint8Array): Promise<void> {
    await this.#publish(TeamStore.manifestKey(releaseId), bytes, 'application/json');
  }

  /** True when this process read `sha256`'s object verified or wrote it. */
  holds(sha256: string): boolean {
    return this.#present.has(TeamStore.fileKey(sha256));
  }

  /** True when this process refused `sha256`'s object (and has not repaired it yet). */
  isRefused(sha256: string): boolean {
    return this.#refused.has(TeamStore.fileKey(sha256));
  }

  /** Releases the store's connections. */
  close(): void {
    this.objects.close();
  }

  async #publish(key: string, body: Uint8Array | { file: string; bytes: number }, contentType?: string): Promise<void> {
    if (!this.available || this.#present.has(key)) return;
    const repair = this.#refused.has(key);
    try {
      const outcome = await this.objects.put(key, body, { ifAbsent: !repair, ...(contentType === undefined ? {} : { contentType }) });
      this.#present.add(key);
      this.#refused.delete(key);
      if (outcome === 'written') this.counts.published += 1;
      if (repair) this.counts.repaired += 1;
    } catch (error) {
      this.#fail(error);
    }
  }

  async #getBytes(key: string, maxBytes: number): Promise<Uint8Array | undefined> {
    try {
      return await this.objects.getBytes(key, { maxBytes });
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  /** A failed request: the store is out of use for this process, said once. A bug is thrown as it is. */
  #fail(error: unknown): void {
    if (!(error instanceof StoreError)) throw error;
    if (this.#down !== undefined) return;
    this.#down = error;
    this.#onNotice(storeMessages.storeOutOfUse(error.message));
  }
}

function describeDifference(expected: Sha256Digest, actual: Sha256Digest): string {
  return actual.bytes !== expected.bytes
    ? storeMessages.sizeDiffers(actual.bytes, expected.bytes)
    : storeMessages.sha256Differs(actual.sha256, expected.sha256);
}
