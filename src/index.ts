// rdw: the public library surface. Each layer is available as a namespace (its index is its only door),
// and the names a notebook or study script uses most are exported directly.

export * as contract from './contract/index.js';
export * as mock from './mock/index.js';
export * as client from './client/index.js';
export * as catalog from './catalog/index.js';
export * as analysis from './analysis/index.js';
export * as charts from './charts/index.js';
export * as notebook from './notebook/index.js';

export {
  RdwError,
  UsageError,
  IntegrityError,
  AuthError,
  LimitError,
  NotFoundError,
  EXIT_CODES,
  MARKET_EVENT_FIELDS,
  LABEL_FIELD_NAMES,
  PREDICTOR_FIELD_NAMES,
  WINDOWS,
  SYMBOLS,
  fieldsWithRole,
} from './contract/index.js';
export type { MarketEventRow, Release, ListedRelease, Window, MarketSymbol, FieldSpec, FieldRole } from './contract/index.js';
export { startMockServer, MarketSimulator, PLANTED_EFFECTS } from './mock/index.js';
export { createClient } from './client/index.js';
export type { ClientOptions } from './client/index.js';
export { openCatalog, pullRelease, pullReleases, verifyStore, exportParquet, listImportedReleases } from './catalog/index.js';
export {
  eventStudy,
  toDataFrame,
  writeStudyReport,
  splitPredictorsAndLabels,
  createAnalysisViews,
  defineFeatureSet,
  defineModelSpec,
  LeakageError,
  outcome,
  missingnessSummary,
  pointInTimeCounts,
} from './analysis/index.js';
export { renderSvg, effectChartSpec, missingnessChartSpec, coverageHeatmapSpec } from './charts/index.js';
export { htmlTable, textTable, chartBundle } from './notebook/index.js';
export * as study from './study/index.js';
export * as workbench from './workbench/index.js';
export {
  LOCK_VERSION,
  recordStudyLock,
  writeLock,
  readLock,
  reproduceStudy,
  verifyStudyLock,
  studyLockFromJson,
  studyLockToJson,
  LockFormatError,
  LockVersionError,
  LockMismatchError,
  NotInCatalogError,
} from './study/index.js';
export type { StudyLock, LockedRelease, LockedFile, ReproduceReport, LockVerification } from './study/index.js';
export { openWorkbench, connectApi, Study } from './workbench/index.js';
export type { Workbench, WorkbenchOptions, StudyOpenOptions } from './workbench/index.js';
