// Options of openCatalog, their defaults, and the one normalizer that validates them.

import { catalogMessages } from './messages.js';
import { CatalogOptionError } from './catalog-errors.js';
import type { CatalogWaitNotice } from './open-duckdb-file.js';

/**
 * How long a Catalog keeps the DuckDB file open: 'always' (from open to close: a one-shot command) or
 * 'while-busy' (a lease: opened for each queued operation and closed after `leaseIdleMs` without one, so a
 * long-lived process such as a notebook kernel does not keep other processes out). docs/catalog.md
 * "Many readers, one writer".
 */
export type CatalogHold = 'always' | 'while-busy';

/** Default wait for the lock of a read-only open, in ms. */
export const READER_BUSY_TIMEOUT_MS = 10_000;
/** Default wait for the lock of a read-write open (pull, sync, gc, a workbench), in ms. */
export const WRITER_BUSY_TIMEOUT_MS = 60_000;

export interface CatalogOptions {
  /** Open without write access (DuckDB READ_ONLY); a missing catalog is created first. Default false. */
  readOnly?: boolean;
  /**
   * How long to wait for another process to release the catalog's file lock, in ms, then CatalogBusyError.
   * Default 10 000 read-only, 60 000 read-write (a writer usually waits for another writer's pull).
   */
  busyTimeoutMs?: number;
  /** Pause between lock attempts, in ms. Default 200. */
  busyRetryMs?: number;
  /** Clock for `imported_at`, listing times and temp clean-up. Default: the system clock. */
  now?: () => Date;
  /** Resumable partial downloads in `store/tmp/` older than this are removed on open, in ms. Default 24 hours. */
  maxPartialAgeMs?: number;
  /** 'always' (default) or 'while-busy' (a lease; the workbench's default): see CatalogHold. */
  hold?: CatalogHold;
  /** With `hold: 'while-busy'`: the file is closed after this many ms without a queued operation. Default 250. */
  leaseIdleMs?: number;
  /** Told while an open waits for another holder of the lock: after 1 s, then every 5 s. Default: nothing. */
  onWait?: (notice: CatalogWaitNotice) => void;
  /**
   * 'refused' (the workbench's, so a notebook's): `query`, `arrow`, `exclusive`, `sideQuery` and `connection`
   * run a user's SQL in a read-only transaction and `transaction` throws, so nothing but rdw's own functions
   * (pull, sync, listings, snapshots) writes to rdw's tables; temporary tables are allowed. Default 'allowed'.
   */
  userWrites?: CatalogUserWrites;
}

/** Whether a catalog's user surfaces (`query`, `exclusive`, `connection` …) may write: see CatalogOptions.userWrites. */
export type CatalogUserWrites = 'allowed' | 'refused';

export interface ResolvedCatalogOptions {
  readOnly: boolean;
  busyTimeoutMs: number;
  busyRetryMs: number;
  now: () => Date;
  maxPartialAgeMs: number;
  hold: CatalogHold;
  leaseIdleMs: number;
  onWait: ((notice: CatalogWaitNotice) => void) | undefined;
  userWrites: CatalogUserWrites;
}

const milliseconds = (name: string, value: unknown, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new CatalogOptionError(catalogMessages.badOption(name, 'a number of milliseconds >= 0'), { option: name });
  }
  return value;
};

/** Validates CatalogOptions and applies the defaults documented on each field. */
export function resolveCatalogOptions(options: CatalogOptions = {}): ResolvedCatalogOptions {
  const now = options.now ?? (() => new Date());
  if (typeof now !== 'function') throw new CatalogOptionError(catalogMessages.badOption('now', 'a function returning a Date'), { option: 'now' });
  const readOnly = options.readOnly === true;
  if (options.hold !== undefined && options.hold !== 'always' && options.hold !== 'while-busy') {
    throw new CatalogOptionError(catalogMessages.badOption('hold', "'always' or 'while-busy'"), { option: 'hold' });
  }
  if (options.onWait !== undefined && typeof options.onWait !== 'function') {
    throw new CatalogOptionError(catalogMessages.badOption('onWait', 'a function'), { option: 'onWait' });
  }
  if (options.userWrites !== undefined && options.userWrites !== 'allowed' && options.userWrites !== 'refused') {
    throw new CatalogOptionError(catalogMessages.badOption('userWrites', "'allowed' or 'refused'"), { option: 'userWrites' });
  }
  return {
    readOnly,
    busyTimeoutMs: milliseconds('busyTimeoutMs', options.busyTimeoutMs, readOnly ? READER_BUSY_TIMEOUT_MS : WRITER_BUSY_TIMEOUT_MS),
    busyRetryMs: milliseconds('busyRetryMs', options.busyRetryMs, 200),
    now,
    maxPartialAgeMs: milliseconds('maxPartialAgeMs', options.maxPartialAgeMs, 24 * 3600 * 1000),
    hold: options.hold ?? 'always',
    leaseIdleMs: milliseconds('leaseIdleMs', options.leaseIdleMs, 250),
    onWait: options.onWait,
    userWrites: options.userWrites ?? 'allowed',
  };
}
