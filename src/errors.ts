// Every error class a library call can throw, in one place: the package root exports them as `errors`.
// Each is an RdwError with a literal `code` and the exit code of its family; test/errors.test.ts walks them all.

// The base and its families: one per exit code (DESIGN.md 2.3); the machine failures (exit 1, with the path).
export { RdwError, UsageError, IntegrityError, AuthError, LimitError, NotFoundError } from './contract/index.js';
export { EnvironmentError, DiskFullError, FileTooLargeError, PermissionDeniedError } from './contract/index.js';
export { ReadOnlyFileSystemError, NotAFolderError, IsAFolderError, NotARegularFileError, BadPathError } from './contract/index.js';
// A recursive delete refused (base's removeTree: the content store, a catalog's temporary files).
export { UnsafeDeleteError } from './base/index.js';

// The API client, by what failed: the key or plan, the request, a limit, the bytes, the service or connection.
export { UnauthorizedError, ForbiddenError, CredentialsInUrlError } from './client/index.js';
export { ApiNotFoundError, ConflictError, ValidationError, RedirectError, UnexpectedResponseError } from './client/index.js';
export { RateLimitedError, ByteBudgetError, RowQueryTooLargeError, ResponseTooLargeError } from './client/index.js';
export { ChecksumMismatchError, SizeMismatchError, ImpossibleSizeError, ManifestMismatchError } from './client/index.js';
export { ServiceUnavailableError, NetworkError, TimeoutError, AbortedError } from './client/index.js';

// The catalog: its file and lock, its options, a release that contradicts its manifest, the store.
export { CatalogBusyError, CatalogCorruptError, CatalogVersionError, CatalogOptionError } from './catalog/index.js';
export { SchemaMismatchError, ManifestInvalidError, ManifestContradictionError, RowCountMismatchError } from './catalog/index.js';
export { StoreMismatchError, RowsMismatchError, CatalogRecordError, CatalogReadOnlyError, ShadowedNameError, ConnectionSettingError } from './catalog/index.js';

// The team store (RDW_STORE_URL): a malformed store URL, a store that cannot be reached or refuses, no S3 SDK.
export { StoreUrlError, StoreError, StoreUnavailableError, StoreRefusedError, StoreSdkMissingError } from './store/index.js';

// Analysis: its options and columns, a label used as a predictor, a feature that reads other rows, the releases and rows a study needs.
export { AnalysisOptionError, UnknownColumnError, LeakageError, CrossRowFeatureError } from './analysis/index.js';
export { ReleaseNotInCatalogError, MixedCalculationVersionsError, EmptyStudyError, OptionalPackageMissingError } from './analysis/index.js';

// Study locks: a bad argument or lock file, a locked release that cannot be had, bytes that differ from the lock.
export { StudyOptionError, LockFormatError, LockVersionError } from './locks/index.js';
export { NotInCatalogError, UnknownLockedReleaseError, LockMismatchError } from './locks/index.js';

// Notebook display helpers and the workbench.
export { NotInKernelError, NotebookOptionError } from './notebook/index.js';
export { ApiKeyMissingError, WorkbenchOptionError, SyncBusyError, SyncLockUnusableError } from './workbench/index.js';

// The embedded mock (tests and fixtures): the server's options and refused admin operations, the simulator,
// the release archive, the research snapshots.
export { MockServerOptionError, MockError, KeySlotsFullError, UnknownAccountError } from './mock/index.js';
export { SimulatorOptionError, SimulatorArgumentError } from './mock/index.js';
export { ReleaseArchiveOptionError, ReleaseNotFoundError, ReleaseValueError, ReleaseRegenerationError } from './mock/index.js';
export { ResearchOptionError } from './mock/index.js';
