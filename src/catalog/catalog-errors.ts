// Typed errors of the catalog layer, each in an rdw-error family (exit code) with a literal `code`.

import { IntegrityError, RdwError, UsageError, withCode } from '../contract/index.js';
import type { RdwErrorOptions } from '../contract/index.js';

/** Another process holds the catalog's DuckDB file lock past the wait bound (exit 1). */
export class CatalogBusyError extends withCode(RdwError, 'RDW_CATALOG_BUSY') {}

/** A bad option or argument of a catalog function (exit 2). */
export class CatalogOptionError extends withCode(UsageError, 'RDW_CATALOG_OPTION') {}

/** A bundled schema, data file columns or product version that differ from `src/contract` (exit 3). */
export class SchemaMismatchError extends withCode(IntegrityError, 'RDW_SCHEMA_MISMATCH') {}

/** A manifest that cannot describe the release it names (wrong dataset, missing fields) (exit 3). */
export class ManifestInvalidError extends withCode(IntegrityError, 'RDW_MANIFEST_INVALID') {}

/**
 * A statement of the manifest that its own rows, or the `/releases` listing of the same release ID, contradict
 * (day, rows, sample_time range, coverage counts, dataset or version on a row, file checksums, a file size no
 * plan's daily budget could hold); nothing was imported (exit 3). `field` names the manifest field, e.g. `day`,
 * `coverage.samples`, `files.parquet`.
 */
export class ManifestContradictionError extends withCode(IntegrityError, 'RDW_MANIFEST_CONTRADICTION') {
  readonly field: string;
  constructor(message: string, options: RdwErrorOptions & { field: string }) {
    super(message, options);
    this.field = options.field;
  }
}

/** The imported row count differs from the manifest's `rows`; the transaction was rolled back (exit 3). */
export class RowCountMismatchError extends withCode(IntegrityError, 'RDW_ROW_COUNT_MISMATCH') {
  readonly expected: number;
  readonly actual: number;
  constructor(message: string, options: RdwErrorOptions & { expected: number; actual: number }) {
    super(message, options);
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

/** A stored file that is missing or whose bytes no longer match `release_files` (exit 3). */
export class StoreMismatchError extends withCode(IntegrityError, 'RDW_STORE_MISMATCH') {
  /** The store path of the bad file, relative to the catalog home. */
  readonly file: string;
  constructor(message: string, options: RdwErrorOptions & { file: string }) {
    super(message, options);
    this.file = options.file;
  }
}

/**
 * A write through a catalog that refuses user writes (the workbench's, so a notebook's): rdw's tables hold
 * exactly the rows imported from verified files (exit 2). The message says where a user's own tables go.
 */
export class CatalogReadOnlyError extends withCode(UsageError, 'RDW_CATALOG_READ_ONLY') {}

/**
 * The catalog's rows of a release differ from the fingerprint recorded when they were imported (changed
 * outside rdw), or no fingerprint could be recorded (exit 3). `releaseId` names the release.
 */
export class RowsMismatchError extends withCode(IntegrityError, 'RDW_ROWS_MISMATCH') {
  readonly releaseId: string;
  constructor(message: string, options: RdwErrorOptions & { releaseId: string }) {
    super(message, options);
    this.releaseId = options.releaseId;
  }
}

/**
 * The catalog's records disagree with each other or with a release's verified stored manifest (rows of a release
 * it does not record, a release without a data file or manifest record, a `releases` field its manifest contradicts),
 * or a catalog object is not rdw's: its view market_events_current replaced or dropped, a macro stored in it named
 * like one of DuckDB's own functions. Changed outside rdw (exit 3). `releaseId` names the release, `object` the
 * view or macro (one of the two); `rdw verify --repair` mends it.
 */
export class CatalogRecordError extends withCode(IntegrityError, 'RDW_CATALOG_RECORD') {
  readonly releaseId: string | undefined;
  /** `market_events_current`, a macro as `database.schema.name()`, or a row table's column as `table.column`. */
  readonly object: string | undefined;
  constructor(message: string, options: RdwErrorOptions & ({ releaseId: string; object?: undefined } | { object: string; releaseId?: undefined })) {
    super(message, options);
    this.releaseId = options.releaseId;
    this.object = options.object;
  }
}

/**
 * A name on the catalog's connection that stands in for another, so rdw's SQL would read something else than it
 * says (exit 3): a macro (in the catalog file or temporary) named like one of DuckDB's own functions
 * (`catalog.query('CREATE MACRO ln(x) …')`), or a temporary table or view named like one of a database
 * (`CREATE TEMP VIEW market_events_current …`). `names` lists them as `database.schema.name`, functions with `()`.
 */
export class ShadowedNameError extends withCode(IntegrityError, 'RDW_SHADOWED_NAME') {
  readonly names: readonly string[];
  constructor(message: string, options: RdwErrorOptions & { names: readonly string[] }) {
    super(message, options);
    this.names = options.names;
  }
}

/**
 * A setting of the catalog's connection that changes what rdw's SQL computes or reads (exit 2): a TimeZone other
 * than UTC (hour(to_timestamp(…)) would move), a default_order other than ascending (a trailing window would look
 * ahead), or a current database / search_path other than the catalog's (`USE other`: unqualified names would read
 * another database's tables). `setting` names it.
 */
export class ConnectionSettingError extends withCode(UsageError, 'RDW_CONNECTION_SETTING') {
  readonly setting: string;
  constructor(message: string, options: RdwErrorOptions & { setting: string }) {
    super(message, options);
    this.setting = options.setting;
  }
}

/** A catalog written by a newer rdw: a schema version this one does not know (exit 1). */
export class CatalogVersionError extends withCode(RdwError, 'RDW_CATALOG_VERSION') {}

/**
 * `catalog.duckdb` is not a readable DuckDB database: not one at all, a block whose checksum fails, a file
 * cut short, or content DuckDB cannot deserialize (exit 1). The message says how to get a catalog back.
 */
export class CatalogCorruptError extends withCode(RdwError, 'RDW_CATALOG_CORRUPT') {
  /** The catalog file, absolute. */
  readonly file: string;
  constructor(message: string, options: RdwErrorOptions & { file: string }) {
    super(message, options);
    this.file = options.file;
  }
}
