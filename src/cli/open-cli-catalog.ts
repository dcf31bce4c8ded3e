// How every command opens the catalog: read-only for commands that only read, read-write for writers; a
// wait for another holder is said on stderr after a second, and RDW_CATALOG_WAIT bounds it (in seconds).

import { openCatalog, type Catalog } from '../catalog/index.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { commandMessages } from './messages.js';

/**
 * Opens the catalog of `context.home` for the command and closes it when the command ends. 'read': DuckDB's
 * shared lock (several readers at once), waits up to 10 s for a writer; 'write': its exclusive lock, waits up
 * to 60 s. RDW_CATALOG_WAIT (seconds, 0–86400) sets either bound. Notices go to stderr as `rdw: …` lines.
 * @throws CliUsageError (exit 2) for a bad RDW_CATALOG_WAIT; CatalogBusyError (exit 1) after the bound.
 */
export async function openCliCatalog(context: CliContext, access: 'read' | 'write'): Promise<Catalog> {
  const wait = catalogWaitMs(context.env.RDW_CATALOG_WAIT);
  const catalog = await openCatalog(context.home, {
    readOnly: access === 'read',
    ...(wait === undefined ? {} : { busyTimeoutMs: wait }),
    onWait: (notice) => context.stderr.write(`rdw: ${notice.message}\n`),
  });
  context.onExit(() => catalog.close());
  return catalog;
}

/** RDW_CATALOG_WAIT in ms; undefined when unset or empty. */
function catalogWaitMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 86_400) {
    throw new CliUsageError(commandMessages.badCatalogWait(value), { option: 'RDW_CATALOG_WAIT' });
  }
  return Math.round(seconds * 1000);
}
