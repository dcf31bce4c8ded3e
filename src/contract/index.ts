// src/contract: the Research Data API contract as data. Imports nothing of ours.

export { WINDOWS, DEFAULT_WINDOW, WINDOW_SECONDS, CANDLE_SECONDS, expectedCandles, isWindow } from './windows.js';
export type { Window } from './windows.js';
export { SYMBOLS, BASE_ASSET, QUOTE_ASSET, SPOT_VENUE, DERIVATIVE_VENUE, isMarketSymbol } from './symbols.js';
export type { MarketSymbol } from './symbols.js';
export {
  SAMPLE_TYPES,
  DIRECTIONS,
  OUTCOME_STATUSES,
  FEATURE_STATUSES,
  TAKER_STATUSES,
  RELEASE_STATUSES,
  CONTROL_STATUSES,
  DERIVATIVE_STATUSES,
  EXCURSION_REFERENCES,
  EVENT_KINDS,
  EVENT_TIMEFRAMES,
} from './value-sets.js';
export { CLOSED_VALUE_SETS } from './closed-value-sets.js';
export type {
  SampleType,
  Direction,
  OutcomeStatus,
  FeatureStatus,
  TakerStatus,
  ReleaseStatus,
  ControlStatus,
  DerivativeStatus,
  ExcursionReference,
  EventKind,
  EventTimeframe,
} from './value-sets.js';
export {
  MARKET_EVENTS_DATASET,
  PRODUCT_VERSION,
  RECHECKED_DAYS,
  RECHECK_INTERVAL_SECONDS,
  CONTROL_GRID_SECONDS,
  CONTROL_LOOKBACK_SECONDS,
  PRICE_MAX_AGE_SECONDS,
  DERIVATIVE_MAX_AGE_SECONDS,
  VOLUME_RATIO_BARS,
  MARKET_EVENTS_LIMITATIONS,
} from './dataset.js';
export {
  FIELD_ROLES,
  OUTCOME_MEASURES,
  COMPLETE_OUTCOME_MEASURES,
  SAMPLE_FIELDS,
  MARKET_EVENT_FIELDS,
  MARKET_EVENT_FIELD_NAMES,
  LABEL_FIELD_NAMES,
  PREDICTOR_FIELD_NAMES,
  IDENTITY_FIELD_NAMES,
  outcomeFields,
  fieldSpec,
  fieldsWithRole,
  outcomeFieldName,
} from './fields.js';
export type { FieldType, FieldRole, FieldSpec, OutcomeMeasure } from './fields.js';
export { FIELD_TYPE_WORDS, fieldTypeOfWord, fieldTypeFits } from './field-type-words.js';
export { RELEASE_FILE_FORMATS, DOWNLOAD_FORMATS, RELEASE_ID_PATTERN, isReleaseId, isReleaseDay } from './market-event-row.js';
export { withoutNullMembers, releaseWithoutNulls } from './null-or-absent.js';
export { withLowerCaseDigests } from './lower-case-digests.js';
export type {
  MarketEventRow,
  SampleColumns,
  OutcomeColumns,
  FileDigest,
  ReleaseFileFormat,
  DownloadFormat,
  ReleaseFiles,
  ReleaseCoverage,
  Release,
  ListedRelease,
  SchemaField,
  ReleaseDocument,
  PagedRows,
} from './market-event-row.js';
export { schemaFields, schemaDocument } from './schema-document.js';
export type { SchemaDocument } from './schema-document.js';
export { PLAN_IDS, PLANS, PUBLIC_LIVE_RPM_PER_IP, RATE_WINDOW_SECONDS, API_KEY_PREFIX, DISPLAY_KEY_PATTERN, isPlanId } from './plans.js';
export type { PlanId, PlanLimits } from './plans.js';
export { ENDPOINTS, ROW_QUERY, RELEASES_QUERY, DOWNLOAD_FORMAT_VALUES, API_VERSION_SEGMENT } from './endpoints.js';
export type { EndpointScope, EndpointSpec, IntegerParameter } from './endpoints.js';
export { openApiDocument, openApiJson, OPENAPI_VERSION, OPENAPI_DOCUMENT_PATH } from './openapi-document.js';
export type { OpenApiDocument, OpenApiDocumentOptions } from './openapi-document.js';
export { openApiSchemas, rowFieldSchema } from './openapi-schemas.js';
export type { JsonSchema } from './openapi-schemas.js';
export { API_ERROR_CODES, isApiErrorBody } from './api-errors.js';
export type { ApiErrorCode, ApiErrorBody } from './api-errors.js';
export { RESEARCH_DATASETS, RESEARCH_SCOPE, RESEARCH_LIMITATIONS, researchDataset, liveDataset } from './research-datasets.js';
export type { ResearchColumn, ResearchDatasetSpec } from './research-datasets.js';
export { EXIT_CODES, RdwError, UsageError, IntegrityError, AuthError, LimitError, NotFoundError, isRdwError, withCode } from '../base/index.js';
export type { ExitCode, RdwErrorOptions } from '../base/index.js';
export {
  EnvironmentError,
  DiskFullError,
  FileTooLargeError,
  PermissionDeniedError,
  ReadOnlyFileSystemError,
  NotAFolderError,
  IsAFolderError,
  NotARegularFileError,
  BadPathError,
  environmentErrorOf,
} from './environment-errors.js';
export type { EnvironmentErrorOptions } from './environment-errors.js';
export { environmentMessages } from './environment-messages.js';
export { failureOf, UNEXPECTED_CODE } from './failure-of.js';
export { checkReleaseId } from './check-release-id.js';
export { releaseIdMessages } from './release-id-messages.js';
export { MIN_RELEASE_ID_PREFIX, isReleaseIdPrefix } from './release-id-prefix.js';
export type { ReportedFailure } from './failure-of.js';
export { writeFailureOf } from './write-failure.js';
export {
  INTERVAL_METHODS,
  BOOTSTRAP_METHODS,
  SPLIT_METHODS,
  MODEL_SPLIT_METHODS,
  DEFAULT_SPLIT_METHOD,
  POOLED_INTERVAL_METHODS,
  POOLED_DIFFERENCE_METHODS,
  CALIBRATED_SPLIT_METHODS,
  isSplitMethod,
} from './study-methods.js';
export type { IntervalMethod, BootstrapMethod, ModelSplitMethod, PooledIntervalMethod, PooledDifferenceMethod, CalibratedSplitMethod } from './study-methods.js';
