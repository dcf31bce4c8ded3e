// The content-addressed file store `store/sha256/<2 hex>/<64 hex>` (DESIGN.md 2.4): every file verified,
// written once (temp file + fsync + rename), read-only; `store/tmp/` holds in-flight downloads.

import { chmod, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { SHA256_HEX_PATTERN, hashFile, isFolder, makeFolder, ownFolder, removeTree } from '../base/index.js';
import type { FileDigest } from '../contract/index.js';
import type { TeamStore } from '../store/index.js';
import { cleanTempFolder, listTempFiles, removeTempEntries, type TempCleanup } from './store-temp-folder.js';

export type { TempCleanup } from './store-temp-folder.js';

let trashCount = 0;

/** Mode of stored files: read-only for everyone. */
export const STORED_FILE_MODE = 0o444;

async function fsyncPath(target: string, flags: 'r' | 'r+' = 'r'): Promise<void> {
  const handle = await open(target, flags);
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  } finally {
    await handle.close();
  }
}

/** The store under `<home>/store`. Construct with `ContentStore.open` (creates the folders). */
export class ContentStore {
  /** Absolute `<home>/store`. */
  readonly root: string;
  /** Absolute `<home>/store/tmp`, for in-flight downloads. */
  readonly tempDir: string;
  /**
   * Digests this store object hashed or wrote itself. Stored files are content-addressed, written once
   * and read-only, so `holds` does not hash them again in the same process (the bundled schema is shared
   * by every release of a product version: re-hashing it per release was a measurable part of a pull).
   * `verifyStore` and `reproduce` always hash.
   */
  readonly #verified = new Set<string>();
  /** The team store a pull reads first and publishes to (RDW_STORE_URL; docs/catalog.md "Team store"). */
  #team: TeamStore | undefined;
  /** Digests in use by in-flight pulls of this process (count per digest): never removed while here. */
  readonly #pins = new Map<string, number>();
  /** Digests being removed now; `pin` waits for their removal to end. */
  readonly #removing = new Map<string, Promise<unknown>>();

  private constructor(root: string) {
    this.root = root;
    this.tempDir = path.join(root, 'tmp');
  }

  /**
   * Opens (creating) the store folders under `root`; `tmp/` is registered as this process's to clean (removeTree).
   * `{ readOnly: true }` creates nothing (a read-only command leaves a home as it found it): a folder that is not
   * there holds no file, and `tmp/` is registered only when there.
   */
  static async open(root: string, options: { readOnly?: boolean } = {}): Promise<ContentStore> {
    const store = new ContentStore(root);
    if (options.readOnly === true) {
      if (await isFolder(store.tempDir)) await ownFolder(store.tempDir);
      return store;
    }
    await makeFolder(path.join(root, 'sha256'));
    await makeFolder(store.tempDir);
    await ownFolder(store.tempDir);
    return store;
  }

  /** The team store in use, if any (`useTeamStore`). */
  get team(): TeamStore | undefined {
    return this.#team;
  }

  /** Makes pulls read `team` first and publish to it (undefined: the local store alone, the default). */
  useTeamStore(team: TeamStore | undefined): void {
    this.#team = team;
  }

  /** Store path of a digest, relative to the store's parent (the catalog home): `store/sha256/ab/ab12…`. */
  static relativePath(sha256: string): string {
    return ['store', 'sha256', sha256.slice(0, 2), sha256].join('/');
  }

  /** Absolute path of the stored file with this sha256. */
  pathOf(sha256: string): string {
    if (!SHA256_HEX_PATTERN.test(sha256)) throw new TypeError(`not a sha256 hex digest: ${sha256}`);
    return path.join(this.root, 'sha256', sha256.slice(0, 2), sha256);
  }

  /** A path in `store/tmp/` for an in-flight file. */
  tempPath(name: string): string {
    return path.join(this.tempDir, name);
  }

