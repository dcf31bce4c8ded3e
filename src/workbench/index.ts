// src/workbench: what a notebook or study script opens — catalog + client (+ embedded mock) from an env
// object, and `Study` (a lock reproduced, its event study) — and the use cases the rdw commands call, each a
// whole operation (pull the wanted releases, lock releases, study a locked catalog, repair a verified store,
// probe a service). Imports every layer below cli; src/cli imports the library only through here and the
// package root (test/architecture/cli-imports.test.ts).

export { openWorkbench } from './open-workbench.js';
export { resolveHome } from './resolve-home.js';
export type { ResolveHomeInput } from './resolve-home.js';
export type { Workbench, WorkbenchOptions } from './open-workbench.js';
export { snapshotHistoryMethods } from './snapshot-history.js';
export type { SnapshotHistoryMethods } from './snapshot-history.js';
export type { RecordSnapshotOptions, SnapshotHistoryEntry } from '../catalog/index.js';
export { connectApi, once } from './connect-api.js';
export { networkSettings } from './network-settings.js';
export type { ApiConnection, ConnectApiOptions, EmbeddedMockOptions } from './connect-api.js';
export { Study } from './study.js';
export { syncHome } from './sync-home.js';
export { useTeamStore, checkStoreUrl, probeTeamStore } from './use-team-store.js';
export type { TeamStoreProbe } from './use-team-store.js';
export { storeMessages } from '../store/index.js';
export type { UseTeamStoreOptions } from './use-team-store.js';
export type { SyncHomeOptions } from './sync-home.js';
export type { SyncReport, SyncedRelease, SyncFailure, SyncSnapshot, SyncLockCheck, SyncBudget } from './sync-report.js';
export { acquireSyncLock, SYNC_LOCK_FILE } from './sync-lock.js';
export type { SyncLock, AcquireSyncLockOptions } from './sync-lock.js';
export type { SyncLockHolder } from './sync-lock-holder.js';
export type { StudyOpenOptions, StudyMissingnessOptions } from './study.js';
export { ApiKeyMissingError, WorkbenchOptionError, SyncBusyError, SyncLockUnusableError } from './workbench-errors.js';
export { workbenchMessages } from './messages.js';

// Use cases of the commands (and the demo and notebooks): each a whole operation below the CLI.
export { checkWantedReleases, listLatestReleases, pullWanted } from './pull-wanted.js';
export type { WantedReleases, PullWantedOptions, PulledReleases } from './pull-wanted.js';
export { lockReleases } from './lock-releases.js';
export type { LockReleasesOptions, LockedReleases } from './lock-releases.js';
export { openLockedCatalog, eventStudyOfLock, modelStudyOfLock } from './locked-study.js';
export type { LockedStudyOptions, LockedCatalog, LockedStudy, StudyReportFiles, ModelReportFiles } from './locked-study.js';
export { reproduceLock } from './reproduce-lock.js';
export type { ReproduceLockOptions, ReproducedLock } from './reproduce-lock.js';
export { repairVerifiedStore } from './repair-verified-store.js';
export type { RepairVerifiedStoreOptions, VerifiedStoreRepair } from './repair-verified-store.js';
export { probeService, PROBE_TIMEOUT_MS } from '../client/index.js';
export type { ProbeServiceOptions, ServiceProbe } from '../client/index.js';

// What the commands check, print and type with, from the layers below that the package root does not export:
// their sentences (each layer's messages), input checks, and the types of what the use cases return.
export { hasCatalog, acceptedNotices, catalogMessages, collectGarbage, EXAMPLE_CATALOG_QUERY, importedReleaseIds, MARKET_EVENTS_TABLE, probeCatalogLock, recordListings } from './home-catalog.js';
export type { PullProgress, ReleaseRowsCheck, ReleaseRowsRepair, StoredFileCheck } from './home-catalog.js';
export { urlSecret, validateApiKey } from '../client/index.js';
export type { AccountLimits, ResearchTable } from '../client/index.js';
export { checkLockRevisions } from '../locks/index.js';
export type { PinnedReleaseCheck } from '../locks/index.js';
export { analysisMessages, resolveWindow } from '../analysis/index.js';
export type { IntervalMethod, StudyGroupKey } from '../analysis/index.js';
export { modelSplitText } from '../report/index.js';
export { studyIntervalNotes } from '../notebook/study-table-text.js';
