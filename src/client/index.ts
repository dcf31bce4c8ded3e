// src/client: the undici-based API client (auth, pacing, retries, paging, verified downloads). Imports spec only.

export { createClient } from './create-client.js';
export { manifestFromBytes } from './release-files-scope.js';
export { resolveClientOptions, validateApiKey } from './client-options.js';
export { refuseSecretsInUrls } from './refuse-secrets-in-urls.js';
export { DEFAULT_RESPONSE_LIMITS } from './response-limits.js';
export type { ResponseKind, ResponseLimits } from './response-limits.js';
export { urlSecret } from './url-secret.js';
export { probeService, PROBE_TIMEOUT_MS } from './probe-service.js';
export type { ProbeServiceOptions, ServiceProbe } from './probe-service.js';
export type { UrlSecret } from './url-secret.js';
export type { ClientOptions, KnownAccountLimits, ResolvedClientOptions, RetryOptions, TimeoutOptions } from './client-options.js';
export type {
  AccountLimits,
  BundledSchemaResult,
  ByteBudgetLeft,
  ClientNotice,
  DownloadOptions,
  ManifestResult,
  PaidCatalog,
  RdwClient,
  ReleasesOptions,
  ResearchCatalog,
  ReportedLimits,
  ResearchSnapshot,
  SnapshotOptions,
} from './client-types.js';
export type { RowFilters } from './row-pages.js';
export type { ResearchTable, ResearchValue } from './research-table.js';
export { researchTableFromCsv } from './research-table.js';
export { parseCsv } from './parse-csv.js';
export type { CsvText } from './parse-csv.js';
export { systemClock, utcDay, nextUtcDay } from './clock.js';
export type { Clock } from './clock.js';
export { RateLimiter } from './rate-limiter.js';
export type { PaceWait, PaceWaitReason, RateLimiterOptions } from './rate-limiter.js';
export { KeyState, accountStateId, keyId } from './key-state.js';
export type { KeyStateData } from './key-state.js';
export {
  UnauthorizedError,
  ForbiddenError,
  ApiNotFoundError,
  ConflictError,
  RowQueryTooLargeError,
  ValidationError,
  RateLimitedError,
  ByteBudgetError,
  ChecksumMismatchError,
  SizeMismatchError,
  ManifestMismatchError,
  ImpossibleSizeError,
  ServiceUnavailableError,
  UnexpectedResponseError,
  ResponseTooLargeError,
  RedirectError,
  CredentialsInUrlError,
  NetworkError,
  TimeoutError,
  AbortedError,
} from './client-errors.js';
export type { ClientErrorOptions } from './client-errors.js';
export { messages as clientMessages } from './messages.js';
