// src/catalog: content-addressed file store + DuckDB catalog + pull pipeline (DESIGN.md 2.4). Imports base,
// contract and client (the API it pulls from); nothing above. This door is the catalog's public surface, what
// other layers and the package use; the pipeline's steps (manifest checks, import, migrations) are inside it.

// Opening a catalog, its queries and its lock.
export { openCatalog } from './open-catalog.js';
export { Catalog, CATALOG_FILE } from './catalog.js';
export type { CatalogRow, SqlParameters } from './catalog-row.js';
export type { CatalogHold, CatalogOptions, CatalogUserWrites } from './catalog-options.js';
export type { CatalogLockHolder, CatalogWaitNotice } from './open-duckdb-file.js';
export { probeCatalogLock } from './probe-catalog-lock.js';
export type { CatalogLockProbe } from './probe-catalog-lock.js';
export { ContentStore } from './content-store.js';
export type { TempCleanup } from './content-store.js';

// Pulling releases by ID.
export { pullRelease, checkReleaseIds } from './pull-release.js';
export { releaseIdsWithPrefix } from './release-ids-with-prefix.js';
export type { PullProgress, PullStatus, PullResult, PullReleaseOptions } from './pull-release.js';
export { pullReleases } from './pull-releases.js';
export { pinnedManifest } from './team-store-pull.js';
export type { PullReleasesOptions, PullReleasesResult, PullFailure } from './pull-releases.js';
export { acceptedNotices } from './accepted-beyond-contract.js';
export type { AcceptedKind, AcceptedNotice } from './accepted-beyond-contract.js';
export { recordListings } from './record-listings.js';

// The read API: the only way other layers see the catalog's tables (docs/catalog.md "Who may touch the tables").
export { DUCKDB_TYPE, RELEASE_COLUMNS } from './catalog-schema.js';
export { idInListSql } from './release-id-sql.js';
export { importedReleaseIds } from './imported-release-ids.js';
export { readReleaseRecords } from './read-release-records.js';
export type { ReleaseRecord } from './read-release-records.js';
export { releaseCalculationVersions } from './release-calculation-versions.js';
export { listImportedReleases } from './list-imported-releases.js';
export type { ImportedRelease } from './list-imported-releases.js';
export { readMarketEvents, MARKET_EVENTS_TABLE, MARKET_EVENTS_CURRENT_VIEW, EXAMPLE_CATALOG_QUERY } from './market-events-source.js';
export type { MarketEventsSource } from './market-events-source.js';
export { readMarketEventRows } from './read-market-event-rows.js';
export type { CatalogMarketEventRow, MarketEventRowsOptions } from './read-market-event-rows.js';
export { recordSnapshot, snapshotHistory, lastSnapshotFetches } from './snapshot-records.js';
export type { RecordSnapshotOptions, SnapshotHistoryEntry } from './snapshot-records.js';
export { recordSyncRun, readSyncRuns, lastSyncRun } from './sync-records.js';
export type { SyncOutcome, SyncRunRecord } from './sync-records.js';
export { catalogDays } from './catalog-days.js';
export type { CatalogDays } from './catalog-days.js';
export { knownRevisions } from './known-revisions.js';
export type { KnownRevision } from './known-revisions.js';

// Verify, repair, collect garbage, export.
export { verifyStore, checkStoredFiles, type VerifyStoreOptions } from './verify-store.js';
export { currentRevisions } from './current-revisions.js';
export { checkCatalogRecords, type CatalogRecordProblem } from './check-catalog-records.js';
export { repairCatalogRecords, type CatalogRecordRepair } from './repair-catalog-records.js';
export type { StoredFileCheck, StoreVerification } from './verify-store.js';
export { checkReleaseRows } from './check-release-rows.js';
export type { ReleaseRowsCheck, CheckReleaseRowsOptions } from './check-release-rows.js';
export { readRowsFingerprints } from './rows-fingerprint.js';
export type { FingerprintedRelease } from './rows-fingerprint.js';
export type { ReleaseRowsRepair } from './repair-release-rows.js';
export { repairStore, repairStoredFiles, repairRowsAfterFiles } from './repair-store.js';
export type { RepairOptions, StoreFileRepair, StoreRepair } from './repair-store.js';
export { collectGarbage } from './collect-garbage.js';
export type { CollectGarbageOptions, GarbageCollection, GarbageFile } from './collect-garbage.js';
export { exportParquet } from './export-parquet.js';
export type { ExportParquetOptions, ExportParquetResult } from './export-parquet.js';

export { exportParquetToStore, EXPORT_DONE_MARKER } from './export-parquet-to-store.js';
export type { ExportParquetToStoreOptions, ExportParquetToStoreResult } from './export-parquet-to-store.js';
export { repairTeamStore } from './repair-team-store.js';
export type { RepairTeamStoreOptions, TeamObjectRepair, TeamStoreRepair } from './repair-team-store.js';

// Errors and sentences.
export {
  CatalogBusyError,
  CatalogCorruptError,
  CatalogOptionError,
  CatalogVersionError,
  SchemaMismatchError,
  ManifestInvalidError,
  ManifestContradictionError,
  RowCountMismatchError,
  StoreMismatchError,
  CatalogReadOnlyError,
  RowsMismatchError,
  CatalogRecordError,
  ShadowedNameError,
  ConnectionSettingError,
} from './catalog-errors.js';
export { assertNothingShadowed } from './shadowed-names.js';
export { storedRowsFingerprints } from './stored-rows-fingerprints.js';
export { catalogMessages } from './messages.js';
