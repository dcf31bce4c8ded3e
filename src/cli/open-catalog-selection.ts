// How both studies (`rdw study event`, `rdw study model`) reach their rows: the lock read first (malformed or
// newer: exit 2 before anything opens), the catalog opened read-only (a study cannot change it), and with a lock
// the one verification path before any number is computed.

import path from 'node:path';
import type { Catalog } from '../catalog/index.js';
import { readLock, verifyStudyLock } from '../locks/index.js';
import type { CliContext } from './cli-context.js';
import { openCliCatalog } from './open-cli-catalog.js';

/** A catalog opened read-only and the exact release IDs to read from it (undefined: its current view). */
export interface CatalogSelection {
  readonly catalog: Catalog;
  readonly releases: string[] | undefined;
}

/**
 * Opens `context.home`'s catalog read-only; with `lockFile` (relative to the working folder), verifies the
 * catalog records and stored bytes against the lock and returns exactly its release IDs.
 * @throws the lock's errors (exit 2), NoCatalogError without a catalog (exit 1), a lock mismatch (exit 3)
 */
export async function openCatalogSelection(context: CliContext, lockFile: string | undefined): Promise<CatalogSelection> {
  const lock = lockFile === undefined ? undefined : await readLock(path.resolve(context.cwd, lockFile));
  const catalog = await openCliCatalog(context, 'read');
  const releases = lock === undefined ? undefined : (await verifyStudyLock(catalog, lock)).releases.map((release) => release.id);
  return { catalog, releases };
}
