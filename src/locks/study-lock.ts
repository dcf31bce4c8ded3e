// The study lock (DESIGN.md 2.5): what an analysis is pinned to. Holds no key, no host, no machine path.

/** The lock format this rdw writes and the newest it reads. */
export const LOCK_VERSION = 1;

/** Checksum and size of one pinned release file. */
export interface LockedFile {
  /** Lowercase hex SHA-256. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
}

/** One release pinned by a lock. */
export interface LockedRelease {
  /** Exact release ID (64 characters, as listed; never case-folded); never substituted by another revision. */
  id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Product version string of the release. */
  version: string;
  /** SHA-256 of the manifest bytes as downloaded. */
  manifestSha256: string;
  /** SHA-256 of the bundled schema file, or null for a release older than its bundled schema. */
  schemaSha256: string | null;
  /** The data files imported for this release (normally `parquet`). */
  files: Partial<Record<'parquet' | 'csv' | 'json', LockedFile>>;
  /**
   * The fingerprint of the release's rows as imported (`releases.rows_fingerprint`, docs/catalog.md "Row
   * fingerprints"): 64 hex. Absent in locks written before rdw recorded them (then the catalog's recorded one is
   * what the rows are held to).
   */
  rowsFingerprint?: string;
}

export interface StudyLock {
  lockVersion: typeof LOCK_VERSION;
  /** rdw version that wrote the lock (informational; reproduction does not depend on it). */
  rdwVersion: string;
  dataset: string;
  /** Pinned releases, oldest day first, then by ID. */
  releases: LockedRelease[];
  /** Distinct calculation versions of the pinned rows. */
  calculationVersions: string[];
}

/**
 * Order of two release IDs in a lock: by UTF-16 code unit, so the canonical lock text is the same on every
 * machine whatever its locale (IDs may mix cases, digits and `.`, `_`, `~`, `-`).
 */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
