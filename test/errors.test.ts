// Every error class of rdw from ONE table (the model is undici's test/errors.js): its `code`, its exit code, a
// sample built with a message and its details. The table must hold every error class in src (or name it as
// internal, with why), match docs/errors.md and the package root's `errors`, and no two classes share a code.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errors } from '../src/index.js';
import { EXIT_CODES, type ExitCode, RdwError } from '../src/contract/index.js';
import { CliUsageError, KernelInstallError, NoCatalogError, SqlNotReadOnlyError } from '../src/cli/cli-errors.js';

/** The library's error classes, as the package root exports them. */
const E = errors;

const { failure, usage, integrity, auth, limit, notFound } = EXIT_CODES;
const SAMPLE = 'Release 3f2a… failed its checksum; pull it again.';
const ID = 'a'.repeat(64);

/** An error class: its constructor takes the message first, then the details of the failure. */
type ErrorClass = new (message: string, ...details: any[]) => RdwError;

interface Row {
  type: ErrorClass;
  code: string;
  exitCode: ExitCode;
  /** What the constructor takes after the message (an options object, or positional details). */
  details: unknown[];
  /** The fields a sample built with those details must carry. */
  fields: Record<string, unknown>;
}

const row = (type: ErrorClass, code: string, exitCode: ExitCode, details: unknown[] = [], fields: Record<string, unknown> = {}): Row => ({
  type,
  code,
  exitCode,
  details,
  fields,
});

