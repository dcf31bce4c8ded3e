// rdw: the library's public surface — what a notebook or a study script uses, grouped by task. Everything
// else (migrations, SQL builders, file checks, option resolvers) stays behind its layer's index, the door the
// layers use between themselves. A layer is a namespace here only where a user needs most of it (said per
// namespace below); test/public-api.test.ts pins this list, so a change to it is deliberate.

// 1. Open a workbench (API + catalog from an env object, the embedded mock when none is set) or a locked study.
export { openWorkbench, connectApi, Study } from './workbench/index.js';
export type { Workbench, WorkbenchOptions, StudyOpenOptions, ApiConnection, ConnectApiOptions } from './workbench/index.js';

// 2. Pull and verify: the API client, the local catalog, study locks (pin, write, read, reproduce, verify).
export { createClient } from './client/index.js';
export type { ClientOptions, RdwClient } from './client/index.js';
export { openCatalog, pullRelease, pullReleases, verifyStore, repairStore, exportParquet, listImportedReleases, readMarketEventRows } from './catalog/index.js';
export type { Catalog, CatalogOptions, CatalogRow, CatalogMarketEventRow, MarketEventRowsOptions, PullResult, PullReleasesResult, ImportedRelease, StoreVerification, StoreRepair, StoreFileRepair } from './catalog/index.js';
export {
  LOCK_VERSION,
  recordStudyLock,
  writeLock,
  readLock,
  reproduceStudy,
  verifyStudyLock,
  studyLockFromJson,
  studyLockToJson,
} from './locks/index.js';
export type { StudyLock, LockedRelease, LockedFile, ReproduceReport, LockVerification } from './locks/index.js';

// 3. Analysis: the event study (over a catalog: `studyCatalog`, queued and read-only), predictors vs labels
// (the leakage guard), point-in-time, missing outcomes.
export {
  studyCatalog,
  eventStudy,
  toDataFrame,
  groupStats,
  splitPredictorsAndLabels,
  createAnalysisViews,
  defineFeatureSet,
  defineModelSpec,
  outcome,
  missingnessSummary,
  pointInTimeCounts,
} from './analysis/index.js';
export type {
  EventStudyOptions,
  EventStudyResult,
  EventStudyRow,
  MissingnessCell,
  FeatureSet,
  ModelSpec,
  DataFrameLike,
  GroupStat,
  GroupStatsOptions,
  GroupStatsRow,
} from './analysis/index.js';

// 3b. Modelling without look-ahead: time-aware splits that know each label's window (purged k-fold, walk-forward;
// row k-fold only as the naive comparison), a model interface with a logistic baseline, and one call from a
// catalog to scores by fold (`modelCatalog`). Derived features are read by DuckDB (checkFeatureSet); history of a
// predictor comes from the point-in-time trailing helpers.
export { derivedFeature, checkFeatureSet, trailingMean, trailingChange, trailingRank } from './analysis/index.js';
export {
  modelCatalog,
  modelStudy,
  modelEvaluationTable,
  modelEvaluationColumns,
  defaultModelSpec,
  evaluateModel,
  purgedKFoldSplits,
  walkForwardSplits,
  rowKFoldSplits,
  splitRowIdentities,
  LogisticRegression,
  BaseRateModel,
} from './modelling/index.js';
export type {
  ModelStudyOptions,
  ModelStudyResult,
  ModelSplitOptions,
  ModelEvaluationRow,
  ModelEvaluation,
  FoldEvaluation,
  ModelData,
  ModelFold,
  Model,
  FeatureMatrix,
  TimeSplits,
  TimeSplit,
} from './modelling/index.js';

// 4. Charts and display. `charts` is a namespace because every one of its exports is a chart a user draws
// (Vega-Lite specs, headless SVG); `notebook` because all of it is display helpers for a notebook (tables,
// charts in a kernel, the study header and table). Of src/report a user needs the report folder and the chart
// data of study rows; not a namespace (`report` is what a Study calls its reproduce report).
export * as charts from './charts/index.js';
export * as notebook from './notebook/index.js';
export { writeStudyReport, effectInterval, effectPoints, missingnessBars, modelScoreChartOptions } from './report/index.js';

// 5. The contract: Market Events fields and their roles, windows, pairs; the row and release types.
export {
  MARKET_EVENT_FIELDS,
  LABEL_FIELD_NAMES,
  PREDICTOR_FIELD_NAMES,
  WINDOWS,
  SYMBOLS,
  fieldsWithRole,
} from './contract/index.js';
export type { MarketEventRow, Release, ListedRelease, Window, MarketSymbol, FieldSpec, FieldRole } from './contract/index.js';

// 6. Errors: catch `RdwError` (its `code` names the failure, `exitCode` the family); `errors` holds every
// error class a library call can throw, for `instanceof` (src/errors.ts).
export { RdwError, EXIT_CODES, isRdwError } from './contract/index.js';
export type { ExitCode } from './contract/index.js';
export * as errors from './errors.js';

// 7. The embedded mock, a namespace because tests and fixtures of a user's own code drive all of it: the
// server (`mock.startMockServer`), the simulator and its planted effects, the release archive.
export * as mock from './mock/index.js';
