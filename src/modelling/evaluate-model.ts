// The evaluation helper: fit a model and the naive baseline on each fold's train rows, score both on its
// test rows, and pool the test predictions of every fold, with block-jackknife intervals over test days.

import { POOLED_DIFFERENCE_METHODS, POOLED_INTERVAL_METHODS, type PooledDifferenceMethod, type PooledIntervalMethod } from '../contract/index.js';
import { AnalysisOptionError, assignDayBlocks, type FeatureSet } from '../analysis/index.js';
import { BaseRateModel } from './base-rate-model.js';
import { modelIntervalNote } from './model-interval-note.js';
import type { FoldAdvisor } from './fold-advice.js';
import { resolveModelInterval, type ModelIntervalOptions } from './model-interval-options.js';
import { LogisticRegression } from './logistic-regression.js';
import { featureMatrix, featureMatrixFromColumns, type FeatureMatrix, type Model, type ScoreGeometry } from './model.js';
import type { CrossFoldTestRows } from './cross-fold-interval.js';
import { deltaSum, nestedCvFolds } from './nested-cv-folds.js';
import { pooledOverFolds, scoreWithIntervals, type ResolvedModelInterval, type ScoredPredictions } from './model-score-intervals.js';
import { modellingMessages } from './messages.js';

/**
 * One fold as the splits give it: positions into `ModelData.rows` (the split helper's TimeSplit, whose
 * train/test index its time-ordered row table, has this shape).
 */
export interface ModelFold {
  /** 1-based fold number. */
  readonly fold: number;
  readonly train: ArrayLike<number>;
  readonly test: ArrayLike<number>;
}

/**
 * The rows a model sees, aligned by position: either `rows` (row objects holding each predictor by name, e.g.
 * from `SELECT ${predictorSelectSql(...)}`) or `columns` (one array per predictor name, as DuckDB's
 * getColumnsJS gives them: the fast path, no object per row).
 */
export interface ModelData {
  readonly rows?: readonly Readonly<Record<string, unknown>>[];
  readonly columns?: Readonly<Record<string, ArrayLike<unknown>>>;
  /** Target of each row: 1, 0, or null / NaN when its outcome is missing (never read as 0). */
  readonly target: ArrayLike<number | null>;
  /** The target's name, for the sentence that refuses a value other than 0, 1 or missing. Default `target`. */
  readonly targetName?: string;
  /**
   * Each row's UTC day as a whole number counting calendar days (e.g. days since 1970-01-01): the interval's
   * blocks are `blockDays` consecutive numbers from the first test day (an index of only the days holding rows
   * would join days across a gap into one block).
   */
  readonly dayIndex: ArrayLike<number>;
}

/** Options of evaluateModel. */
export interface EvaluateModelOptions {
  /** A new, unfitted model per fold. Default: `new LogisticRegression()` (L2 penalty 1 on standardised features). */
  model?: () => Model;
  /** The naive baseline per fold. Default: `new BaseRateModel()` (the train fold's share of target 1). */
  baseline?: () => Model;
  /**
   * The intervals of every score: the delete-one-block jackknife over blocks of `blockDays` UTC test days, t at
   * blocks − 1 df (docs/analysis.md). confidence: default 0.95; blockDays: default 1 (modelStudy: intervalBlockDays(W)).
   */
  interval?: ModelIntervalOptions;
  /**
   * The pooled row's interval when there are several folds. `folds` (default): Nadeau & Bengio's corrected
   * resampled t over the folds' scores, about the skill expected over training sets (k-fold: every fold model is
   * trained on the others' test rows). `test-days`: the folds' block jackknife over every fold's test days
   * together with the fitted models fixed, about these models' skill on days like the test days (walk-forward:
   * models trained on the past only, on growing training sets, so their scores are not exchangeable).
   */
  pooledInterval?: PooledIntervalMethod;
  /**
   * The pooled Δ log loss's interval under `pooledInterval: 'folds'`. `corrected-resampled-t` (default): as the
   * other scores. `cross-fold` (experimental, not calibrated): crossFoldInterval, the test-days jackknife plus the
   * folds' cross-fold term, about the fitted models' own skill; needs a model and baseline that give their score
   * geometry (else the corrected resampled t). `nested` (experimental, not calibrated): nestedCvInterval, nested
   * cross-validation over the folds' pairs (J(J − 1)/2 more fits). Measured in docs/modelling.md "Purged k-fold's
   * pooled Δ log loss".
   */
  pooledDifference?: PooledDifferenceMethod;
  /**
   * What gives each fold the test days an interval needs, for the no-interval note (fold-advice.ts). Default:
   * folds that share out the pooled test days (k-fold); modelStudy gives walk-forward's.
   */
  foldAdvice?: FoldAdvisor;
  /** The old name of `interval`, still accepted: `confidence` and `blockDays` are read; `samples` and `seed` are ignored (the jackknife draws nothing). */
  bootstrap?: ModelIntervalOptions & { samples?: number; seed?: number };
}

