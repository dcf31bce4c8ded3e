// src/analysis: predictor/label split, leakage guard, point-in-time rules, outcomes as missing values,
// and the event-vs-control study. Computes only (presenting is src/report). Imports catalog, contract, base.

export { LeakageError } from './leakage-error.js';
export { CrossRowFeatureError } from './cross-row-feature-error.js';
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
export { SPLIT_EXCLUSION_REASONS, SPLIT_ROW_ORDER_SQL, classifiedSplitRowsSql, readSplitRows, splitRowIdentities, splitReleaseIds } from './split-rows.js';
export type { SplitExclusionReason, SplitRowOptions, SplitRowIdentity, SplitRowSelection, SplitRowTable } from './split-rows.js';
export type { TimeSplit, TimeSplits, TimeSplitOptions } from './time-splits.js';
export { DEFAULT_EMBARGO_SHARE, defaultEmbargoSeconds, purgedKFoldSplits } from './purged-k-fold-splits.js';
export type { PurgedKFoldOptions } from './purged-k-fold-splits.js';
export { walkForwardSplits } from './walk-forward-splits.js';
export type { WalkForwardOptions } from './walk-forward-splits.js';
export { splitCatalog } from './split-catalog.js';
export type { SplitCatalogOptions } from './split-catalog.js';
export { featureMatrix, featureMatrixFromColumns } from './model.js';
export type { FeatureMatrix, Model, SelectedFeatureMatrix } from './model.js';
export { LogisticRegression } from './logistic-regression.js';
export type { LogisticCoefficients, LogisticRegressionOptions } from './logistic-regression.js';
export { BaseRateModel } from './base-rate-model.js';
export { LOG_LOSS_EPSILON, logLoss, rowLogLoss, accuracy, rocAuc, scoreOrder } from './classification-metrics.js';
export { evaluateModel } from './evaluate-model.js';
export type { EvaluateModelOptions, FoldEvaluation, LeftOutRows, ModelData, ModelEvaluation, ModelFold, PooledEvaluation } from './evaluate-model.js';
export { modelScores, pooledOverFolds, scoreWithIntervals } from './model-score-intervals.js';
export { correctedResampledInterval, testToTrainRatio } from './corrected-resampled-t.js';
export type { FoldScores, Interval, ModelScores, NoIntervalReason, ResolvedModelInterval, ScoredPredictions } from './model-score-intervals.js';
export type { CorrectedResampledOptions, FoldInterval } from './corrected-resampled-t.js';
export { leaveOneBlockOutAuc } from './leave-one-block-out-auc.js';
export { resolveModelInterval } from './model-interval-options.js';
export type { ModelIntervalOptions } from './model-interval-options.js';
export { modelIntervalNote } from './model-interval-note.js';
export { rowKFoldSplits } from './row-k-fold-splits.js';
export type { RowKFoldOptions } from './row-k-fold-splits.js';
export { defaultModelSpec } from './default-model-spec.js';
export { MODEL_SPLIT_METHODS, SPLIT_METHODS, modelStudy } from './model-study.js';
export { SPLIT_FUNCTIONS, runSplitMethod } from './split-methods.js';
export type { SplitMethodOptions } from './split-methods.js';
export type { ModelSplitOptions, ModelStudyOptions, ModelStudyResult, ResolvedModelSplit } from './model-study.js';
export { modelCatalog } from './model-catalog.js';
export { modelEvaluationColumns, modelEvaluationTable } from './model-evaluation-table.js';
export type { ModelEvaluationColumn, ModelEvaluationRow } from './model-evaluation-table.js';
export { INTERVAL_CALIBRATION } from './interval-calibration.js';
export { intervalCalibrationNote, calibratedCoverage } from './interval-calibration-note.js';
