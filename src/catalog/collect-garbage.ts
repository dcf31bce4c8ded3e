// collectGarbage (`rdw gc`): removes store files no release references and leftovers in store/tmp, all
// or nothing, under the catalog's writer; and the same clean-up for the files of one refused release.

import { stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { ContentStore } from './content-store.js';
import { catalogMessages } from './messages.js';
import { idInListSql } from './release-id-sql.js';

/** One file `collectGarbage` removes (or would remove). */
export interface GarbageFile {
  /** Path relative to the catalog home: `store/sha256/ab/ab12…` or `store/tmp/<name>`. */
  file: string;
  /** Size in bytes (0 for a folder). */
  bytes: number;
}

/** What is in the store that no release needs. */
export interface StoreGarbage {
  /** Stored files (`store/sha256/…`) no release references and no pull of this process is using. */
  unreferenced: (GarbageFile & { sha256: string })[];
  /** Entries of `store/tmp/`: partial downloads and leftovers of interrupted pulls; empty while a pull of this process runs. */
  temp: GarbageFile[];
  /** Bytes of both lists. */
  bytes: number;
}

/** What `collectGarbage` did. */
export interface GarbageCollection extends StoreGarbage {
  /** True for a dry run: nothing was removed. */
  dryRun: boolean;
  /** Files removed (0 for a dry run). */
  removed: number;
}

export interface CollectGarbageOptions {
  /** List what would be removed and remove nothing. Default false. */
  dryRun?: boolean;
}

/** Every sha256 that `release_files` names, read on `connection`. */
async function referencedDigests(connection: DuckDBConnection): Promise<Set<string>> {
  const reader = await connection.runAndReadAll('SELECT DISTINCT sha256 FROM release_files');
  return new Set(reader.getRows().map((row) => String(row[0])));
}

/**
 * The garbage of `catalog`'s store given the referenced digests: unreferenced stored files (those an
 * in-flight pull of this process pinned excepted) and the entries of store/tmp (none while such a pull runs).
 */
export async function findStoreGarbage(catalog: Catalog, referenced: ReadonlySet<string>): Promise<StoreGarbage> {
  const { store } = catalog;
  const unreferenced: StoreGarbage['unreferenced'] = [];
  for (const sha256 of await store.listStored()) {
    if (referenced.has(sha256) || store.isPinned(sha256)) continue;
    const info = await stat(store.pathOf(sha256)).catch(() => undefined);
    if (info !== undefined) unreferenced.push({ file: ContentStore.relativePath(sha256), sha256, bytes: info.size });
  }
  const temp = store.busy ? [] : (await store.listTemp()).map(({ name, bytes }) => ({ file: `store/tmp/${name}`, bytes }));
  const bytes = [...unreferenced, ...temp].reduce((sum, file) => sum + file.bytes, 0);
  return { unreferenced, temp, bytes };
}

/**
 * Removes every stored file no release references, and every entry of store/tmp (partial downloads
 * included), all or nothing: the list is made first, under the catalog's writer (no import commits
 * meanwhile), files pinned by an in-flight pull of this process are kept, and a failed removal puts the
 * stored files back. Needs a read-write catalog (its open holds DuckDB's lock, so no other process is
 * pulling) unless `dryRun`.
 */
export async function collectGarbage(catalog: Catalog, options: CollectGarbageOptions = {}): Promise<GarbageCollection> {
  const dryRun = options.dryRun === true;
  if (!dryRun && catalog.readOnly) throw new CatalogOptionError(catalogMessages.gcNeedsWriter(), { option: 'readOnly' });
  return catalog.exclusive(async (connection) => {
    const garbage = await findStoreGarbage(catalog, await referencedDigests(connection));
    if (dryRun) return { ...garbage, dryRun, removed: 0 };
    const removed = await catalog.store.removeUnpinned(garbage.unreferenced.map((file) => file.sha256));
    const temp = await catalog.store.removeTemp(garbage.temp.map((file) => file.file.slice('store/tmp/'.length)));
    return { ...garbage, dryRun, removed: removed.length + temp };
  });
}

/**
 * After a release was refused or failed: removes those of its stored files (`digests`) that no release
 * references and no other in-flight pull of this process uses. Runs under the catalog's writer, so an
 * import naming one of them either committed before (kept) or still holds its pin (kept). Best effort:
 * what cannot be removed stays for `rdw gc`. Returns the digests removed.
 */
export async function dropUnreferenced(catalog: Catalog, digests: readonly string[]): Promise<string[]> {
  const candidates = [...new Set(digests)].filter((sha256) => !catalog.store.isPinned(sha256));
  if (candidates.length === 0 || catalog.readOnly) return [];
  return catalog
    .exclusive(async (connection) => {
      const reader = await connection.runAndReadAll(`SELECT DISTINCT sha256 FROM release_files WHERE ${idInListSql('sha256', candidates)}`);
      const referenced = new Set(reader.getRows().map((row) => String(row[0])));
      return catalog.store.removeUnpinned(candidates.filter((sha256) => !referenced.has(sha256)));
    })
    .catch(() => []);
}
