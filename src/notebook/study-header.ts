// The header of a study: what its numbers are pinned to (release IDs, manifest and schema checksums,
// calculation versions), as rows, as printed text and as HTML, from a study lock.

import { escapeHtml } from '../base/index.js';
import type { StudyLock } from '../locks/index.js';
import { htmlTable, textTable } from './html-table.js';

/** One pinned release as a header row. Checksums are full lowercase hex SHA-256 digests. */
export type StudyHeaderRow = {
  day: string;
  version: string;
  release_id: string;
  manifest_sha256: string;
  /** Null for a release older than its bundled schema. */
  schema_sha256: string | null;
  /** `format:sha256` of each pinned data file, e.g. `parquet:41d0…` (full digest). */
  data_files: string;
};

const HEADER_COLUMNS = ['day', 'version', 'release_id', 'manifest_sha256', 'schema_sha256', 'data_files'] as const;

/** The lock's releases as header rows, in lock order (oldest day first). */
export function studyHeaderRows(lock: StudyLock): StudyHeaderRow[] {
  return lock.releases.map((release) => ({
    day: release.day,
    version: release.version,
    release_id: release.id,
    manifest_sha256: release.manifestSha256,
    schema_sha256: release.schemaSha256,
    data_files: Object.entries(release.files)
      .map(([format, file]) => `${format}:${file!.sha256}`)
      .join(' '),
  }));
}

/** One line that sums the lock up: dataset, release count, day range, calculation versions. */
export function studySummaryLine(lock: StudyLock): string {
  const days = lock.releases.map((release) => release.day);
  const range = days.length === 0 ? 'no days' : `${days[0]} .. ${days[days.length - 1]}`;
  return (
    `Study lock v${lock.lockVersion} (written by rdw ${lock.rdwVersion}): ${lock.dataset}, ` +
    `${lock.releases.length} releases, ${range}; calculation versions: ${lock.calculationVersions.join(', ') || 'none'}`
  );
}

/**
 * The header as plain text, for printed (reproducible) output: the summary line, then one line per
 * release with its full ID and checksums. Holds no key, host or machine path (a lock has none).
 */
export function studyHeaderText(lock: StudyLock): string {
  const rows = studyHeaderRows(lock);
  return `${studySummaryLine(lock)}\n${textTable(rows, { columns: HEADER_COLUMNS, maxRows: rows.length })}`;
}

/** The header as HTML (tslab.display.html): the summary line and a table of the pinned releases. */
export function studyHeaderHtml(lock: StudyLock): string {
  const rows = studyHeaderRows(lock);
  return `<div class="rdw-study-header"><p>${escapeHtml(studySummaryLine(lock))}</p>${htmlTable(rows, {
    columns: HEADER_COLUMNS,
    maxRows: rows.length,
  })}</div>`;
}
