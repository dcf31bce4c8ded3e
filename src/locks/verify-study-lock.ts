// verifyStudyLock: the one check every entry point that takes a study lock runs before computing anything
// (rdw study --lock, rdw reproduce, Study.open and so notebooks and scripts): catalog records and stored bytes vs the lock.

import { stat } from 'node:fs/promises';
import { hashFile } from '../base/index.js';
import {
  assertNothingShadowed,
  checkReleaseRows,
  checkStoredFiles,
  ContentStore,
  MARKET_EVENTS_TABLE,
  readReleaseRecords,
  releaseCalculationVersions,
  storedRowsFingerprints,
  type Catalog,
  type ReleaseRecord,
  type ReleaseRowsCheck,
} from '../catalog/index.js';
import type { FileDigest } from '../contract/index.js';
import { LockMismatchError, NotInCatalogError, type LockedPart } from './study-errors.js';
import type { LockedRelease, StudyLock } from './study-lock.js';
import { studyMessages } from './messages.js';

export interface VerifyStudyLockOptions {
  /** Called once per release when all its checks passed, in lock order. Default: none. */
  onVerified?: (releaseId: string) => void;
}

/** One locked release after verification. */
export interface VerifiedRelease {
  id: string;
  day: string;
  version: string;
  /** Stored files re-hashed for this release (manifest, schema when bundled, data files). */
  filesChecked: number;
  /** Bytes re-hashed for this release. */
  bytesChecked: number;
  /** The fingerprint its rows were found to have (the lock's, or for a lock without one its stored file's). */
  rowsFingerprint: string;
}

export interface LockVerification {
  /** In lock order (oldest day first). */
  releases: VerifiedRelease[];
  filesChecked: number;
  bytesChecked: number;
}

/**
 * Proves that `catalog` holds exactly what `lock` pins, for every locked release in lock order:
 * 1. the catalog's record against the lock: dataset, day, version, manifest SHA-256, schema SHA-256
 *    (null vs not null included), the recorded manifest and schema files, and every locked data file's
 *    SHA-256 and size (a locked format that was not imported is a difference);
 * 2. the bytes: the stored manifest, schema and data files in `store/` are re-hashed (size and SHA-256);
 * 3. the rows: the fingerprint of the catalog's rows of the release against the lock's `rowsFingerprint` (a lock
 *    written before rdw pinned them: against the one the verified stored data file gives);
 * then the distinct calculation versions of the pinned rows must equal the lock's. Reads only; pulls nothing.
 * @throws NotInCatalogError (exit 6) when a locked release is not imported; LockMismatchError (exit 3)
 *   naming the release, the file and (for a stored file) its `store/sha256/…` path on the first difference.
 */
export async function verifyStudyLock(catalog: Catalog, lock: StudyLock, options: VerifyStudyLockOptions = {}): Promise<LockVerification> {
  const ids = lock.releases.map((release) => release.id);
  // A macro stored in the catalog named like DuckDB's sha256 or md5 could make any rows give the pinned fingerprint.
  await catalog.read((connection) => assertNothingShadowed(connection, MARKET_EVENTS_TABLE));
  const records = await readReleaseRecords(catalog, ids);
  // The fingerprints of the catalog's rows of every locked release, in one statement.
  const rows = new Map((await checkReleaseRows(catalog, { releaseIds: ids })).map((check) => [check.releaseId, check]));
  // Every release the catalog lacks, named at once (a fresh home lacks them all: one sentence, not ten runs).
  const missing = ids.filter((id) => !records.has(id));
  if (missing.length > 0) throw new NotInCatalogError(studyMessages.lockedNotInCatalog(missing, ids.length), { releaseId: missing[0]! });
  // The rows their stored files give, for the releases whose rows are not the lock's pin (an old lock's, or a
  // difference to explain): read once, in one scan, on first need; the files' bytes are re-hashed below (step 2).
  let fromFiles: Promise<Map<string, string | undefined>> | undefined;
  const fromFile = async (id: string) => {
    const needed = lock.releases.filter((locked) => locked.rowsFingerprint !== rows.get(locked.id)?.actual).map((locked) => locked.id);
    fromFiles ??= checkStoredFiles(catalog, { releaseIds: needed, rehash: false }).then((files) => storedRowsFingerprints(catalog, needed, files));
    return (await fromFiles).get(id);
  };
  const releases: VerifiedRelease[] = [];
  for (const locked of lock.releases) {
    const record = records.get(locked.id)!;
    const toHash = compareRecord(lock, locked, record);
    const checked = await rehashStored(catalog, locked.id, toHash);
    const check = rows.get(locked.id)!;
    if (locked.rowsFingerprint !== check.actual) compareRows(locked, check, await fromFile(locked.id));
    releases.push({ id: locked.id, day: locked.day, version: locked.version, ...checked, rowsFingerprint: check.actual });
    options.onVerified?.(locked.id);
  }

  const found = await releaseCalculationVersions(catalog, ids);
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
    filesChecked: releases.reduce((sum, release) => sum + release.filesChecked, 0),
    bytesChecked: releases.reduce((sum, release) => sum + release.bytesChecked, 0),
  };
}

