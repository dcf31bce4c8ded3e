// src/modelling: models without look-ahead (DESIGN.md 1). Time-aware splits that know each label's window (purged
// k-fold, walk-forward; row k-fold only as the naive comparison), the model interface with a logistic baseline and
// a base rate, evaluation by fold with score intervals, and modelStudy/modelCatalog from a catalog to scores.
// Computes only (presenting is src/report). Imports analysis through its index (row sources, outcomes, point-in-time
// rules, the leakage guard, the block jackknife, errors), catalog, contract, base. Sentences: messages.ts.

export {
  SPLIT_EXCLUSION_REASONS,
  SPLIT_ROW_ORDER_SQL,
  classifiedSplitRowsSql,
  readSplitRows,
  splitRowIdentities,
  splitReleaseIds,
} from './split-rows.js';
export type {
  SplitExclusionReason,
  SplitRowOptions,
  SplitRowIdentity,
  SplitRowSelection,
  SplitRowTable,
} from './split-rows.js';
export type { TimeSplit, TimeSplits, TimeSplitOptions } from './time-splits.js';
export { DEFAULT_EMBARGO_SHARE, defaultEmbargoSeconds, purgedKFoldSplits } from './purged-k-fold-splits.js';
export type { PurgedKFoldOptions } from './purged-k-fold-splits.js';
export { walkForwardSplits } from './walk-forward-splits.js';
export type { WalkForwardOptions } from './walk-forward-splits.js';
export { splitCatalog } from './split-catalog.js';
export type { SplitCatalogOptions } from './split-catalog.js';
export { featureMatrix, featureMatrixFromColumns } from './model.js';
export type { FeatureMatrix, Model, ScoreGeometry, SelectedFeatureMatrix } from './model.js';
export { crossFoldInterval, type CrossFoldInterval, type CrossFoldOptions, type CrossFoldTestRows } from './cross-fold-interval.js';
export { nestedCvInterval, type NestedCvFold, type NestedCvInterval, type NestedCvOptions } from './nested-cv-interval.js';
export { LogisticRegression } from './logistic-regression.js';
export type { LogisticCoefficients, LogisticRegressionOptions } from './logistic-regression.js';
export { BaseRateModel } from './base-rate-model.js';
export { LOG_LOSS_EPSILON, logLoss, rowLogLoss, accuracy, rocAuc, scoreOrder } from './classification-metrics.js';
export { evaluateModel } from './evaluate-model.js';
export type {
  EvaluateModelOptions,
  FoldEvaluation,
  LeftOutRows,
  ModelData,
  ModelEvaluation,
  ModelFold,
  PooledEvaluation,
} from './evaluate-model.js';
export { modelScores, pooledOverFolds, scoreWithIntervals } from './model-score-intervals.js';
export { correctedResampledInterval, testToTrainRatio } from './corrected-resampled-t.js';
export type {
  FoldScores,
  Interval,
  ModelScores,
  NoIntervalReason,
  ResolvedModelInterval,
  ScoredPredictions,
} from './model-score-intervals.js';
export type { CorrectedResampledOptions, FoldInterval } from './corrected-resampled-t.js';
export { leaveOneBlockOutAuc } from './leave-one-block-out-auc.js';
export { resolveModelInterval } from './model-interval-options.js';
export type { ModelIntervalOptions } from './model-interval-options.js';
export { modelIntervalNote } from './model-interval-note.js';
export { sharedDaysAdvisor, walkForwardAdvisor } from './fold-advice.js';
export type { FoldAdvice, FoldAdvisor } from './fold-advice.js';
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
