// Options of openCatalog, their defaults, and the one normalizer that validates them.

import { catalogMessages } from './messages.js';
import { CatalogOptionError } from './catalog-errors.js';

export interface CatalogOptions {
  /** Open without write access (DuckDB READ_ONLY); a missing catalog is created first. Default false. */
  readOnly?: boolean;
  /** How long to wait for another process to release the catalog's file lock, in ms. Default 10 000. */
  busyTimeoutMs?: number;
  /** Pause between lock attempts, in ms. Default 200. */
  busyRetryMs?: number;
  /** Clock for `imported_at`, listing times and temp clean-up. Default: the system clock. */
  now?: () => Date;
  /** Resumable partial downloads in `store/tmp/` older than this are removed on open, in ms. Default 24 hours. */
  maxPartialAgeMs?: number;
}

export interface ResolvedCatalogOptions {
  readOnly: boolean;
  busyTimeoutMs: number;
  busyRetryMs: number;
  now: () => Date;
  maxPartialAgeMs: number;
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
  return {
    readOnly: options.readOnly === true,
    busyTimeoutMs: milliseconds('busyTimeoutMs', options.busyTimeoutMs, 10_000),
    busyRetryMs: milliseconds('busyRetryMs', options.busyRetryMs, 200),
    now,
    maxPartialAgeMs: milliseconds('maxPartialAgeMs', options.maxPartialAgeMs, 24 * 3600 * 1000),
  };
}