/** Rows of a fold part left out before fitting or scoring. */
export interface LeftOutRows {
  /** Target null or NaN (outcome not complete). */
  readonly missingTarget: number;
  /** A predictor value missing (complete cases: nothing imputed). */
  readonly missingPredictor: number;
}

/** One fold: its test rows scored, with block-jackknife intervals over the fold's own test days. */
export interface FoldEvaluation extends ScoredPredictions {
  readonly fold: number;
  /** Rows fitted on. */
  readonly trainRows: number;
  readonly trainLeftOut: LeftOutRows;
  readonly testLeftOut: LeftOutRows;
  /** Share of target 1 in the train rows. */
  readonly trainBaseRate: number;
}

/** The test predictions of every fold together. */
export type PooledEvaluation = ScoredPredictions;

export interface ModelEvaluation {
  readonly model: string;
  readonly baseline: string;
  readonly features: readonly string[];
  readonly folds: readonly FoldEvaluation[];
  readonly pooled: PooledEvaluation;
  /** How the intervals were computed (method, level, block length) and the sentence that says it. */
  readonly interval: ResolvedModelInterval;
  /** Which rows show no interval and what would give them one (one sentence each kind); undefined when all have one. */
  readonly intervalNote: string | undefined;
}

/**
 * Fits and scores `options.model` and the baseline over `folds` on the predictors of `features`.
 * Steps per fold: 1. drop rows with a missing target, then rows with a missing predictor (counted);
 * 2. fit a fresh model and baseline on the train rows; 3. predict the test rows; 4. score.
 * Then the pooled test predictions are scored. Every interval leaves one block of test days out of the scores
 * of the SAME fitted models (no refit): it describes the test rows' sampling error of fixed models.
 * Deterministic for given rows and folds.
 * @throws LeakageError when `features` holds a label; AnalysisOptionError for a bad option or misaligned data.
 */
