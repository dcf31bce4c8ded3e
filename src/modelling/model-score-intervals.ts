// Scores of one set of test predictions (a fold's, or every fold's pooled) with block-jackknife t intervals over
// blocks of UTC test days: the fitted models stay fixed, so the intervals describe the test rows' sampling error.
// Log loss and accuracy add up per block (O(blocks) to leave one out); AUC: leaveOneBlockOutAuc, exact. The
// pooled row of several folds: the corrected resampled t over the folds' scores (pooledOverFolds).

import type { PooledDifferenceMethod } from '../contract/index.js';
import { assignDayBlocks, blockJackknifeInterval, type BlockInterval } from '../analysis/index.js';
import { accuracy, logLoss, rocAuc, rowLogLoss, scoreOrder } from './classification-metrics.js';
import { correctedResampledInterval, testToTrainRatio, type FoldInterval } from './corrected-resampled-t.js';
import { crossFoldInterval, type CrossFoldInterval, type CrossFoldTestRows } from './cross-fold-interval.js';
import { leaveOneBlockOutPairs, type BlockPairs } from './leave-one-block-out-auc.js';
import { nestedCvInterval, type NestedCvFold, type NestedCvInterval } from './nested-cv-interval.js';

/** Scores of one set of predictions. log loss: natural log, lower is better; AUC and accuracy: 0..1. */
export interface ModelScores {
  readonly logLoss: number;
  readonly auc: number;
  readonly accuracy: number;
}

/** A block-jackknife t interval; [NaN, NaN] when there is none (`ScoredPredictions.noInterval` says why). */
export type Interval = readonly [low: number, high: number];

/** The interval settings evaluateModel resolved, and the sentence that says what they are. */
export interface ResolvedModelInterval {
  /** The delete-one-block jackknife over blocks of UTC test days, Student's t at blocks − 1 degrees of freedom. */
  readonly method: 'block-jackknife';
  readonly confidence: number;
  /** UTC days per block, counted by calendar from the first test day. */
  readonly blockDays: number;
  /** Fewer blocks than this give no interval (MIN_INTERVAL_BLOCKS). */
  readonly minBlocks: number;
  /** How well these intervals covered the truth on simulated markets (intervalCalibrationNote). */
  readonly calibration: string;
  /** E.g. `95% block-jackknife t intervals over 2-day blocks of test days (G−1 df)`. */
  readonly description: string;
}

/** Why a set of scores has no interval: too few blocks (or folds), a score undefined without some block (or in some fold), or no variation. */
export type NoIntervalReason = Extract<BlockInterval | FoldInterval | CrossFoldInterval | NestedCvInterval, { kind: 'none' }>['reason'];

/** A fold's scores as pooledOverFolds reads them. */
export type FoldScores = Pick<ScoredPredictions, 'rows' | 'model' | 'baseline' | 'logLossDifference'> & { readonly trainRows: number };

type AnyInterval = BlockInterval | FoldInterval | CrossFoldInterval | NestedCvInterval;

/**
 * The pooled scores of several folds: each fold model was trained on the other folds' test rows, so the folds'
 * errors are correlated and the test-rows jackknife (kept in `testRowsOnly`) is too narrow (docs/analysis.md).
 * The Δ log loss: crossFoldInterval (the jackknife plus the cross-fold term) when `crossFold` gives every fold's
 * score geometry, else like the others Nadeau & Bengio's corrected resampled t over the folds' scores
 * (correctedResampledInterval), centred on the pooled score; `nested` (experimental) gives every fold's nested
 * cross-validation terms: nestedCvInterval instead.
 */
