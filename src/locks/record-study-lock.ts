// recordStudyLock: the lock of exact release IDs, read from the local catalog (DESIGN.md 2.5).

import {
  assertNothingShadowed,
  CatalogRecordError,
  catalogMessages,
  checkReleaseRows,
  checkStoredFiles,
  MARKET_EVENTS_TABLE,
  readReleaseRecords,
  releaseCalculationVersions,
  RowsMismatchError,
  storedRowsFingerprints,
  type Catalog,
} from '../catalog/index.js';
import { checkReleaseId } from '../contract/index.js';
import { NotInCatalogError, StudyOptionError } from './study-errors.js';
import { LOCK_VERSION, compareIds, type LockedRelease, type StudyLock } from './study-lock.js';
import { studyMessages } from './messages.js';
import { rdwVersion } from './rdw-version.js';

export interface RecordStudyLockOptions {
  /**
   * The caller has just held these releases' rows to their recorded fingerprints in this process (`rdw demo`, right
   * after its pull and verifyStore, in a home of its own): pin the recorded ones without checking them again against
   * the stored files (~30 ms a release). Default false: every fingerprint pinned is checked first.
   */
  readonly rowsJustVerified?: boolean;
}

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
 * rows fingerprint of the catalog's rows once it equals the one the release's verified stored data file gives
 * (never the recorded one alone: a column anyone with the file can rewrite), and the distinct `calculation_version`
 * of the pinned rows. Holds no key, host or machine path.
 * @throws StudyOptionError (exit 2) for no or malformed IDs; NotInCatalogError (exit 6) for an ID not imported;
 *   CatalogRecordError (exit 3) for a release the catalog records no data file of; RowsMismatchError (exit 3) for
 *   rows that differ from their stored file's, or a stored data file missing or damaged; ShadowedNameError (exit 3).
 */
export async function recordStudyLock(catalog: Catalog, releaseIds: readonly string[], options: RecordStudyLockOptions = {}): Promise<StudyLock> {
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
    return { id, day: record.day, version: record.version, manifestSha256: record.manifestSha256, schemaSha256: record.schemaSha256, files };
  });
  // Once every release has a data file to hold its rows to.
  const rows = options.rowsJustVerified === true ? recordedFingerprints(records) : await verifiedRowsFingerprints(catalog, ids);
  for (const release of releases) {
    const pinned = rows.get(release.id);
    if (pinned !== undefined) release.rowsFingerprint = pinned;
  }
  releases.sort((a, b) => a.day.localeCompare(b.day) || compareIds(a.id, b.id));
  return {
    lockVersion: LOCK_VERSION,
    rdwVersion: await rdwVersion(),
    dataset: datasets[0]!,
    releases,
    calculationVersions: await releaseCalculationVersions(catalog, ids),
  };
}

/**
 * The rows fingerprint of each release, checked: the catalog's rows must give the one their verified stored data
 * file gives (and no macro may stand in for the hash functions), so a lock never pins rows changed after import.
 */
async function verifiedRowsFingerprints(catalog: Catalog, ids: readonly string[]): Promise<Map<string, string>> {
  await catalog.read((connection) => assertNothingShadowed(connection, MARKET_EVENTS_TABLE));
  const actual = await checkReleaseRows(catalog, { releaseIds: ids });
  const fromFiles = await storedRowsFingerprints(catalog, ids, await checkStoredFiles(catalog, { releaseIds: ids }));
  const checked = new Map<string, string>();
  for (const check of actual) {
    const fromFile = fromFiles.get(check.releaseId);
    if (fromFile === undefined) throw new RowsMismatchError(studyMessages.lockRowsUncheckable(check.releaseId), { releaseId: check.releaseId });
    if (fromFile !== check.actual) {
      throw new RowsMismatchError(catalogMessages.rowsDiffer(check.releaseId, fromFile, check.actual), { releaseId: check.releaseId });
    }
    checked.set(check.releaseId, check.actual);
  }
  return checked;
}

/** The recorded fingerprints, for a caller that has just verified the rows (a release without one gets none). */
function recordedFingerprints(records: ReadonlyMap<string, { rowsFingerprint: string | null }>): Map<string, string> {
  return new Map([...records].flatMap(([id, record]) => (record.rowsFingerprint === null ? [] : [[id, record.rowsFingerprint] as [string, string]])));
}