export function evaluateModel(data: ModelData, features: FeatureSet, folds: readonly ModelFold[], options: EvaluateModelOptions = {}): ModelEvaluation {
  const resolved = resolveModelInterval(options.interval ?? options.bootstrap ?? {});
  const pooledInterval = options.pooledInterval ?? 'folds';
  if (options.pooledDifference !== undefined && !POOLED_DIFFERENCE_METHODS.includes(options.pooledDifference)) {
    throw new AnalysisOptionError(modellingMessages.badModelOption('pooledDifference', String(options.pooledDifference), `one of ${POOLED_DIFFERENCE_METHODS.join(', ')}`), { option: 'pooledDifference' });
  }
  if (!POOLED_INTERVAL_METHODS.includes(pooledInterval)) {
    throw new AnalysisOptionError(modellingMessages.badModelOption('pooledInterval', String(pooledInterval), `one of ${POOLED_INTERVAL_METHODS.join(', ')}`), { option: 'pooledInterval' });
  }
  const all = readAllRows(data, features);
  if (data.target.length !== all.position.length || data.dayIndex.length !== all.position.length) {
    throw new AnalysisOptionError(modellingMessages.modelLengthMismatch(all.position.length, data.target.length), { option: 'data' });
  }
  assertBinaryTarget(data);
  const makeModel = options.model ?? (() => new LogisticRegression());
  const makeBaseline = options.baseline ?? (() => new BaseRateModel());
  let modelName = '';
  let baselineName = '';
  const foldResults: FoldEvaluation[] = [];
  // Pooled test rows: at most every fold's test rows; filled in order, cut to length at the end.
  let capacity = 0;
  for (const fold of folds) capacity += fold.test.length;
  const pooledY = new Float64Array(capacity);
  const pooledModel = new Float64Array(capacity);
  const pooledBaseline = new Float64Array(capacity);
  const pooledDay = new Float64Array(capacity);
  const pooledFold = new Int32Array(capacity);
  let pooledRows = 0;
  // Each fold's score geometry on its test rows (model and baseline), when both models give it: crossFoldInterval.
  const geometry: { model: ScoreGeometry; baseline: ScoreGeometry; rows: number }[] = [];
  let geometryComplete = true;
  for (const fold of folds) {
    // 1. rows with a target and every predictor.
    const train = select(data, all, fold.train);
    const test = select(data, all, fold.test);
    // 2. fit.
    const model = makeModel();
    const baseline = makeBaseline();
    modelName = model.name;
    baselineName = baseline.name;
    let trainBaseRate = Number.NaN;
    if (train.matrix.rows > 0) {
      model.fit(train.matrix, train.y);
      baseline.fit(train.matrix, train.y);
      trainBaseRate = train.y.reduce((sum, value) => sum + value, 0) / train.y.length;
    }
    // 3. predict, 4. score.
    const modelP = train.matrix.rows > 0 ? model.predict(test.matrix) : new Float64Array(test.matrix.rows).fill(Number.NaN);
    const baselineP = train.matrix.rows > 0 ? baseline.predict(test.matrix) : new Float64Array(test.matrix.rows).fill(Number.NaN);
    const testDay = new Float64Array(test.kept.length);
    for (let i = 0; i < testDay.length; i += 1) testDay[i] = Number(data.dayIndex[test.kept[i]!]);
    foldResults.push({
      fold: fold.fold,
      trainRows: train.matrix.rows,
      trainLeftOut: train.leftOut,
      testLeftOut: test.leftOut,
      trainBaseRate,
      ...scoreWithIntervals(test.y, modelP, baselineP, testDay, resolved),
    });
    if (options.pooledDifference === 'cross-fold' && geometryComplete && train.matrix.rows > 0 && model.scoreGeometry && baseline.scoreGeometry) {
      geometry.push({ model: model.scoreGeometry(test.matrix, test.y, modelP), baseline: baseline.scoreGeometry(test.matrix, test.y, baselineP), rows: test.matrix.rows });
    } else geometryComplete = false;
    pooledY.set(test.y, pooledRows);
    pooledModel.set(modelP, pooledRows);
    pooledBaseline.set(baselineP, pooledRows);
    pooledDay.set(testDay, pooledRows);
    pooledFold.fill(fold.fold, pooledRows, pooledRows + test.matrix.rows);
    pooledRows += test.matrix.rows;
  }
  const cut = (values: Float64Array) => values.subarray(0, pooledRows);
  // Pooled AUC: pairs within a fold only (each fold model ranks its own test rows; see pairsWithinFolds).
  const scored = scoreWithIntervals(cut(pooledY), cut(pooledModel), cut(pooledBaseline), cut(pooledDay), resolved, pooledFold.subarray(0, pooledRows));
  // Several k-folds: each model trained on the others' test rows, so their errors are correlated: the pooled
  // intervals come from the folds' scores with Nadeau & Bengio's correction (pooledOverFolds). 'test-days'
  // (walk-forward): the jackknife over every fold's test days, as scored.
  const overFolds = foldResults.length > 1 && pooledInterval === 'folds';
  const crossFold = options.pooledDifference === 'cross-fold' && geometryComplete ? crossFoldRows(geometry, cut(pooledDay), resolved.blockDays) : undefined;
  // Nested cross-validation (experimental): a model and baseline per pair of folds, fitted on what trains both;
  // each fold's test rows selected once (every fold is tested by J − 1 pairs).
  const testRows = new Map<number, ReturnType<typeof select>>();
  const testOf = (k: number) => testRows.get(k) ?? testRows.set(k, select(data, all, folds[k]!.test)).get(k)!;
  const pairDeltas = (train: readonly number[], testFolds: readonly number[]) => {
    const fitted = select(data, all, train);
    if (fitted.matrix.rows === 0) return undefined;
    const model = makeModel();
    const baseline = makeBaseline();
    model.fit(fitted.matrix, fitted.y);
    baseline.fit(fitted.matrix, fitted.y);
    return testFolds.map((k) => {
      const test = testOf(k);
      return deltaSum(test.y, model.predict(test.matrix), baseline.predict(test.matrix));
    });
  };
  const nested =
    overFolds && options.pooledDifference === 'nested'
      ? nestedCvFolds(folds, foldResults, { y: cut(pooledY), model: cut(pooledModel), baseline: cut(pooledBaseline), day: cut(pooledDay), fold: pooledFold.subarray(0, pooledRows) }, resolved.blockDays, pairDeltas)
      : undefined;
  const pooled = overFolds ? pooledOverFolds(scored, foldResults, resolved.confidence, crossFold, nested) : scored;
  const interval =
    foldResults.length > 1
      ? {
          ...resolved,
          description: modellingMessages.modelIntervalMethod(resolved.confidence, resolved.blockDays, {
            over: pooledInterval,
            folds: foldResults.length,
            ...(pooled.overFolds ? { difference: pooled.overFolds.differenceMethod } : {}),
          }),
        }
      : resolved;
  return { model: modelName, baseline: baselineName, features: features.names, folds: foldResults, pooled, interval, intervalNote: modelIntervalNote(foldResults, pooled, interval, options.foldAdvice) };
}

