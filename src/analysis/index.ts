// src/analysis: predictor/label split, the leakage guard and trailing features, point-in-time rules, outcomes as
// missing values, and the event-vs-control study with its intervals. Computes only (presenting is src/report).
// Imports catalog, contract, base; never src/modelling (modelling imports analysis through this index).

export { LeakageError } from './leakage-error.js';
export { CrossRowFeatureError } from './cross-row-feature-error.js';
export { AnalysisOptionError, UnknownColumnError, ReleaseNotInCatalogError, EmptyStudyError, MixedCalculationVersionsError, OptionalPackageMissingError } from './analysis-errors.js';
export { analysisMessages } from './messages.js';
export { toAnalysisSource, resolveReleaseIds, rowsFromSql } from './analysis-source.js';
export type { AnalysisSource, AnalysisSourceLike } from './analysis-source.js';
export { PREDICTORS_VIEW, LABELS_VIEW, JOIN_COLUMNS, predictorsViewSql, labelsViewSql, createAnalysisViews } from './analysis-views.js';
export type { AnalysisViewsOptions } from './analysis-views.js';
export { splitPredictorsAndLabels } from './split-predictors-and-labels.js';
export { derivedFeature } from './derived-feature.js';
export type { DerivedFeature, FeatureInput } from './derived-feature.js';
export {
  labelBehind,
  assertPredictors,
  defineFeatureSet,
  defineModelSpec,
  predictorSelectSql,
  labelOfTarget,
} from './leakage-guard.js';
export type { FeatureSet, ModelSpec } from './leakage-guard.js';
export { checkFeatureSet, checkModelSpec } from './check-feature-set.js';
export { trailingMean, trailingChange, trailingRank, trailingFeaturesSql } from './trailing-features.js';
export type { TrailingFeatureOptions } from './trailing-features.js';
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
export { addIntervals, blockDaysFor, dayNumber, leaveOneBlockOutDifferences } from './event-study-intervals.js';
export { percentileBootstrapPValue } from './bootstrap-p-value.js';
export {
  BLOCK_WINDOW_MULTIPLE,
  MIN_INTERVAL_BLOCKS,
  assignDayBlocks,
  blockJackknifeInterval,
  daysForInterval,
  intervalBlockDays,
  moreDaysForInterval,
  studentTQuantile,
} from './block-jackknife.js';
export type { BlockInterval, BlockJackknifeOptions } from './block-jackknife.js';
export { spreadOf, studentTInterval } from './student-t.js';
export type { StudentTResult } from './student-t.js';
export { assertReleasesFound, studyVersionMix } from './study-provenance.js';
export { benjaminiHochberg } from './benjamini-hochberg.js';
export { ADJUSTMENT_DESCRIPTION, addAdjustedSignificance } from './adjusted-significance.js';
export type { IntervalSummary } from './event-study-intervals.js';
export { STUDY_GROUP_KEYS, INTERVAL_METHODS, BOOTSTRAP_METHODS, resolveEventStudyOptions } from './event-study-options.js';
export type {
  IntervalMethod,
  IntervalOptions,
  ResolvedIntervalOptions,
  BootstrapMethod,
  ResolvedBootstrapOptions,
  BootstrapOptions,
  EventStudyOptions,
  ResolvedEventStudyOptions,
  StudyGroupKey,
} from './event-study-options.js';
export { CONTROL_COMPARISON, eventStudy, eventStudyColumns, eventStudyTable } from './event-study.js';
export type { EventStudyColumn } from './event-study.js';
export type { EventStudyRow, EventStudyResult, EventStudyMetadata, CoverageCell, CalculationVersionShare, IntervalGap, MultipleComparisons } from './event-study-result.js';
export { toDataFrame } from './to-data-frame.js';
export { GROUP_STATS, groupStats } from './group-stats.js';
export type { GroupStat, GroupStatsOptions, GroupStatsRow } from './group-stats.js';
export type { DataFrameLike, DataFrameSource } from './to-data-frame.js';
export { studyCatalog } from './study-catalog.js';
export { INTERVAL_CALIBRATION } from './interval-calibration.js';
export { intervalCalibrationNote, calibratedCoverage } from './interval-calibration-note.js';
