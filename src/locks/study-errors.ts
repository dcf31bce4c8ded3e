// Typed errors of the study layer, each in an rdw-error family (exit code) with a literal `code`.

import { IntegrityError, NotFoundError, UsageError, withCode } from '../contract/index.js';
import type { RdwErrorOptions } from '../contract/index.js';

/** A bad argument of a study function, e.g. no release IDs, or a lock file that does not exist (exit 2). */
export class StudyOptionError extends withCode(UsageError, 'RDW_STUDY_OPTION') {}

/** A locked release that cannot be had (exit 6): the base of the two below, which name it by `releaseId`. */
class LockedReleaseNotFoundError extends NotFoundError {
  /** The release ID the lock pins. */
  readonly releaseId: string;
  constructor(message: string, options: RdwErrorOptions & { releaseId: string }) {
    super(message, options);
    this.releaseId = options.releaseId;
  }
}

/** A release a lock should pin (or a lock pins) is not in the local catalog and cannot be pulled here (exit 6). */
export class NotInCatalogError extends withCode(LockedReleaseNotFoundError, 'RDW_NOT_IN_CATALOG') {}

/** The service does not know a release ID the lock pins (HTTP 404 on its manifest) (exit 6). */
export class UnknownLockedReleaseError extends withCode(LockedReleaseNotFoundError, 'RDW_LOCKED_RELEASE_UNKNOWN') {}

/** What part of a locked release differs. `release` = its metadata (dataset, day, version); `rows` = calculation versions. */
export type LockedPart = 'manifest' | 'schema' | 'parquet' | 'csv' | 'json' | 'release' | 'rows';

/**
 * The catalog or the stored bytes differ from the lock: a manifest, schema or data file checksum or size,
 * a missing or changed stored file, or the release's metadata (exit 3). Names the release and the file.
 */
export class LockMismatchError extends withCode(IntegrityError, 'RDW_LOCK_MISMATCH') {
  /** The locked release that differs. */
  readonly releaseId: string;
  /** Which locked file (or part) differs. */
  readonly file: LockedPart;
  /** The stored file, relative to the catalog home (`store/sha256/ab/ab12…`), when a stored file is at fault. */
  readonly storePath: string | undefined;
  constructor(message: string, options: RdwErrorOptions & { releaseId: string; file: LockedPart; storePath?: string }) {
    super(message, options);
    this.releaseId = options.releaseId;
    this.file = options.file;
    this.storePath = options.storePath;
  }
}