export function pooledOverFolds(
  scored: ScoredPredictions,
  folds: readonly FoldScores[],
  confidence: number,
  crossFold?: readonly CrossFoldTestRows[],
  nested?: readonly NestedCvFold[],
): ScoredPredictions {
  const testToTrain = testToTrainRatio(folds);
  // AUC and accuracy lie in [0, 1] and a log loss is ≥ 0: with few folds that disagree the t interval can reach past.
  const share = [0, 1] as const;
  const loss = [0, Infinity] as const;
  const over = (estimate: number, pick: (fold: FoldScores) => number, bounds?: readonly [number, number], nullValue = 0) =>
    correctedResampledInterval(estimate, folds.map(pick), testToTrain, { confidence, nullValue, ...(bounds ? { bounds } : {}) });
  const auc = over(scored.model.auc, (fold) => fold.model.auc, share, 0.5);
  const differenceMethod: PooledDifferenceMethod =
    nested !== undefined && nested.length === folds.length ? 'nested' : crossFold !== undefined && crossFold.length === folds.length ? 'cross-fold' : 'corrected-resampled-t';
  const difference =
    differenceMethod === 'nested'
      ? nestedCvInterval(scored.logLossDifference, nested!, scored.standardErrors.logLossDifference, { confidence })
      : differenceMethod === 'corrected-resampled-t'
      ? over(scored.logLossDifference, (fold) => fold.logLossDifference)
      : Number.isFinite(scored.standardErrors.logLossDifference)
        ? crossFoldInterval(scored.logLossDifference, scored.standardErrors.logLossDifference, scored.blocks - 1, crossFold!, { confidence })
        : ({ kind: 'none', reason: scored.noInterval === 'too_few_blocks' ? 'too_few_blocks' : 'not_estimable', folds: folds.length } as const);
  return {
    ...scored,
    intervals: {
      model: {
        logLoss: pair(over(scored.model.logLoss, (fold) => fold.model.logLoss, loss)),
        auc: pair(auc),
        accuracy: pair(over(scored.model.accuracy, (fold) => fold.model.accuracy, share)),
      },
      baseline: {
        logLoss: pair(over(scored.baseline.logLoss, (fold) => fold.baseline.logLoss, loss)),
        accuracy: pair(over(scored.baseline.accuracy, (fold) => fold.baseline.accuracy, share)),
      },
      logLossDifference: pair(difference),
    },
    pValues: { auc: pValue(auc), logLossDifference: pValue(difference) },
    standardErrors: { auc: standardError(auc), logLossDifference: standardError(difference) },
    noInterval: noIntervalReason(auc, difference),
    overFolds: { folds: folds.length, testToTrain, differenceMethod },
    testRowsOnly: { intervals: scored.intervals, pValues: scored.pValues },
  };
}

/** Model and baseline scores of the same test rows, with intervals. */
export interface ScoredPredictions {
  /** Test rows scored (pooled: a row tested in two folds counts twice). */
  readonly rows: number;
  /** Of those, rows whose target is 1. */
  readonly positives: number;
  /** Days holding those rows. */
  readonly days: number;
  /** Calendar days from the first to the last of those days (inclusive): what the blocks divide. */
  readonly daySpan: number;
  /** Blocks of the jackknife (G): blocks of blockDays calendar days from the first test day that hold a scored row. */
  readonly blocks: number;
  readonly model: ModelScores;
  readonly baseline: ModelScores;
  /** model log loss − baseline log loss: below 0 when the model beats the baseline. */
  readonly logLossDifference: number;
  readonly intervals: {
    readonly model: { readonly logLoss: Interval; readonly auc: Interval; readonly accuracy: Interval };
    /** No AUC interval for the baseline: within a fold it scores every row alike (AUC 0.5); pooled, it only ranks folds by base rate. */
    readonly baseline: { readonly logLoss: Interval; readonly accuracy: Interval };
    readonly logLossDifference: Interval;
  };
  /** Two-sided p-values of the same t as the intervals: AUC = 0.5 and log-loss difference = 0 (NaN without an interval). */
  readonly pValues: { readonly auc: number; readonly logLossDifference: number };
  /** The standard errors behind those intervals and p-values (NaN without an interval). */
  readonly standardErrors: { readonly auc: number; readonly logLossDifference: number };
  /** Why the model AUC or the log-loss difference has no interval (`too_few_blocks` first); undefined when both have one. */
  readonly noInterval: NoIntervalReason | undefined;
  /**
   * The pooled row of several folds only: its intervals are the corrected resampled t over these folds
   * (pooledOverFolds), but the Δ log loss's when `differenceMethod` is 'cross-fold'; `testToTrain` is the
   * n_test / n_train of the correction.
   */
  readonly overFolds?: { readonly folds: number; readonly testToTrain: number; readonly differenceMethod: PooledDifferenceMethod };
  /**
   * The pooled row of several folds only: the block jackknife of the pooled test rows with the fold models held
   * fixed, which rdw does not show (too narrow: the folds' errors are correlated). For comparisons between
   * splits of the same rows (e.g. naive vs purged), never as a 95% interval.
   */
  readonly testRowsOnly?: { readonly intervals: ScoredPredictions['intervals']; readonly pValues: ScoredPredictions['pValues'] };
}

