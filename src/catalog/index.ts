// src/catalog: content-addressed file store + DuckDB catalog + pull pipeline (DESIGN.md 2.4). Imports client, spec.

export { openCatalog } from './open-catalog.js';
export { Catalog, CATALOG_FILE } from './catalog.js';
export type { CatalogRow, SqlParameters } from './catalog.js';
export { readArrowTable } from './catalog-arrow.js';
export { resolveCatalogOptions } from './catalog-options.js';
export type { CatalogHold, CatalogOptions, CatalogUserWrites, ResolvedCatalogOptions } from './catalog-options.js';
export { READER_BUSY_TIMEOUT_MS, WRITER_BUSY_TIMEOUT_MS } from './catalog-options.js';
export type { CatalogLockHolder, CatalogWaitNotice } from './open-duckdb-file.js';
export { MIGRATIONS, CATALOG_SCHEMA_VERSION, DUCKDB_TYPE, marketEventsColumnsSql } from './catalog-schema.js';
export type { Migration } from './catalog-schema.js';
export { runMigrations, catalogSchemaVersion, sqlTimestamp } from './run-migrations.js';
export { ContentStore, STORED_FILE_MODE } from './content-store.js';
export type { TempCleanup } from './content-store.js';
export { checkManifest, checkBundledSchema } from './check-release-schema.js';
export type { BundledSchemaFields, DeclaredField } from './check-release-schema.js';
export { checkDataColumns, duckdbTypeFits, NULL_COLUMN_TYPE, SOURCE_FILE_COLUMN } from './check-data-columns.js';
export { checkReleaseFacts, readReleaseFacts, releaseContradictions, releaseFactsSql } from './check-release-facts.js';
export type { Contradiction, ReleaseFacts } from './check-release-facts.js';
export { checkFileSizes, checkListingAgrees, listingContradictions, sizeContradictions, LARGEST_PLAN_DAILY_BYTES } from './check-manifest-statements.js';
export type { DescribedColumn, ColumnPlan } from './check-data-columns.js';
export { acceptedBeyondContract, acceptedNotices } from './accepted-beyond-contract.js';
export type { AcceptedBeyondContract, AcceptedKind, AcceptedNotice } from './accepted-beyond-contract.js';
export { importRelease, importReleases, insertReleaseRows, checkDataFile } from './import-release.js';
export type { ReleaseImport, DataFormat } from './import-release.js';
export { pullRelease, prepareRelease, settleRelease, checkReleaseIds } from './pull-release.js';
export type { PullProgress, PullStatus, PullResult, PullReleaseOptions, PreparedRelease } from './pull-release.js';
export { pullReleases } from './pull-releases.js';
export type { PullReleasesOptions, PullReleasesResult, PullFailure } from './pull-releases.js';
export { recordListings, recordedListing } from './record-listings.js';
export { listImportedReleases } from './list-imported-releases.js';
export { readReleaseRecords } from './read-release-records.js';
export type { ReleaseRecord } from './read-release-records.js';
export { importedReleaseIds } from './imported-release-ids.js';
export { releaseCalculationVersions } from './release-calculation-versions.js';
export { idInListSql } from './release-id-sql.js';
export { recordSnapshot, snapshotHistory, lastSnapshotFetches } from './snapshot-records.js';
export { recordSyncRun, readSyncRuns, lastSyncRun } from './sync-records.js';
export type { SyncOutcome, SyncRunRecord } from './sync-records.js';
export { catalogDays } from './catalog-days.js';
export type { CatalogDays } from './catalog-days.js';
export { knownRevisions } from './known-revisions.js';
export type { KnownRevision } from './known-revisions.js';
export type { RecordSnapshotOptions, SnapshotHistoryEntry } from './snapshot-records.js';
export { readMarketEvents, MARKET_EVENTS_TABLE, MARKET_EVENTS_CURRENT_VIEW, EXAMPLE_CATALOG_QUERY } from './market-events-source.js';
export type { MarketEventsSource } from './market-events-source.js';
export { readMarketEventRows } from './read-market-event-rows.js';
export type { CatalogMarketEventRow, MarketEventRowsOptions } from './read-market-event-rows.js';
export type { ImportedRelease } from './list-imported-releases.js';
export { verifyStore } from './verify-store.js';
export { checkReleaseRows } from './check-release-rows.js';
export type { ReleaseRowsCheck, CheckReleaseRowsOptions } from './check-release-rows.js';
export { rowsFingerprintSql, readRowsFingerprints, ROWS_FINGERPRINT_TAG } from './rows-fingerprint.js';
export type { FingerprintSources, FingerprintedRelease } from './rows-fingerprint.js';
export { backfillRowsFingerprints } from './backfill-rows-fingerprints.js';
export type { RowsFingerprintBackfill } from './backfill-rows-fingerprints.js';
export { repairReleaseRows } from './repair-release-rows.js';
export type { ReleaseRowsRepair } from './repair-release-rows.js';
export { USER_CONNECTION_METHODS } from './user-connection.js';
export { collectGarbage, findStoreGarbage } from './collect-garbage.js';
export type { CollectGarbageOptions, GarbageCollection, GarbageFile, StoreGarbage } from './collect-garbage.js';
export type { StoredFileCheck, StoreVerification, CheckStoredFilesOptions } from './verify-store.js';
export { checkStoredFiles } from './verify-store.js';
export { repairStore, repairStoredFiles, repairPresentReleases, repairRowsAfterFiles } from './repair-store.js';
export type { RepairOptions, StoreFileRepair, StoreRepair } from './repair-store.js';
export { repairTeamStore } from './repair-team-store.js';
export type { RepairTeamStoreOptions, TeamObjectRepair, TeamStoreRepair } from './repair-team-store.js';
export { reimportReleaseRows } from './reimport-release-rows.js';
export type { DataFileUse } from './reimport-release-rows.js';
export { exportParquet } from './export-parquet.js';
export { exportParquetToStore, EXPORT_DONE_MARKER } from './export-parquet-to-store.js';
export { probeCatalogLock } from './probe-catalog-lock.js';
export type { CatalogLockProbe } from './probe-catalog-lock.js';
export type { ExportParquetOptions, ExportParquetResult } from './export-parquet.js';
export type { ExportParquetToStoreOptions, ExportParquetToStoreResult } from './export-parquet-to-store.js';
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
} from './catalog-errors.js';
export { catalogMessages } from './messages.js';
