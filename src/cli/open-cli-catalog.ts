// How every command opens the catalog: read-only for commands that only read (a home without a catalog is
// refused, never created), read-write for writers; a wait for another holder is said on stderr after a
// second, and RDW_CATALOG_WAIT bounds it (in seconds).

import { statSync } from 'node:fs';
import { hasCatalog, openCatalog, type Catalog } from '../workbench/home-catalog.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError, NoCatalogError } from './cli-errors.js';
import { checkStoreUrl, useTeamStore } from '../workbench/use-team-store.js';
import { commandMessages } from './messages.js';

export interface OpenCliCatalogOptions {
  /** Whether a writer creates a missing catalog (and home). Default: true. A reader never creates one. */
  create?: boolean;
}

/**
 * Opens the catalog of `context.home` for the command and closes it when the command ends. 'read': DuckDB's
 * shared lock (several readers at once), waits up to 10 s for a writer; 'write': its exclusive lock, waits up
 * to 60 s. RDW_CATALOG_WAIT (seconds, 0–86400) sets either bound. Notices go to stderr as `rdw: …` lines.
 * A reader finds the catalog or fails: a missing one is NoCatalogError, and nothing is created (no folder,
 * no catalog.duckdb, no store/). A writer creates what is missing, unless `options.create` is false.
 * @throws CliUsageError (exit 2) for a bad RDW_CATALOG_WAIT; NoCatalogError (exit 1) for a reader without a
 * catalog; CatalogBusyError (exit 1) after the bound.
 */
export async function openCliCatalog(context: CliContext, access: 'read' | 'write', options: OpenCliCatalogOptions = {}): Promise<Catalog> {
  const create = access === 'write' && options.create !== false;
  const wait = catalogWaitMs(context.env.RDW_CATALOG_WAIT);
  // A home that is a file (or below one) is left to openCatalog, which says so (RDW_NOT_A_FOLDER) and can make nothing there.
  if (!create && !hasCatalog(context.home) && isFolderOrAbsent(context.home)) throw new NoCatalogError(commandMessages.noCatalog(context.home));
  // A writer pulls through the team store of RDW_STORE_URL (a malformed one is refused before anything is made).
  if (access === 'write') checkStoreUrl(context.env);
  const catalog = await openCatalog(context.home, {
    readOnly: access === 'read',
    ...(wait === undefined ? {} : { busyTimeoutMs: wait }),
    onWait: (notice) => context.stderr.write(`rdw: ${notice.message}\n`),
  });
  context.onExit(() => catalog.close());
  if (access === 'write') {
    const team = await useTeamStore(catalog, { env: context.env, onNotice: (sentence) => context.stderr.write(`rdw: ${sentence}\n`) });
    if (team !== undefined) context.onExit(() => team.close());
  }
  return catalog;
}

/** Whether `home` is a folder or does not exist at all (no file in the way of it). */
function isFolderOrAbsent(home: string): boolean {
  try {
    return statSync(home).isDirectory();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** RDW_CATALOG_WAIT in ms; undefined when unset or empty. */
function catalogWaitMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  // Plain decimal seconds only: Number() would also read "0x10" as 16 and "1e3" as 1000.
  const text = value.trim();
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds > 86_400) {
    throw new CliUsageError(commandMessages.badCatalogWait(value), { option: 'RDW_CATALOG_WAIT' });
  }
  return Math.round(seconds * 1000);
}