/** The three scores of predictions `p` for targets `y`. @param order scoreOrder(p), when already known */
export function modelScores(y: Float64Array, p: Float64Array, order?: Uint32Array): ModelScores {
  return { logLoss: logLoss(y, p), auc: rocAuc(y, p, undefined, order), accuracy: accuracy(y, p) };
}

/**
 * Scores of the model and baseline predictions of the same rows, with delete-one-block jackknife t intervals
 * (blockJackknifeInterval) over blocks of `settings.blockDays` calendar days from the first day: each score is
 * recomputed without each block in turn from the same predictions (no refit). Deterministic.
 * @param dayOfRow each row's UTC day as a whole number of calendar days (e.g. days since 1970-01-01)
 * @param foldOfRow each row's fold, for pooled predictions of several fold models: the AUC then counts pairs of
 *   rows of the same fold only (pairsWithinFolds), i.e. the folds' AUCs weighted by their positive × negative pairs
 */
export function scoreWithIntervals(
  y: Float64Array,
  modelP: Float64Array,
  baselineP: Float64Array,
  dayOfRow: ArrayLike<number>,
  settings: Pick<ResolvedModelInterval, 'confidence' | 'blockDays' | 'minBlocks'>,
  foldOfRow?: ArrayLike<number>,
): ScoredPredictions {
  const order = scoreOrder(modelP);
  const { block, count: g } = assignDayBlocks(dayOfRow, settings.blockDays);
  const aucPairs = foldOfRow ? pairsWithinFolds(y, modelP, order, block, g, foldOfRow) : leaveOneBlockOutPairs(y, modelP, order, block, g);
  const ratio = (concordant: number, pairs: number) => (pairs > 0 ? concordant / pairs : Number.NaN);
  const model = { ...modelScores(y, modelP, order), ...(foldOfRow ? { auc: ratio(aucPairs.totalConcordant, aucPairs.totalPairs) } : {}) };
  const baseline = modelScores(y, baselineP);
  const { days, daySpan } = dayCounts(dayOfRow);
  // Log loss and accuracy add up per block: leaving a block out costs O(1) each.
  const count = new Float64Array(g);
  const modelLoss = new Float64Array(g);
  const baselineLoss = new Float64Array(g);
  const modelRight = new Float64Array(g);
  const baselineRight = new Float64Array(g);
  for (let i = 0; i < y.length; i += 1) {
    const b = block[i]!;
    const yi = y[i]!;
    count[b] = count[b]! + 1;
    modelLoss[b] = modelLoss[b]! + rowLogLoss(yi, modelP[i]!);
    baselineLoss[b] = baselineLoss[b]! + rowLogLoss(yi, baselineP[i]!);
    if ((modelP[i]! > 0.5 ? 1 : 0) === yi) modelRight[b] = modelRight[b]! + 1;
    if ((baselineP[i]! > 0.5 ? 1 : 0) === yi) baselineRight[b] = baselineRight[b]! + 1;
  }
  const sum = (values: Float64Array) => values.reduce((total, value) => total + value, 0);
  const totals = { n: sum(count), modelLoss: sum(modelLoss), baselineLoss: sum(baselineLoss), modelRight: sum(modelRight), baselineRight: sum(baselineRight) };
  const without = (part: Float64Array, total: number) =>
    Float64Array.from({ length: g }, (_, b) => (totals.n - count[b]! > 0 ? (total - part[b]!) / (totals.n - count[b]!) : Number.NaN));
  const leaveOneOut = {
    modelLogLoss: without(modelLoss, totals.modelLoss),
    baselineLogLoss: without(baselineLoss, totals.baselineLoss),
    modelAccuracy: without(modelRight, totals.modelRight),
    baselineAccuracy: without(baselineRight, totals.baselineRight),
    modelAuc: aucPairs.concordant.map((concordant, b) => ratio(concordant, aucPairs.pairs[b]!)),
  };
  const difference = leaveOneOut.modelLogLoss.map((value, b) => value - leaveOneOut.baselineLogLoss[b]!);
  const jackknife = (estimate: number, values: Float64Array, nullValue = 0) =>
    blockJackknifeInterval(estimate, values, { confidence: settings.confidence, minBlocks: settings.minBlocks, nullValue });
  const auc = jackknife(model.auc, leaveOneOut.modelAuc, 0.5);
  const logLossDifference = model.logLoss - baseline.logLoss;
  const differenceInterval = jackknife(logLossDifference, difference);
  let positives = 0;
  for (let i = 0; i < y.length; i += 1) if (y[i] === 1) positives += 1;
  return {
    rows: y.length,
    positives,
    days,
    daySpan,
    blocks: g,
    model,
    baseline,
    logLossDifference,
    intervals: {
      model: { logLoss: pair(jackknife(model.logLoss, leaveOneOut.modelLogLoss)), auc: pair(auc), accuracy: pair(jackknife(model.accuracy, leaveOneOut.modelAccuracy)) },
      baseline: { logLoss: pair(jackknife(baseline.logLoss, leaveOneOut.baselineLogLoss)), accuracy: pair(jackknife(baseline.accuracy, leaveOneOut.baselineAccuracy)) },
      logLossDifference: pair(differenceInterval),
    },
    pValues: { auc: pValue(auc), logLossDifference: pValue(differenceInterval) },
    standardErrors: { auc: standardError(auc), logLossDifference: standardError(differenceInterval) },
    noInterval: noIntervalReason(auc, differenceInterval),
  };
}

