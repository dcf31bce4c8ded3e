// src/analysis: predictor/label split, leakage guard, point-in-time rules, outcomes as missing values,
// and the event-vs-control study. Computes only (presenting is src/report). Imports catalog, contract, base.

export { LeakageError } from './leakage-error.js';
export { AnalysisOptionError, UnknownColumnError, ReleaseNotInCatalogError, EmptyStudyError, MixedCalculationVersionsError, OptionalPackageMissingError } from './analysis-errors.js';
export { analysisMessages } from './messages.js';
export { toAnalysisSource, resolveReleaseIds, rowsFromSql } from './analysis-source.js';
export type { AnalysisSource, AnalysisSourceLike } from './analysis-source.js';
export { PREDICTORS_VIEW, LABELS_VIEW, JOIN_COLUMNS, predictorsViewSql, labelsViewSql, createAnalysisViews } from './analysis-views.js';
export type { AnalysisViewsOptions } from './analysis-views.js';
export { splitPredictorsAndLabels } from './split-predictors-and-labels.js';
export {
  derivedFeature,
  labelBehind,
  assertPredictors,
  defineFeatureSet,
  defineModelSpec,
  predictorSelectSql,
} from './leakage-guard.js';
export type { DerivedFeature, FeatureInput, FeatureSet, ModelSpec } from './leakage-guard.js';
export {
  PIT_DROP_REASONS,
  pointInTimeReasonSql,
  pointInTimeConditionSql,
  pointInTimeReason,
  filterPointInTime,
  pointInTimeCounts,
} from './point-in-time.js';
export type { PitDropReason, PointInTimeCounts } from './point-in-time.js';
export { MISSING_STATUSES, outcome, resolveWindow, missingColumnName, missingnessAggregatesSql } from './outcome.js';
export type { Outcome, OutcomeValueMeasure } from './outcome.js';
export { missingnessSummary } from './missingness-summary.js';
export type { MissingnessCell } from './missingness-summary.js';
export { deriveSeed, bootstrapMeans, quantileSorted, percentileInterval } from './bootstrap.js';
export { clusterBootstrapDifferences, defaultBlockDays } from './cluster-bootstrap.js';
export type { ClusterTotals, EventClusterTotals } from './cluster-bootstrap.js';
export { addIntervals, blockDaysFor } from './event-study-intervals.js';
export { bootstrapPValue, normalTwoSidedPValue } from './bootstrap-p-value.js';
export { benjaminiHochberg } from './benjamini-hochberg.js';
export { ADJUSTMENT_DESCRIPTION, addAdjustedSignificance } from './adjusted-significance.js';
export type { IntervalSummary } from './event-study-intervals.js';
export { STUDY_GROUP_KEYS, BOOTSTRAP_METHODS, resolveEventStudyOptions } from './event-study-options.js';
export type { BootstrapMethod, ResolvedBootstrapOptions, BootstrapOptions, EventStudyOptions, ResolvedEventStudyOptions, StudyGroupKey } from './event-study-options.js';
export { CONTROL_COMPARISON, DAY_BOOTSTRAP, ROW_BOOTSTRAP, eventStudy, eventStudyColumns, eventStudyTable } from './event-study.js';
export type { EventStudyColumn } from './event-study.js';
export type { EventStudyRow, EventStudyResult, EventStudyMetadata, CoverageCell, CalculationVersionShare, MultipleComparisons } from './event-study-result.js';
export { toDataFrame } from './to-data-frame.js';
export type { DataFrameLike, DataFrameSource } from './to-data-frame.js';
export { studyCatalog } from './study-catalog.js';