/** THE table: every error class of rdw. Columns: class, code, exit code, constructor details, fields they give. */
const TABLE: Row[] = [
  // The base and the families (exit codes of DESIGN.md 2.3); the machine failures.
  row(E.RdwError, 'RDW_ERROR', failure),
  row(E.UsageError, 'RDW_USAGE', usage, [{ option: 'days' }], { option: 'days' }),
  row(E.IntegrityError, 'RDW_INTEGRITY_MISMATCH', integrity),
  row(E.AuthError, 'RDW_AUTH', auth),
  row(E.LimitError, 'RDW_LIMIT', limit),
  row(E.NotFoundError, 'RDW_NOT_FOUND', notFound),
  row(E.EnvironmentError, 'RDW_ENVIRONMENT', failure, [{ path: '/h' }], { path: '/h' }),
  row(E.DiskFullError, 'RDW_DISK_FULL', failure, [{ path: '/h/x' }], { path: '/h/x' }),
  row(E.FileTooLargeError, 'RDW_FILE_TOO_LARGE', failure, [{ path: '/h/x' }], { path: '/h/x' }),
  row(E.PermissionDeniedError, 'RDW_PERMISSION_DENIED', failure),
  row(E.ReadOnlyFileSystemError, 'RDW_READ_ONLY_FILE_SYSTEM', failure),
  row(E.NotAFolderError, 'RDW_NOT_A_FOLDER', failure),
  row(E.IsAFolderError, 'RDW_IS_A_FOLDER', failure),
  row(E.NotARegularFileError, 'RDW_NOT_A_FILE', failure),
  row(E.BadPathError, 'RDW_BAD_PATH', failure),
  row(E.UnsafeDeleteError, 'RDW_UNSAFE_DELETE', failure, [{ path: '/', reason: 'root' }], { path: '/', reason: 'root' }),
  // The client.
  row(E.UnauthorizedError, 'RDW_UNAUTHORIZED', auth, [{ apiCode: 'unauthorized' }], { status: 401, apiCode: 'unauthorized' }),
  row(E.ForbiddenError, 'RDW_FORBIDDEN', auth, [{ apiCode: 'plan_required' }], { status: 403, apiCode: 'plan_required' }),
  row(E.ApiNotFoundError, 'RDW_API_NOT_FOUND', notFound, [], { status: 404 }),
  row(E.ConflictError, 'RDW_CONFLICT', failure, [], { status: 409 }),
  row(E.RowQueryTooLargeError, 'RDW_ROW_QUERY_TOO_LARGE', limit, [{ status: 413 }], { status: 413 }),
  row(E.ResponseTooLargeError, 'RDW_RESPONSE_TOO_LARGE', limit, [{ status: 200, limit: 1024, kind: 'document' }], { status: 200, limit: 1024, kind: 'document' }),
  row(E.ValidationError, 'RDW_API_VALIDATION', usage, [{ parameter: 'symbol' }], { status: 422, parameter: 'symbol', option: 'symbol' }),
  row(E.RateLimitedError, 'RDW_RATE_LIMITED', limit, [{ retryAfter: 30 }], { status: 429, retryAfter: 30 }),
  row(E.ByteBudgetError, 'RDW_BYTE_BUDGET', limit, [{ nextUtcDay: '2026-11-02', retryAfter: 3600 }], { status: undefined, nextUtcDay: '2026-11-02', retryAfter: 3600 }),
  row(E.ChecksumMismatchError, 'RDW_INTEGRITY_MISMATCH', integrity, [{ expected: 'b', actual: 'c' }], { expected: 'b', actual: 'c' }),
  row(E.SizeMismatchError, 'RDW_INTEGRITY_SIZE', integrity, [{ expected: 10, actual: 9 }], { expected: 10, actual: 9 }),
  row(E.ManifestMismatchError, 'RDW_MANIFEST_MISMATCH', integrity),
  row(E.ImpossibleSizeError, 'RDW_IMPOSSIBLE_SIZE', integrity),
  row(E.ServiceUnavailableError, 'RDW_SERVICE_UNAVAILABLE', failure, [{ status: 503 }], { status: 503 }),
  row(E.UnexpectedResponseError, 'RDW_UNEXPECTED_RESPONSE', failure, [{ status: 405 }], { status: 405 }),
  row(E.RedirectError, 'RDW_REDIRECT', failure, [{ status: 302, reason: 'loop' }], { status: 302, reason: 'loop' }),
  row(E.CredentialsInUrlError, 'RDW_URL_CREDENTIALS', usage, [{ option: 'baseUrl', carried: 'query' }], { option: 'baseUrl', carried: 'query' }),
  row(E.NetworkError, 'RDW_NETWORK', failure),
  row(E.TimeoutError, 'RDW_TIMEOUT', failure, [{ phase: 'body' }], { phase: 'body' }),
  row(E.AbortedError, 'RDW_ABORTED', failure),
  // The catalog.
  row(E.CatalogBusyError, 'RDW_CATALOG_BUSY', failure),
  row(E.CatalogCorruptError, 'RDW_CATALOG_CORRUPT', failure, [{ file: '/h/catalog.duckdb' }], { file: '/h/catalog.duckdb' }),
  row(E.CatalogOptionError, 'RDW_CATALOG_OPTION', usage),
  row(E.CatalogVersionError, 'RDW_CATALOG_VERSION', failure),
  row(E.SchemaMismatchError, 'RDW_SCHEMA_MISMATCH', integrity),
  row(E.ManifestInvalidError, 'RDW_MANIFEST_INVALID', integrity),
  row(E.ManifestContradictionError, 'RDW_MANIFEST_CONTRADICTION', integrity, [{ field: 'day' }], { field: 'day' }),
  row(E.RowCountMismatchError, 'RDW_ROW_COUNT_MISMATCH', integrity, [{ expected: 5, actual: 4 }], { expected: 5, actual: 4 }),
  row(E.RowsMismatchError, 'RDW_ROWS_MISMATCH', integrity, [{ releaseId: 'a'.repeat(64) }], { releaseId: 'a'.repeat(64) }),
  row(E.CatalogRecordError, 'RDW_CATALOG_RECORD', integrity, [{ releaseId: 'a'.repeat(64) }], { releaseId: 'a'.repeat(64) }),
  row(E.CatalogReadOnlyError, 'RDW_CATALOG_READ_ONLY', usage),
  row(E.ShadowedNameError, 'RDW_SHADOWED_NAME', integrity, [{ names: ['temp.main.ln()'] }], { names: ['temp.main.ln()'] }),
  row(E.ConnectionSettingError, 'RDW_CONNECTION_SETTING', usage, [{ setting: 'TimeZone' }], { setting: 'TimeZone' }),
  row(E.StoreMismatchError, 'RDW_STORE_MISMATCH', integrity, [{ file: 'store/sha256/ab/ab12' }], { file: 'store/sha256/ab/ab12' }),
  // Analysis.
  row(E.AnalysisOptionError, 'RDW_ANALYSIS_OPTION', usage),
  row(E.UnknownColumnError, 'RDW_UNKNOWN_COLUMN', usage),
  row(E.LeakageError, 'RDW_LABEL_LEAKAGE', usage, [{ column: 'return_1h_pct', window: '1h', label: 'return_1h_pct' }], { column: 'return_1h_pct', window: '1h', label: 'return_1h_pct', option: 'return_1h_pct' }),
  row(E.CrossRowFeatureError, 'RDW_CROSS_ROW_FEATURE', usage, [{ column: 'next_price', construct: 'the window function lead() OVER (…)' }], { column: 'next_price', construct: 'the window function lead() OVER (…)', option: 'next_price' }),
  row(E.ReleaseNotInCatalogError, 'RDW_RELEASE_NOT_IN_CATALOG', notFound, [[ID]], { releaseIds: [ID] }),
  row(E.MixedCalculationVersionsError, 'RDW_MIXED_CALCULATION_VERSIONS', usage, [['mev-calc-4', null]], { calculationVersions: ['mev-calc-4', null], option: 'allowMixedCalculationVersions' }),
  row(E.EmptyStudyError, 'RDW_STUDY_EMPTY', notFound),
  row(E.OptionalPackageMissingError, 'RDW_OPTIONAL_PACKAGE_MISSING', failure, ['danfojs'], { packageName: 'danfojs' }),
  // Study locks.
  row(E.StudyOptionError, 'RDW_STUDY_OPTION', usage),
  row(E.LockFormatError, 'RDW_LOCK_FORMAT', usage),
  row(E.LockVersionError, 'RDW_LOCK_VERSION', usage, [2], { lockVersion: 2 }),
  row(E.NotInCatalogError, 'RDW_NOT_IN_CATALOG', notFound, [{ releaseId: ID }], { releaseId: ID }),
  row(E.UnknownLockedReleaseError, 'RDW_LOCKED_RELEASE_UNKNOWN', notFound, [{ releaseId: ID }], { releaseId: ID }),
  row(E.LockMismatchError, 'RDW_LOCK_MISMATCH', integrity, [{ releaseId: ID, file: 'parquet', storePath: 'store/sha256/ab/ab12' }], { releaseId: ID, file: 'parquet', storePath: 'store/sha256/ab/ab12' }),
  // Notebook helpers and the workbench.
  row(E.NotInKernelError, 'RDW_NOT_IN_KERNEL', failure),
  row(E.NotebookOptionError, 'RDW_NOTEBOOK_OPTION', usage),
  row(E.ApiKeyMissingError, 'RDW_API_KEY_MISSING', auth),
  row(E.WorkbenchOptionError, 'RDW_WORKBENCH_OPTION', usage),
  row(E.SyncBusyError, 'RDW_SYNC_BUSY', failure),
  row(E.SyncLockUnusableError, 'RDW_SYNC_LOCK_UNUSABLE', failure),
  // The embedded mock.
  row(E.MockServerOptionError, 'RDW_MOCK_OPTION', usage),
  row(E.MockError, 'RDW_MOCK', failure, [405, 'method_not_allowed'], { status: 405, apiCode: 'method_not_allowed' }),
  row(E.KeySlotsFullError, 'RDW_MOCK_KEY_SLOTS_FULL', failure, [], { status: 409, apiCode: 'key_slots_full' }),
  row(E.UnknownAccountError, 'RDW_MOCK_UNKNOWN_ACCOUNT', notFound, [], { status: 404, apiCode: 'not_found' }),
  row(E.SimulatorOptionError, 'RDW_SIMULATOR_OPTION', usage, ['seed'], { option: 'seed' }),
  row(E.SimulatorArgumentError, 'RDW_SIMULATOR_ARGUMENT', usage, ['day'], { option: 'day' }),
  row(E.ReleaseArchiveOptionError, 'RDW_RELEASE_ARCHIVE_OPTION', usage, ['cacheBytes'], { option: 'cacheBytes' }),
  row(E.ReleaseNotFoundError, 'RDW_RELEASE_NOT_FOUND', notFound),
  row(E.ReleaseValueError, 'RDW_RELEASE_VALUE', integrity),
  row(E.ReleaseRegenerationError, 'RDW_RELEASE_REGENERATION', integrity),
  row(E.ResearchOptionError, 'RDW_RESEARCH_OPTION', usage, ['at'], { option: 'at' }),
  // The team store.
  row(E.StoreUrlError, 'RDW_STORE_URL', usage, [{ option: 'RDW_STORE_URL' }], { option: 'RDW_STORE_URL' }),
  row(E.StoreError, 'RDW_STORE', failure, [{ storeUrl: 's3://desk/rdw' }], { storeUrl: 's3://desk/rdw' }),
  row(E.StoreUnavailableError, 'RDW_STORE_UNAVAILABLE', failure, [{ storeUrl: 's3://desk/rdw' }], { storeUrl: 's3://desk/rdw' }),
  row(E.StoreRefusedError, 'RDW_STORE_REFUSED', failure, [{ storeUrl: 's3://desk/rdw' }], { storeUrl: 's3://desk/rdw' }),
  row(E.StoreSdkMissingError, 'RDW_STORE_SDK_MISSING', failure),
  // The CLI's own (not part of the library: the package root does not export them).
  row(CliUsageError, 'RDW_CLI_USAGE', usage, [{ option: 'limit' }], { option: 'limit' }),
  row(SqlNotReadOnlyError, 'RDW_SQL_NOT_READ_ONLY', usage),
  row(KernelInstallError, 'RDW_KERNEL_INSTALL', failure),
  row(NoCatalogError, 'RDW_NO_CATALOG', failure),
];

