// src/workbench: what a notebook or study script opens — catalog + client (+ embedded mock) from an env
// object, and `Study` (a lock reproduced, its event study). Imports every layer below cli.

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
export { useTeamStore, checkStoreUrl } from './use-team-store.js';
export type { UseTeamStoreOptions } from './use-team-store.js';
export { repairTeamStoreAndSay } from './repair-team-store-and-say.js';
export type { SyncHomeOptions } from './sync-home.js';
export type { SyncReport, SyncedRelease, SyncFailure, SyncSnapshot, SyncLockCheck, SyncBudget } from './sync-report.js';
export { acquireSyncLock, SYNC_LOCK_FILE } from './sync-lock.js';
export type { SyncLock, SyncLockHolder, AcquireSyncLockOptions } from './sync-lock.js';
export type { StudyOpenOptions } from './study.js';
export { ApiKeyMissingError, WorkbenchOptionError, SyncBusyError, SyncLockUnusableError } from './workbench-errors.js';
export { workbenchMessages } from './messages.js';
