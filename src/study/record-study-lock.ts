// recordStudyLock: the lock of exact release IDs, read from the local catalog (DESIGN.md 2.5).

import type { Catalog } from '../catalog/index.js';
import { isReleaseId } from '../spec/index.js';
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
    if (!isReleaseId(id)) throw new StudyOptionError(studyMessages.badReleaseId(String(id)), { option: 'releases' });
  }
  return [...new Set(releaseIds)];
}

/** `IN (...)` list of validated release IDs (isReleaseId: no quotes or spaces to escape). */
export const idListSql = (ids: readonly string[]): string => ids.map((id) => `'${id}'`).join(', ');

/**
 * Builds the lock of `releaseIds` from the catalog: each ID must be imported exactly (no other revision
 * stands in). Pins the manifest and schema SHA-256, the imported data file(s) from `release_files`, and
 * the distinct `calculation_version` of the pinned rows. Holds no key, host or machine path.
 * @throws StudyOptionError (exit 2) for no or malformed IDs; NotInCatalogError (exit 6) for an ID not imported.
 */
export async function recordStudyLock(catalog: Catalog, releaseIds: readonly string[]): Promise<StudyLock> {
  const ids = checkLockIds(releaseIds);
  const list = idListSql(ids);
  const releaseRows = await catalog.query(
    `SELECT id, dataset, version, strftime(day, '%Y-%m-%d') AS day, manifest_sha256, schema_sha256 FROM releases WHERE id IN (${list})`,
  );
  const byId = new Map(releaseRows.map((row) => [String(row.id), row]));
  for (const id of ids) {
    if (!byId.has(id)) throw new NotInCatalogError(studyMessages.notInCatalog(id), { releaseId: id });
  }
  const datasets = [...new Set(releaseRows.map((row) => String(row.dataset)))].sort();
  if (datasets.length !== 1) throw new StudyOptionError(studyMessages.mixedDatasets(datasets), { option: 'releases' });

  const fileRows = await catalog.query(
    `SELECT release_id, format, sha256, bytes::DOUBLE AS bytes FROM release_files
     WHERE release_id IN (${list}) AND format IN (${LOCKED_DATA_FORMATS.map((f) => `'${f}'`).join(', ')})
     ORDER BY release_id, format`,
  );
  const releases: LockedRelease[] = ids.map((id) => {
    const row = byId.get(id)!;
    const files: LockedRelease['files'] = {};
    for (const file of fileRows.filter((f) => f.release_id === id)) {
      files[String(file.format) as (typeof LOCKED_DATA_FORMATS)[number]] = { sha256: String(file.sha256), bytes: Number(file.bytes) };
    }
    return {
      id,
      day: String(row.day),
      version: String(row.version),
      manifestSha256: String(row.manifest_sha256),
      schemaSha256: row.schema_sha256 === null || row.schema_sha256 === undefined ? null : String(row.schema_sha256),
      files,
    };
  });
  releases.sort((a, b) => a.day.localeCompare(b.day) || compareIds(a.id, b.id));
  return {
    lockVersion: LOCK_VERSION,
    rdwVersion: await rdwVersion(),
    dataset: datasets[0]!,
    releases,
    calculationVersions: await lockedCalculationVersions(catalog, ids),
  };
}

/** Distinct non-null `calculation_version` of the rows of `ids`, sorted. */
export async function lockedCalculationVersions(catalog: Catalog, ids: readonly string[]): Promise<string[]> {
  const rows = await catalog.query(
    `SELECT DISTINCT calculation_version AS v FROM market_events
     WHERE release_id IN (${idListSql(ids)}) AND calculation_version IS NOT NULL ORDER BY 1`,
  );
  return rows.map((row) => String(row.v));
}