/**
 * The AUC's counts over pairs of rows of the same fold only, each fold leaving out each block in turn: pooled
 * predictions of several fold models are not one ranking (a fold model's intercept follows its training rows'
 * base rate, which runs opposite to its test rows'), so pairs across folds would bias the pooled AUC (below 0.5
 * for a model with no skill).
 */
function pairsWithinFolds(
  y: ArrayLike<number>,
  p: ArrayLike<number>,
  order: Uint32Array,
  block: Int32Array,
  blocks: number,
  foldOfRow: ArrayLike<number>,
): BlockPairs {
  const byFold = new Map<number, number[]>();
  for (const row of order) {
    const fold = foldOfRow[row]!;
    let rows = byFold.get(fold);
    if (!rows) byFold.set(fold, (rows = []));
    rows.push(row);
  }
  const concordant = new Float64Array(blocks);
  const pairs = new Float64Array(blocks);
  let totalConcordant = 0;
  let totalPairs = 0;
  for (const rows of byFold.values()) {
    const part = leaveOneBlockOutPairs(y, p, rows, block, blocks);
    totalConcordant += part.totalConcordant;
    totalPairs += part.totalPairs;
    for (let b = 0; b < blocks; b += 1) {
      concordant[b] = concordant[b]! + part.concordant[b]!;
      pairs[b] = pairs[b]! + part.pairs[b]!;
    }
  }
  return { totalConcordant, totalPairs, concordant, pairs };
}

function pair(interval: AnyInterval): Interval {
  return interval.kind === 'interval' ? [interval.low, interval.high] : [Number.NaN, Number.NaN];
}

function pValue(interval: AnyInterval): number {
  return interval.kind === 'interval' ? interval.pValue : Number.NaN;
}

function standardError(interval: AnyInterval): number {
  return interval.kind === 'interval' ? interval.standardError : Number.NaN;
}

function noIntervalReason(...intervals: AnyInterval[]): NoIntervalReason | undefined {
  const reasons: NoIntervalReason[] = intervals.flatMap((interval) => (interval.kind === 'none' ? [interval.reason] : []));
  return reasons.find((reason) => reason === 'too_few_blocks' || reason === 'too_few_folds') ?? reasons[0];
}

/** Distinct days, and calendar days from the first to the last. */
function dayCounts(dayOfRow: ArrayLike<number>): { days: number; daySpan: number } {
  if (dayOfRow.length === 0) return { days: 0, daySpan: 0 };
  const seen = new Set<number>();
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < dayOfRow.length; i += 1) {
    const day = dayOfRow[i]!;
    seen.add(day);
    if (day < first) first = day;
    if (day > last) last = day;
  }
  return { days: seen.size, daySpan: last - first + 1 };
}
