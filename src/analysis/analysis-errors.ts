// Typed failures of the analysis layer other than leakage.

import { NotFoundError, RdwError, UsageError, withCode } from '../contract/index.js';

/** An analysis option is malformed: window, grouping, interval (or bootstrap), release ID (exit 2). */
export class AnalysisOptionError extends withCode(UsageError, 'RDW_ANALYSIS_OPTION') {}

/** A column name that is neither a row field nor a derived feature (exit 2). */
export class UnknownColumnError extends withCode(UsageError, 'RDW_UNKNOWN_COLUMN') {}

/** Releases named by ID that the catalog does not hold; nothing falls back to another revision (exit 6). */
export class ReleaseNotInCatalogError extends withCode(NotFoundError, 'RDW_RELEASE_NOT_IN_CATALOG') {
  constructor(
    message: string,
    readonly releaseIds: readonly string[],
  ) {
    super(message);
  }
}

/**
 * The study's rows carry more than one `calculation_version` (NULL counts as its own) and the caller did
 * not opt in with `allowMixedCalculationVersions` / `--allow-mixed-versions` (exit 2: the user must choose).
 */
export class MixedCalculationVersionsError extends withCode(UsageError, 'RDW_MIXED_CALCULATION_VERSIONS') {
  constructor(
    message: string,
    /** The versions found, sorted (null: rows without one). */
    readonly calculationVersions: readonly (string | null)[],
  ) {
    super(message, { option: 'allowMixedCalculationVersions' });
  }
}

/** The study has no rows at all (exit 6). */
export class EmptyStudyError extends withCode(NotFoundError, 'RDW_STUDY_EMPTY') {}

/** An optional peer dependency a call needs is not installed: `toDataFrame` without danfojs (exit 1). */
export class OptionalPackageMissingError extends withCode(RdwError, 'RDW_OPTIONAL_PACKAGE_MISSING') {
  constructor(
    message: string,
    /** The npm package to install, e.g. `danfojs`. */
    readonly packageName: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}
