// Typed errors of the workbench layer.

import { AuthError, RdwError, UsageError, withCode } from '../contract/index.js';

/** RDW_BASE_URL is set but RDW_API_KEY is not (exit 4). */
export class ApiKeyMissingError extends withCode(AuthError, 'RDW_API_KEY_MISSING') {}

/** A bad option of a workbench or study call (exit 2). */
export class WorkbenchOptionError extends withCode(UsageError, 'RDW_WORKBENCH_OPTION') {}

/** Another `rdw sync` holds this home's sync lock (a live process): this one exits at once (exit 1). */
export class SyncBusyError extends withCode(RdwError, 'RDW_SYNC_BUSY') {}

/** Something at the home's `sync.lock` that is no lock and cannot be taken over (a folder, a FIFO): named, with how to remove it (exit 1). */
export class SyncLockUnusableError extends withCode(RdwError, 'RDW_SYNC_LOCK_UNUSABLE') {}