const show = (values: readonly string[]) => `[${values.join(', ')}]`;

/** Step 1: the catalog's record against the lock. Returns the stored files to re-hash, with the digests the lock pins. */
function compareRecord(lock: StudyLock, locked: LockedRelease, record: ReleaseRecord): [LockedPart, FileDigest][] {
  const id = locked.id;
  const mismatch = (file: LockedPart, what: string, expected: string, found: string) =>
    new LockMismatchError(studyMessages.lockMismatch(id, what, expected, found), { releaseId: id, file });

  if (record.dataset !== lock.dataset) throw mismatch('release', 'the dataset', lock.dataset, record.dataset);
  if (record.day !== locked.day) throw mismatch('release', 'the day', locked.day, record.day);
  if (record.version !== locked.version) throw mismatch('release', 'the version', locked.version, record.version);
  if (record.manifestSha256 !== locked.manifestSha256) throw mismatch('manifest', 'the manifest SHA-256', locked.manifestSha256, record.manifestSha256);
  if (record.schemaSha256 !== locked.schemaSha256) throw mismatch('schema', 'the schema SHA-256', locked.schemaSha256 ?? 'none', record.schemaSha256 ?? 'none');

  // The manifest and schema as recorded (their digests must be the lock's), then the locked data files.
  const toHash: [LockedPart, FileDigest][] = [];
  const manifest = record.files.get('manifest');
  if (manifest === undefined || manifest.sha256 !== locked.manifestSha256) {
    throw mismatch('manifest', 'the recorded manifest file', locked.manifestSha256, manifest?.sha256 ?? 'missing');
  }
  toHash.push(['manifest', { sha256: locked.manifestSha256, bytes: manifest.bytes }]);
  if (locked.schemaSha256 !== null) {
    const schema = record.files.get('schema');
    if (schema === undefined || schema.sha256 !== locked.schemaSha256) {
      throw mismatch('schema', 'the recorded schema file', locked.schemaSha256, schema?.sha256 ?? 'missing');
    }
    toHash.push(['schema', { sha256: locked.schemaSha256, bytes: schema.bytes }]);
  }
  for (const [format, file] of Object.entries(locked.files) as [LockedPart, FileDigest][]) {
    const recorded = record.files.get(format);
    if (recorded === undefined) throw mismatch(format, `the ${format} file`, file.sha256, 'not imported');
    if (recorded.sha256 !== file.sha256) throw mismatch(format, `the ${format} file SHA-256`, file.sha256, recorded.sha256);
    if (recorded.bytes !== file.bytes) throw mismatch(format, `the ${format} file size in bytes`, String(file.bytes), String(recorded.bytes));
    toHash.push([format, file]);
  }
  return toHash;
}

/**
 * Step 3: the catalog's rows against the fingerprint the lock pins or, for a lock written before rdw pinned rows,
 * the one the release's verified stored data file gives (never the catalog's recorded one: a column anyone with
 * the file can rewrite). When they differ from the lock's pin, the stored file says which is wrong: the rows
 * (changed after import) or the lock (written from such rows).
 */
function compareRows(locked: LockedRelease, check: ReleaseRowsCheck, fromFile: string | undefined): void {
  const id = locked.id;
  if (locked.rowsFingerprint === check.actual) return;
  if (locked.rowsFingerprint === undefined) {
    if (fromFile === undefined) throw new LockMismatchError(studyMessages.rowsUnrecorded(id), { releaseId: id, file: 'rows' });
    if (fromFile !== check.actual) throw new LockMismatchError(studyMessages.rowsDifferFromLockedFile(id, fromFile, check.actual), { releaseId: id, file: 'rows' });
    return;
  }
  if (fromFile === check.actual) throw new LockMismatchError(studyMessages.lockRowsPinWrong(id, locked.rowsFingerprint, check.actual), { releaseId: id, file: 'rows' });
  throw new LockMismatchError(studyMessages.rowsDiffer(id, locked.rowsFingerprint, check.actual), { releaseId: id, file: 'rows' });
}

/** Step 2: re-hashes each stored file; a missing file or any differing byte names its store path. */
async function rehashStored(catalog: Catalog, id: string, toHash: readonly [LockedPart, FileDigest][]): Promise<{ filesChecked: number; bytesChecked: number }> {
  let bytesChecked = 0;
  for (const [part, file] of toHash) {
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
  return { filesChecked: toHash.length, bytesChecked };
}