/** The folds' test rows as crossFoldInterval reads them: blocks of test days numbered over the pooled days. */
function crossFoldRows(geometry: readonly { model: ScoreGeometry; baseline: ScoreGeometry; rows: number }[], pooledDay: Float64Array, blockDays: number): CrossFoldTestRows[] {
  const { block } = assignDayBlocks(pooledDay, blockDays);
  let start = 0;
  return geometry.map((fold) => {
    const rows = { block: block.subarray(start, start + fold.rows), model: fold.model, baseline: fold.baseline };
    start += fold.rows;
    return rows;
  });
}

/** Every row's predictors read once (object property reads dominate); folds then copy rows by position. */
interface AllRows {
  readonly matrix: FeatureMatrix;
  /** Per row of the data: its row in `matrix`, or -1 when a predictor is missing. */
  readonly position: Int32Array;
}

function readAllRows(data: ModelData, features: FeatureSet): AllRows {
  if ((data.rows === undefined) === (data.columns === undefined)) {
    throw new AnalysisOptionError(modellingMessages.modelDataShape(), { option: 'data' });
  }
  const count = data.rows?.length ?? columnLength(data.columns!, features);
  const { matrix, kept } = data.rows !== undefined ? featureMatrix(data.rows, features) : featureMatrixFromColumns(data.columns!, features);
  const position = new Int32Array(count).fill(-1);
  for (let k = 0; k < kept.length; k += 1) position[kept[k]!] = k;
  return { matrix, position };
}

function select(data: ModelData, all: AllRows, indices: ArrayLike<number>) {
  const p = all.matrix.columns;
  const keptAll = new Uint32Array(indices.length);
  let keptCount = 0;
  let missingTarget = 0;
  let missingPredictor = 0;
  for (let k = 0; k < indices.length; k += 1) {
    const index = indices[k]!;
    const value = data.target[index];
    if (value === null || value === undefined || Number.isNaN(value)) missingTarget += 1;
    else if (all.position[index]! < 0) missingPredictor += 1;
    else keptAll[keptCount++] = index;
  }
  const kept = keptAll.subarray(0, keptCount);
  const values = new Float64Array(kept.length * p);
  const y = new Float64Array(kept.length);
  for (let i = 0; i < kept.length; i += 1) {
    const from = all.position[kept[i]!]! * p;
    // A loop, not values.set(subarray(...)): a typed-array view per row cost ~0.5 s (and its garbage) per 2M rows.
    for (let j = 0; j < p; j += 1) values[i * p + j] = all.matrix.values[from + j]!;
    y[i] = data.target[kept[i]!] === 1 ? 1 : 0;
  }
  const matrix: FeatureMatrix = { values, rows: kept.length, columns: p, names: all.matrix.names };
  return { matrix, kept, y, leftOut: { missingTarget, missingPredictor } };
}

/** Every target 1, 0 or missing: anything else (a return passed where a class was meant) is refused, never read as 0. */
function assertBinaryTarget(data: ModelData): void {
  for (let row = 0; row < data.target.length; row += 1) {
    const value = data.target[row];
    if (value === null || value === undefined || Number.isNaN(value) || value === 0 || value === 1) continue;
    throw new AnalysisOptionError(modellingMessages.targetNotBinary(data.targetName ?? 'target', row, value), { option: 'target' });
  }
}

function columnLength(columns: Readonly<Record<string, ArrayLike<unknown>>>, features: FeatureSet): number {
  return columns[features.names[0]!]?.length ?? 0;
}