  /** True when the store holds a file with this digest whose bytes hash to it (hashed once per process). */
  async holds(digest: FileDigest): Promise<boolean> {
    const target = this.pathOf(digest.sha256);
    const info = await stat(target).catch(() => undefined);
    if (info === undefined || info.size !== digest.bytes) return false;
    if (this.#verified.has(digest.sha256)) return true;
    const actual = await hashFile(target);
    if (actual.sha256 !== digest.sha256) return false;
    this.#verified.add(digest.sha256);
    return true;
  }

  /**
   * Forgets that this store object verified `sha256`, so the next `holds` hashes the stored file again:
   * for a file found missing or altered on disk (`rdw verify --repair` replaces it with verified bytes).
   */
  forget(sha256: string): void {
    this.#verified.delete(sha256);
  }

  /**
   * Moves a verified temp file into the store under its digest: fsync, chmod 0444, rename, fsync the
   * folder. A stored file that already holds the right bytes is kept and the temp file removed.
   * The caller must have verified `digest` (the client's download does) and may skip the fsync of a
   * file it already synced (`synced`, default false).
   */
  async put(tempFile: string, digest: FileDigest, synced = false): Promise<string> {
    const target = this.pathOf(digest.sha256);
    if (await this.holds(digest)) {
      await rm(tempFile, { force: true });
      return target;
    }
    await makeFolder(path.dirname(target));
    if (!synced) await fsyncPath(tempFile, 'r+');
    await chmod(tempFile, STORED_FILE_MODE);
    await rename(tempFile, target);
    await fsyncPath(path.dirname(target));
    this.#verified.add(digest.sha256);
    return target;
  }

  /** Writes verified in-memory bytes (manifest, schema) into the store the same way. */
  async putBytes(bytes: Uint8Array, digest: FileDigest, tempName: string): Promise<string> {
    if (await this.holds(digest)) return this.pathOf(digest.sha256);
    const temp = this.tempPath(tempName);
    const handle = await open(temp, 'w');
    try {
      let offset = 0;
      while (offset < bytes.length) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten;
      await handle.sync();
    } finally {
      await handle.close();
    }
    return this.put(temp, digest, true);
  }

  /**
   * Marks a digest as in use by an in-flight pull of this process until `unpin`: `removeUnpinned` (the
   * clean-up of a refused release, `collectGarbage`) never removes it. Call it before `holds`/`put` of
   * that digest; it waits while a removal of the same digest is under way.
   */
  async pin(sha256: string): Promise<void> {
    for (let removal = this.#removing.get(sha256); removal !== undefined; removal = this.#removing.get(sha256)) await removal;
    this.#pins.set(sha256, (this.#pins.get(sha256) ?? 0) + 1);
  }

  /** Ends one `pin` of a digest. */
  unpin(sha256: string): void {
    const count = (this.#pins.get(sha256) ?? 0) - 1;
    if (count > 0) this.#pins.set(sha256, count);
    else this.#pins.delete(sha256);
  }

  /** True while an in-flight pull of this process uses the digest. */
  isPinned(sha256: string): boolean {
    return this.#pins.has(sha256);
  }

  /** True while any pull of this process has a digest pinned (it may also be writing into `store/tmp/`). */
  get busy(): boolean {
    return this.#pins.size > 0;
  }

  /**
   * Removes the stored files of `digests` that no in-flight pull of this process pinned, all or nothing:
   * each is first moved into a folder `store/tmp/trash.<pid>.<n>/` (a rename; a leftover is removed by the
   * next read-write open), and when one move fails the moved ones go back and the error is thrown; then the
   * folder is removed. The caller must have checked that no
   * release references them, under the catalog's writer (`Catalog.exclusive`). Returns the digests removed.
   */
  async removeUnpinned(digests: readonly string[]): Promise<string[]> {
    const chosen = [...new Set(digests)].filter((sha256) => !this.#pins.has(sha256) && !this.#removing.has(sha256));
    if (chosen.length === 0) return [];
    const work = this.#moveAway(chosen);
    for (const sha256 of chosen) this.#removing.set(sha256, work.catch(() => undefined));
    try {
      await work;
      return chosen;
    } finally {
      for (const sha256 of chosen) {
        this.#removing.delete(sha256);
        this.#verified.delete(sha256);
      }
    }
  }

  async #moveAway(digests: readonly string[]): Promise<void> {
    const trash = this.tempPath(`trash.${process.pid}.${(trashCount += 1)}`);
    await makeFolder(trash);
    const moved: string[] = [];
    try {
      for (const sha256 of digests) {
        const from = this.pathOf(sha256);
        if ((await stat(from).catch(() => undefined)) === undefined) continue;
        await rename(from, path.join(trash, sha256));
        moved.push(sha256);
      }
    } catch (error) {
      for (const sha256 of moved) await rename(path.join(trash, sha256), this.pathOf(sha256)).catch(() => undefined);
      await removeTree(trash).catch(() => undefined);
      throw error;
    }
    await removeTree(trash);
  }

  /** Files in `store/tmp/` (partial and in-flight downloads), with their sizes in bytes, sorted by name. */
  listTemp(): Promise<{ name: string; bytes: number }[]> {
    return listTempFiles(this.tempDir);
  }

  /** Removes the named entries of `store/tmp/` (files or folders); returns how many were there. */
  removeTemp(names: readonly string[]): Promise<number> {
    return removeTempEntries(this.tempDir, names);
  }

  /** Every stored digest (file name) found on disk, sorted. */
  async listStored(): Promise<string[]> {
    const base = path.join(this.root, 'sha256');
    const found: string[] = [];
    for (const prefix of await readdir(base).catch(() => [] as string[])) {
      for (const name of await readdir(path.join(base, prefix)).catch(() => [] as string[])) {
        if (SHA256_HEX_PATTERN.test(name) && name.startsWith(prefix)) found.push(name);
      }
    }
    return found.sort();
  }

  /** Removes stale files from `store/tmp/`, keeping young resumable partials (cleanTempFolder). */
  cleanTemp(nowMs: number, maxPartialAgeMs?: number): Promise<TempCleanup> {
    return cleanTempFolder(this.tempDir, nowMs, maxPartialAgeMs);
  }
}
