// reproduceStudy: makes the catalog hold exactly what a lock pins (pulling missing releases by exact ID),
// then proves it byte for byte: catalog checksums and a re-hash of every stored file against the lock.

import { importedReleaseIds, pinnedManifest, pullRelease, type Catalog, type PullProgress } from '../catalog/index.js';
import { AbortedError, ApiNotFoundError, type RdwClient } from '../client/index.js';
import { LockMismatchError, NotInCatalogError, UnknownLockedReleaseError } from './study-errors.js';
import type { LockedRelease, StudyLock } from './study-lock.js';
import { verifyStudyLock } from './verify-study-lock.js';
import { studyMessages } from './messages.js';

/** `present`: already in the catalog; `pulled`: pulled by its exact ID now. */
export type ReproduceStatus = 'present' | 'pulled';

/** Progress of a reproduction: the pull's own events, then one `verified` per release. */
export type ReproduceProgress = PullProgress | { kind: 'verified'; releaseId: string; status: ReproduceStatus };

export interface ReproduceOptions {
  /** Progress callback. Default: none. */
  onProgress?: (event: ReproduceProgress) => void;
  /**
   * Stops between releases (each pulled release whole): `onInterrupted` is told how many were pulled and how
   * many locked releases are still missing, then AbortedError is thrown (nothing verified, no report).
   */
  signal?: AbortSignal;
  /** Called when `signal` stopped the pulls, before AbortedError is thrown. Default: none. */
  onInterrupted?: (pulled: number, missing: number) => void;
}

/** One locked release after reproduction. */
export interface ReproducedRelease {
  id: string;
  day: string;
  version: string;
  status: ReproduceStatus;
  /** Stored files re-hashed for this release (manifest, schema, data files). */
  filesChecked: number;
  /** Bytes re-hashed for this release. */
  bytesChecked: number;
  /** The fingerprint its rows were found to have (verifyStudyLock): what a Study holds later computations to. */
  rowsFingerprint: string;
}

export interface ReproduceReport {
  /** In lock order (oldest day first). */
  releases: ReproducedRelease[];
  /** How many releases were pulled. */
  pulled: number;
  filesChecked: number;
  bytesChecked: number;
}

/**
 * Reproduces `lock` in `catalog`. Each locked release that is absent is pulled BY ID with `client` (the
 * service's manifest SHA-256 is compared with the lock before anything is imported); then `verifyStudyLock`
 * (the one verification path of every entry point) compares the catalog's records with the lock and
 * re-hashes every stored manifest, schema and data file, and checks the pinned rows' calculation versions.
 * @throws LockMismatchError (exit 3) naming the release and file on any difference;
 * UnknownLockedReleaseError (exit 6) when the service does not know a locked ID;
 * NotInCatalogError (exit 6) when a release is missing and no client is given.
 */
export async function reproduceStudy(
  lock: StudyLock,
  catalog: Catalog,
  client: RdwClient | undefined,
  options: ReproduceOptions = {},
): Promise<ReproduceReport> {
  // 1. every locked release present (pulled by exact ID when missing), 2. the one verification path.
  const statuses = new Map<string, ReproduceStatus>();
  for (const locked of lock.releases) {
    if (options.signal?.aborted === true) {
      const ids = lock.releases.map((release) => release.id);
      const present = await importedReleaseIds(catalog, ids);
      const pulled = [...statuses.values()].filter((status) => status === 'pulled').length;
      options.onInterrupted?.(pulled, ids.filter((id) => !present.has(id)).length);
      throw new AbortedError(studyMessages.reproduceInterrupted());
    }
    statuses.set(locked.id, await ensurePresent(locked, catalog, client, options));
  }
  const verification = await verifyStudyLock(catalog, lock, {
    onVerified: (releaseId) => options.onProgress?.({ kind: 'verified', releaseId, status: statuses.get(releaseId)! }),
  });
  const releases = verification.releases.map((release) => ({ ...release, status: statuses.get(release.id)! }));
  return {
    releases,
    pulled: releases.filter((release) => release.status === 'pulled').length,
    filesChecked: verification.filesChecked,
    bytesChecked: verification.bytesChecked,
  };
}

async function ensurePresent(locked: LockedRelease, catalog: Catalog, client: RdwClient | undefined, options: ReproduceOptions): Promise<ReproduceStatus> {
  if ((await importedReleaseIds(catalog, [locked.id])).has(locked.id)) return 'present';
  if (client === undefined) throw new NotInCatalogError(studyMessages.notInCatalog(locked.id), { releaseId: locked.id });
  try {
    // The manifest first (the team store's when its bytes are the pinned ones, else the service's): a release
    // that differs from the lock is never imported.
    const manifest = await pinnedManifest(catalog, client, locked.id, locked.manifestSha256);
    if (manifest.sha256 !== locked.manifestSha256) {
      throw new LockMismatchError(studyMessages.lockMismatch(locked.id, 'the manifest SHA-256 served', locked.manifestSha256, manifest.sha256), {
        releaseId: locked.id,
        file: 'manifest',
      });
    }
    await pullRelease(catalog, client, locked.id, { manifest, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) });
  } catch (error) {
    if (error instanceof ApiNotFoundError) {
      throw new UnknownLockedReleaseError(studyMessages.unknownLockedRelease(locked.id), { cause: error, releaseId: locked.id });
    }
    throw error;
  }
  return 'pulled';
}
