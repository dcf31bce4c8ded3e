// reproduceStudy: makes the catalog hold exactly what a lock pins (pulling missing releases by exact ID),
// then proves it byte for byte: catalog checksums and a re-hash of every stored file against the lock.

import { stat } from 'node:fs/promises';
import { ContentStore, hashFile, pullRelease, type Catalog, type CatalogRow, type PullProgress } from '../catalog/index.js';
import { ApiNotFoundError, type RdwClient } from '../client/index.js';
import { idListSql, lockedCalculationVersions } from './record-study-lock.js';
import { LockMismatchError, NotInCatalogError, UnknownLockedReleaseError, type LockedPart } from './study-errors.js';
import type { LockedFile, LockedRelease, StudyLock } from './study-lock.js';
import { studyMessages } from './messages.js';

/** `present`: already in the catalog; `pulled`: pulled by its exact ID now. */
export type ReproduceStatus = 'present' | 'pulled';

/** Progress of a reproduction: the pull's own events, then one `verified` per release. */
export type ReproduceProgress = PullProgress | { kind: 'verified'; releaseId: string; status: ReproduceStatus };

export interface ReproduceOptions {
  /** Progress callback. Default: none. */
  onProgress?: (event: ReproduceProgress) => void;
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
 * Reproduces `lock` in `catalog`. For each locked release: if absent, pull it BY ID with `client` (the
 * service's manifest SHA-256 is compared with the lock before anything is imported); then compare the
 * catalog's manifest SHA-256, schema SHA-256, dataset/day/version and every locked file's SHA-256 and
 * size with the lock, and re-hash the stored manifest, schema and data files. Finally the distinct
 * calculation versions of the pinned rows must equal the lock's.
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
  const releases: ReproducedRelease[] = [];
  for (const locked of lock.releases) {
    const status = await ensurePresent(locked, catalog, client, options);
    const checked = await verifyLockedRelease(lock, locked, catalog);
    releases.push({ id: locked.id, day: locked.day, version: locked.version, status, ...checked });
    options.onProgress?.({ kind: 'verified', releaseId: locked.id, status });
  }
  const ids = lock.releases.map((release) => release.id);
  const found = await lockedCalculationVersions(catalog, ids);
  const expected = [...new Set(lock.calculationVersions)].sort();
  if (found.join('\n') !== expected.join('\n')) {
    const id = ids[0]!;
    throw new LockMismatchError(studyMessages.lockMismatch(id, 'the set of calculation versions of the pinned rows', show(expected), show(found)), {
      releaseId: id,
      file: 'rows',
    });
  }
  return {
    releases,
    pulled: releases.filter((release) => release.status === 'pulled').length,
    filesChecked: releases.reduce((sum, release) => sum + release.filesChecked, 0),
    bytesChecked: releases.reduce((sum, release) => sum + release.bytesChecked, 0),
  };
}

const show = (values: readonly string[]) => `[${values.join(', ')}]`;

async function ensurePresent(locked: LockedRelease, catalog: Catalog, client: RdwClient | undefined, options: ReproduceOptions): Promise<ReproduceStatus> {
  const [row] = await catalog.query('SELECT id FROM releases WHERE id = $id', { id: locked.id });
  if (row !== undefined) return 'present';
  if (client === undefined) throw new NotInCatalogError(studyMessages.notInCatalog(locked.id), { releaseId: locked.id });
  try {
    // The service's manifest first: a release that differs from the lock is never imported.
    const manifest = await client.manifest(locked.id);
    if (manifest.sha256 !== locked.manifestSha256) {
      throw new LockMismatchError(studyMessages.lockMismatch(locked.id, 'the manifest SHA-256 served', locked.manifestSha256, manifest.sha256), {
        releaseId: locked.id,
        file: 'manifest',
      });
    }
    await pullRelease(catalog, client, locked.id, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
  } catch (error) {
    if (error instanceof ApiNotFoundError) {
      throw new UnknownLockedReleaseError(studyMessages.unknownLockedRelease(locked.id), { cause: error, releaseId: locked.id });
    }
    throw error;
  }
  return 'pulled';
}

/** Compares one release's catalog rows with the lock, then re-hashes its stored files. */
async function verifyLockedRelease(lock: StudyLock, locked: LockedRelease, catalog: Catalog): Promise<{ filesChecked: number; bytesChecked: number }> {
  const id = locked.id;
  const mismatch = (file: LockedPart, what: string, expected: string, found: string) =>
    new LockMismatchError(studyMessages.lockMismatch(id, what, expected, found), { releaseId: id, file });

  const [release] = await catalog.query(
    `SELECT dataset, version, strftime(day, '%Y-%m-%d') AS day, manifest_sha256, schema_sha256 FROM releases WHERE id IN (${idListSql([id])})`,
  );
  if (release === undefined) throw new NotInCatalogError(studyMessages.notInCatalog(id), { releaseId: id });
  const files = new Map<string, CatalogRow>(
    (await catalog.query('SELECT format, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE release_id = $id', { id })).map((row) => [String(row.format), row]),
  );

  // 1. the catalog's record against the lock
  if (String(release.dataset) !== lock.dataset) throw mismatch('release', 'the dataset', lock.dataset, String(release.dataset));
  if (String(release.day) !== locked.day) throw mismatch('release', 'the day', locked.day, String(release.day));
  if (String(release.version) !== locked.version) throw mismatch('release', 'the version', locked.version, String(release.version));
  const manifestSha256 = String(release.manifest_sha256);
  if (manifestSha256 !== locked.manifestSha256) throw mismatch('manifest', 'the manifest SHA-256', locked.manifestSha256, manifestSha256);
  const schemaSha256 = release.schema_sha256 === null || release.schema_sha256 === undefined ? null : String(release.schema_sha256);
  if (schemaSha256 !== locked.schemaSha256) throw mismatch('schema', 'the schema SHA-256', locked.schemaSha256 ?? 'none', schemaSha256 ?? 'none');

  // 2. the stored files to re-hash: manifest and schema as recorded (their hashes equal the lock's, checked above), data files from the lock
  const toCheck: [LockedPart, LockedFile][] = [];
  const manifestRow = files.get('manifest');
  if (manifestRow === undefined || String(manifestRow.sha256) !== locked.manifestSha256) {
    throw mismatch('manifest', 'the recorded manifest file', locked.manifestSha256, manifestRow === undefined ? 'missing' : String(manifestRow.sha256));
  }
  toCheck.push(['manifest', { sha256: locked.manifestSha256, bytes: Number(manifestRow.bytes) }]);
  if (locked.schemaSha256 !== null) {
    const schemaRow = files.get('schema');
    if (schemaRow === undefined || String(schemaRow.sha256) !== locked.schemaSha256) {
      throw mismatch('schema', 'the recorded schema file', locked.schemaSha256, schemaRow === undefined ? 'missing' : String(schemaRow.sha256));
    }
    toCheck.push(['schema', { sha256: locked.schemaSha256, bytes: Number(schemaRow.bytes) }]);
  }
  for (const [format, file] of Object.entries(locked.files) as [LockedPart, LockedFile][]) {
    const row = files.get(format);
    if (row === undefined) throw mismatch(format, `the ${format} file`, file.sha256, 'not imported');
    if (String(row.sha256) !== file.sha256) throw mismatch(format, `the ${format} file SHA-256`, file.sha256, String(row.sha256));
    if (Number(row.bytes) !== file.bytes) throw mismatch(format, `the ${format} file size in bytes`, String(file.bytes), String(row.bytes));
    toCheck.push([format, file]);
  }

  // 3. the bytes on disk
  let bytesChecked = 0;
  for (const [part, file] of toCheck) {
    const storePath = ContentStore.relativePath(file.sha256);
    const target = catalog.store.pathOf(file.sha256);
    if ((await stat(target).catch(() => undefined)) === undefined) {
      throw new LockMismatchError(studyMessages.storedFileMissing(id, part, storePath), { releaseId: id, file: part, storePath });
    }
    const actual = await hashFile(target);
    if (actual.sha256 !== file.sha256 || actual.bytes !== file.bytes) {
      const found = actual.bytes !== file.bytes ? `${actual.sha256} (${actual.bytes} bytes)` : actual.sha256;
      throw new LockMismatchError(studyMessages.storedFileDiffers(id, part, storePath, file.sha256, found), { releaseId: id, file: part, storePath });
    }
    bytesChecked += actual.bytes;
  }
  return { filesChecked: toCheck.length, bytesChecked };
}
