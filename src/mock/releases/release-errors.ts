// Typed errors of the release archive: a bad option, a value no file can carry, non-deterministic regeneration.

import { IntegrityError, NotFoundError, UsageError, withCode, type RdwErrorOptions } from '../../contract/index.js';

/** An archive option or argument out of range (names the option). */
export class ReleaseArchiveOptionError extends withCode(UsageError, 'RDW_RELEASE_ARCHIVE_OPTION') {
  constructor(message: string, option: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option });
  }
}

/** A row value that cannot be written to a release file (NaN or Infinity). */
export class ReleaseValueError extends withCode(IntegrityError, 'RDW_RELEASE_VALUE') {}

/** A release file regenerated after cache eviction differs from the published checksum. */
export class ReleaseRegenerationError extends withCode(IntegrityError, 'RDW_RELEASE_REGENERATION') {}

/** A release ID the archive never published. */
export class ReleaseNotFoundError extends withCode(NotFoundError, 'RDW_RELEASE_NOT_FOUND') {}
