// src/locks: study locks (DESIGN.md 2.5) — record, write, read, reproduce. Imports catalog, client, spec.

export { LOCK_VERSION } from './study-lock.js';
export type { StudyLock, LockedRelease, LockedFile } from './study-lock.js';
export { studyLockFromJson, studyLockToJson, LockFormatError, LockVersionError } from './study-lock-json.js';
export { recordStudyLock, checkLockIds, LOCKED_DATA_FORMATS, type RecordStudyLockOptions } from './record-study-lock.js';
export { writeLock, writeLockFile, readLock, regularFileTarget } from './lock-file.js';
export { reproduceStudy } from './reproduce-study.js';
export { verifyStudyLock } from './verify-study-lock.js';
export { checkLockedRows } from './check-locked-rows.js';
export type { VerifiedRows } from './check-locked-rows.js';
export { checkLockRevisions } from './check-lock-revisions.js';
export type { PinnedReleaseCheck } from './check-lock-revisions.js';
export type { LockVerification, VerifiedRelease, VerifyStudyLockOptions } from './verify-study-lock.js';
export type { ReproduceReport, ReproducedRelease, ReproduceOptions, ReproduceProgress, ReproduceStatus } from './reproduce-study.js';
export { StudyOptionError, NotInCatalogError, UnknownLockedReleaseError, LockMismatchError } from './study-errors.js';
export type { LockedPart } from './study-errors.js';
export { rdwVersion } from './rdw-version.js';
export { studyMessages } from './messages.js';
