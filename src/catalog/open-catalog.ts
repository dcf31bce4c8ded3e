// openCatalog: the catalog's entry point (DESIGN.md 2.4): folders, file, migrations, clean-up, then a Catalog.

import path from 'node:path';
import { environmentErrorOf } from '../contract/index.js';
import { makeFolder } from '../base/index.js';
import { backfillRowsFingerprints } from './backfill-rows-fingerprints.js';
import { Catalog, CATALOG_FILE } from './catalog.js';
import { CatalogCorruptError } from './catalog-errors.js';
import { CatalogLease } from './catalog-lease.js';
import { homeFailure, isCorruption } from './catalog-open-failures.js';
import { resolveCatalogOptions, type CatalogOptions, type ResolvedCatalogOptions } from './catalog-options.js';
import { CATALOG_SCHEMA_VERSION, ROWS_FINGERPRINT_MIGRATION } from './catalog-schema.js';
import { ContentStore } from './content-store.js';
import { createCatalogFile } from './create-catalog-file.js';
import { catalogMessages } from './messages.js';
import { closeDuckdbFile, openDuckdbFile, type DuckdbFile } from './open-duckdb-file.js';
import { catalogSchemaVersion, runMigrations } from './run-migrations.js';

/**
 * Opens the catalog in `home` (RDW_HOME): creates `<home>/catalog.duckdb` and (read-write only) `<home>/store/`, applies
 * migrations, and (read-write) removes stale temp files and gives older releases their rows fingerprints.
 * Throws CatalogBusyError (naming the holder's PID) when another process holds the catalog longer than
 * `options.busyTimeoutMs` (default 10 s to read, 60 s to write); `options.onWait` hears about the wait after
 * 1 s. `hold: 'while-busy'` lets the file go between operations (docs/catalog.md "Many readers, one writer").
 * Migrations and clean-up run here only, once per Catalog, also for a lease, whose later opens only open the file.
 */
export async function openCatalog(home: string, options: CatalogOptions = {}): Promise<Catalog> {
  const resolved = resolveCatalogOptions(options);
  const absoluteHome = path.resolve(home);
  const file = path.join(absoluteHome, CATALOG_FILE);
  let store: ContentStore;
  try {
    await makeFolder(absoluteHome);
    store = await ContentStore.open(path.join(absoluteHome, 'store'), { readOnly: resolved.readOnly });
  } catch (error) {
    throw await homeFailure(absoluteHome, error);
  }
  try {
    return await openFile(absoluteHome, file, store, resolved);
  } catch (error) {
    if (isCorruption(error)) {
      throw new CatalogCorruptError(catalogMessages.catalogCorrupt(file, (error as Error).message), { file, cause: error });
    }
    throw environmentErrorOf(error, file) ?? error;
  }
}

async function openFile(absoluteHome: string, file: string, store: ContentStore, resolved: ResolvedCatalogOptions): Promise<Catalog> {
  const lease = (opened: DuckdbFile) => new CatalogLease(file, opened, resolved, () => store.busy);
  // A new catalog appears complete or not at all (a kill while DuckDB creates a file leaves it unreadable).
  const created = await createCatalogFile(file, resolved, resolved.now);
  if (resolved.readOnly) {
    // A read-only handle cannot migrate: do that first with a short read-write open.
    let current = created ? CATALOG_SCHEMA_VERSION : -1;
    if (!created) {
      const probe = await openDuckdbFile(file, true, resolved);
      try {
        current = await catalogSchemaVersion(probe.connection);
      } finally {
        closeDuckdbFile(file, probe);
      }
    }
    if (current < CATALOG_SCHEMA_VERSION) {
      // Migrations, then the backfill of row fingerprints (migration 4), as a read-write open does them.
      const writer = await openFile(absoluteHome, file, store, { ...resolved, readOnly: false, hold: 'always' });
      await writer.close();
    }
    return new Catalog(absoluteHome, store, lease(await openDuckdbFile(file, true, resolved)), resolved, { removed: [], kept: [] });
  }

  const opened = await openDuckdbFile(file, false, resolved);
  let catalog: Catalog;
  let applied: number[];
  try {
    applied = await runMigrations(opened.connection, resolved.now());
    // Safe now: this process holds the catalog's lock, so no other rdw is downloading into store/tmp.
    const cleanup = await store.cleanTemp(resolved.now().getTime(), resolved.maxPartialAgeMs);
    catalog = new Catalog(absoluteHome, store, lease(opened), resolved, cleanup);
  } catch (error) {
    closeDuckdbFile(file, opened);
    throw error;
  }
  // Releases imported before rdw recorded row fingerprints get theirs from their verified stored files, once:
  // in the open that adds the column (what it leaves, `rdw verify` reports and `verify --repair` mends).
  if (applied.includes(ROWS_FINGERPRINT_MIGRATION)) await backfillRowsFingerprints(catalog).catch(async (error: unknown) => {
    await catalog.close();
    throw error;
  });
  return catalog;
}
