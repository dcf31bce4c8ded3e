// openCatalog: the catalog's entry point (DESIGN.md 2.4).

import { Catalog } from './catalog.js';
import type { CatalogOptions } from './catalog-options.js';

/**
 * Opens the catalog in `home` (RDW_HOME): creates `<home>/store/` and `<home>/catalog.duckdb`, applies
 * migrations, and (read-write) removes stale temp files. Throws CatalogBusyError (naming the holder's PID)
 * when another process holds the catalog longer than `options.busyTimeoutMs` (default 10 s to read, 60 s to
 * write); `options.onWait` hears about the wait after 1 s. `hold: 'while-busy'` lets the file go between
 * operations (docs/catalog.md "Many readers, one writer").
 */
export function openCatalog(home: string, options: CatalogOptions = {}): Promise<Catalog> {
  return Catalog.open(home, options);
}
