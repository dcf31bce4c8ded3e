// src/mock/releases: the paid Market Events release archive and its file formats.

export { ReleaseArchive, resolveReleaseArchiveOptions } from './release-archive.js';
export type { ReleaseArchiveOptions, ResolvedReleaseArchiveOptions, ArchiveCoverage, BuildProgress } from './release-archive.js';
export type { ReleaseSimulator } from './release-simulator.js';
export { KnownRevisionsFile, mockCodeFingerprint } from './known-revisions.js';
export type { KnownRevision, KnownRevisions } from './known-revisions.js';
export { buildRelease, schemaFileBytes, NO_BUNDLED_SCHEMA_LIMITATION } from './build-release.js';
export type { ReleaseBundle } from './build-release.js';
export { releaseId } from './release-id.js';
export type { ReleaseIdInput } from './release-id.js';
export { releaseCsv, RELEASE_CSV_OPTIONS } from './release-csv.js';
export { releaseParquet, releaseArrowTable, RELEASE_ARROW_SCHEMA, PARQUET_CREATED_BY } from './release-parquet.js';
export { releaseCoverage } from './release-coverage.js';
export { canonicalJson, canonicalJsonBytes } from './canonical-json.js';
export { orderedRow, orderedRows, freezeRows } from './ordered-row.js';
export { DAY_SECONDS, RECHECK_SPAN_SECONDS, dayStart, dayEnd, dayOf, latestCheckTime, lastCheckTime, asOfTime, isRechecked, firstCheckSeeing } from './check-times.js';
export { ReleaseArchiveOptionError, ReleaseValueError, ReleaseRegenerationError, ReleaseNotFoundError } from './release-errors.js';
export { messages as releaseMessages } from './messages.js';
