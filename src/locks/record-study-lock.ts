// recordStudyLock: the lock of exact release IDs, read from the local catalog (DESIGN.md 2.5).

import { CatalogRecordError, catalogMessages, readReleaseRecords, releaseCalculationVersions, type Catalog } from '../catalog/index.js';
import { checkReleaseId } from '../contract/index.js';
import { NotInCatalogError, StudyOptionError } from './study-errors.js';
import { LOCK_VERSION, compareIds, type LockedRelease, type StudyLock } from './study-lock.js';
import { studyMessages } from './messages.js';
import { rdwVersion } from './rdw-version.js';

/** Data file formats a lock pins (the manifest and schema are pinned by their own fields). */
export const LOCKED_DATA_FORMATS = ['parquet', 'csv', 'json'] as const;

/** Validates exact release IDs (exit 2 otherwise) and deduplicates them, keeping the first order. */
export function checkLockIds(releaseIds: readonly string[]): string[] {
  if (releaseIds.length === 0) throw new StudyOptionError(studyMessages.lockEmpty(), { option: 'releases' });
  for (const id of releaseIds) {
    checkReleaseId(id, (sentence) => new StudyOptionError(sentence, { option: 'releases' }));
  }
  return [...new Set(releaseIds)];
}

/**
 * Builds the lock of `releaseIds` from the catalog: each ID must be imported exactly (no other revision
 * stands in). Pins the manifest and schema SHA-256, the imported data file(s) from `release_files`, the
 * rows fingerprint recorded at import (when the catalog has one), and the distinct `calculation_version` of
 * the pinned rows. Holds no key, host or machine path.
 * @throws StudyOptionError (exit 2) for no or malformed IDs; NotInCatalogError (exit 6) for an ID not imported;
 *   CatalogRecordError (exit 3) for a release the catalog records no data file of.
 */
export async function recordStudyLock(catalog: Catalog, releaseIds: readonly string[]): Promise<StudyLock> {
  const ids = checkLockIds(releaseIds);
  const records = await readReleaseRecords(catalog, ids);
  for (const id of ids) {
    if (!records.has(id)) throw new NotInCatalogError(studyMessages.notInCatalog(id), { releaseId: id });
  }
  const datasets = [...new Set([...records.values()].map((record) => record.dataset))].sort();
  if (datasets.length !== 1) throw new StudyOptionError(studyMessages.mixedDatasets(datasets), { option: 'releases' });

  const releases: LockedRelease[] = ids.map((id) => {
    const record = records.get(id)!;
    const files: LockedRelease['files'] = {};
    for (const format of LOCKED_DATA_FORMATS) {
      const file = record.files.get(format);
      if (file !== undefined) files[format] = { sha256: file.sha256, bytes: file.bytes };
    }
    // A lock pins the data file its rows came from; a catalog that records none (changed outside rdw) gets no
    // lock its own reader would refuse as malformed.
    if (Object.keys(files).length === 0) throw new CatalogRecordError(catalogMessages.recordNoDataFile(id), { releaseId: id });
    const rows = record.rowsFingerprint === null ? {} : { rowsFingerprint: record.rowsFingerprint };
    return { id, day: record.day, version: record.version, manifestSha256: record.manifestSha256, schemaSha256: record.schemaSha256, files, ...rows };
  });
  releases.sort((a, b) => a.day.localeCompare(b.day) || compareIds(a.id, b.id));
  return {
    lockVersion: LOCK_VERSION,
    rdwVersion: await rdwVersion(),
    dataset: datasets[0]!,
    releases,
    calculationVersions: await releaseCalculationVersions(catalog, ids),
  };
}
