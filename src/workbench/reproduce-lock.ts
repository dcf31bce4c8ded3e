// Reproducing a study lock in a home (rdw reproduce): the lock read first (malformed or newer: exit 2 before
// anything opens), the catalog read-only while every locked release is present, and opened to write and the
// API connected only when one is missing; then reproduceStudy (pull by exact ID, verify every checksum).

import { importedReleaseIds, type Catalog } from '../catalog/index.js';
import type { RdwClient } from '../client/index.js';
import { readLock, reproduceStudy, type ReproduceProgress, type ReproduceReport, type StudyLock } from '../locks/index.js';

export interface ReproduceLockOptions {
  /** Opens the home's catalog: 'read' first, 'write' when a locked release must be pulled. */
  openCatalog: (access: 'read' | 'write') => Promise<Catalog>;
  /** The API, asked for only when a locked release is missing (the caller closes it). */
  connect: () => Promise<RdwClient>;
  /** Called with the locked IDs once the lock is read, before anything is pulled or re-hashed. Default: none. */
  onPlanned?: (ids: readonly string[]) => void;
  /** The pulls' progress, then one `verified` per release (reproduceStudy's). Default: none. */
  onProgress?: (event: ReproduceProgress) => void;
  /** Stops the pulls between releases (reproduceStudy's `signal`: AbortedError, nothing verified). Default: none. */
  signal?: AbortSignal;
  /** Told how many were pulled and how many are missing when `signal` stopped them. Default: none. */
  onInterrupted?: (pulled: number, missing: number) => void;
}

export interface ReproducedLock {
  lock: StudyLock;
  report: ReproduceReport;
}

/**
 * Reads the lock at `lockPath` and reproduces it: any difference throws (exit 3 / 6).
 * @throws the lock's errors (exit 2), reproduceStudy's.
 */
export async function reproduceLock(lockPath: string, options: ReproduceLockOptions): Promise<ReproducedLock> {
  const lock = await readLock(lockPath);
  let catalog = await options.openCatalog('read');
  const ids = lock.releases.map((release) => release.id);
  options.onPlanned?.(ids);
  const present = await importedReleaseIds(catalog, ids);
  let client: RdwClient | undefined;
  if (ids.some((id) => !present.has(id))) {
    if (catalog.readOnly) {
      await catalog.close();
      catalog = await options.openCatalog('write');
    }
    client = await options.connect();
  }
  const { onProgress, signal, onInterrupted } = options;
  return {
    lock,
    report: await reproduceStudy(lock, catalog, client, {
      ...(onProgress === undefined ? {} : { onProgress }),
      ...(signal === undefined ? {} : { signal }),
      ...(onInterrupted === undefined ? {} : { onInterrupted }),
    }),
  };
}