/** Classes the table leaves out on purpose, and why. */
const INTERNAL: Record<string, string> = {
  LockedReleaseNotFoundError: 'the unexported base of NotInCatalogError and UnknownLockedReleaseError (their releaseId); never thrown itself',
  PaceBlockedError: "RateLimiter.acquire's word to the transport that a 429's hold outlasts the call's wait budget; the transport turns it into RateLimitedError, so it never leaves the client",
};

/** The one code two classes share: the integrity family's own code is the checksum failure's (docs/client.md). */
const SHARED_CODES: Record<string, string[]> = { RDW_INTEGRITY_MISMATCH: ['ChecksumMismatchError', 'IntegrityError'] };

/** The CLI's classes: in the table, not in the library's `errors` namespace. */
const CLI_ONLY = ['CliUsageError', 'KernelInstallError', 'NoCatalogError', 'SqlNotReadOnlyError'];

/** Names of the classes declared in src that are errors: `class X extends <an error class or withCode(…)>`. */
function declaredErrorClasses(): string[] {
  const root = path.resolve(import.meta.dirname, '../src');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const names: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/^(?:export )?(?:abstract )?class (\w+) extends (?:\w*Error\b|withCode\()/gm)) names.push(name!);
  }
  return names.sort();
}

describe('every error class, from one table', () => {
  it.each(TABLE.map((row) => [row.type.name, row] as const))('%s: code, exit code, name, message, details', (name, row) => {
    const error = new row.type(SAMPLE, ...row.details);
    expect(error).toBeInstanceOf(RdwError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(row.type);
    expect(error.code).toBe(row.code);
    expect(error.exitCode).toBe(row.exitCode);
    expect(error.name).toBe(name);
    expect(error.message).toBe(SAMPLE);
    expect(String(error)).toBe(`${name}: ${SAMPLE}`);
    expect(error.stack).toContain(SAMPLE);
    expect(error).toMatchObject(row.fields);
    // A class in a family has the family's exit code.
    const family = [E.UsageError, E.IntegrityError, E.AuthError, E.LimitError, E.NotFoundError].find((type) => error instanceof type);
    if (family) expect(new family('x').exitCode).toBe(row.exitCode);
  });

  it('keeps a cause it is given', () => {
    const cause = new Error('socket hang up');
    expect(new E.NetworkError(SAMPLE, { cause }).cause).toBe(cause);
    expect(new E.CatalogBusyError(SAMPLE, { cause }).cause).toBe(cause);
  });

  it('gives each class its own code (one documented exception)', () => {
    const byCode = new Map<string, string[]>();
    for (const row of TABLE) byCode.set(row.code, [...(byCode.get(row.code) ?? []), row.type.name].sort());
    const shared = Object.fromEntries([...byCode].filter(([, names]) => names.length > 1));
    expect(shared).toEqual(SHARED_CODES);
  });

  it('holds every error class declared in src, or names it as internal', () => {
    const tabled = new Set(TABLE.map((row) => row.type.name));
    expect(TABLE.length).toBe(tabled.size);
    const missing = declaredErrorClasses().filter((name) => !tabled.has(name) && !(name in INTERNAL));
    expect(missing).toEqual([]);
    for (const name of Object.keys(INTERNAL)) expect(declaredErrorClasses()).toContain(name);
  });

  it('matches docs/errors.md: one row per class, with its code and exit code', () => {
    const documented = [...readFileSync(path.resolve(import.meta.dirname, '../docs/errors.md'), 'utf8').matchAll(/^\| `(\w+)` \| `(\w+)` \| (\d) \|/gm)];
    expect(documented.map(([, name, code, exitCode]) => [name, code, Number(exitCode)]).sort()).toEqual(
      TABLE.map((row) => [row.type.name, row.code, row.exitCode]).sort(),
    );
  });

  it('matches the package root: `errors` holds exactly the library classes of the table', () => {
    const exported = Object.entries(errors).filter(([, value]) => typeof value === 'function');
    for (const [name, value] of exported) expect((value as { name: string }).name, name).toBe(name);
    const library = TABLE.map((row) => row.type.name).filter((name) => !CLI_ONLY.includes(name));
    expect(exported.map(([name]) => name).sort()).toEqual(library.sort());
  });
});
