// The model interface of the evaluation helper, and the feature matrix it reads: predictor columns of a
// leakage-checked feature set, rows in the order a split gives, rows with a missing value left out and counted.

import { AnalysisOptionError, assertPredictors, type FeatureSet } from '../analysis/index.js';
import { numericValue } from './read-columns.js';
import { modellingMessages } from './messages.js';

/** Rows × columns of numbers, row-major: value (i, j) is `values[i * columns + j]`. */
export interface FeatureMatrix {
  readonly values: Float64Array;
  readonly rows: number;
  readonly columns: number;
  /** Column names, in order (the feature set's names). */
  readonly names: readonly string[];
}

/** A binary classifier: fit on a train fold, then give each test row a probability of the positive class. */
export interface Model {
  /** Short name for tables, e.g. `logistic-l2` or `base-rate`. */
  readonly name: string;
  /** Fits on `x` and targets `y` (0 or 1, one per row of `x`). Refits from scratch when called again. */
  fit(x: FeatureMatrix, y: Float64Array): void;
  /** Probability of target 1 for each row of `x`, 0..1. */
  predict(x: FeatureMatrix): Float64Array;
  /**
   * Optional: the model's score geometry on rows `x` with targets `y` and this model's predictions `p` for them.
   * With it (model and baseline both), purged k-fold's pooled Δ log loss gets the cross-fold interval
   * (crossFoldInterval); without, Nadeau & Bengio's corrected resampled t.
   */
  scoreGeometry?(x: FeatureMatrix, y: Float64Array, p: Float64Array): ScoreGeometry;
}

/**
 * What a likelihood model's fit moves with: per row, the gradient of the row's log-likelihood in the model's
 * parameters (its score vector), and the information the rows carry (−Σ of the log-likelihood's second
 * derivatives, expected under the predictions). Any parametrisation, as long as both use the same.
 */
export interface ScoreGeometry {
  /** Parameters. */
  readonly dimension: number;
  /** Rows × dimension, row-major. */
  readonly scores: Float64Array;
  /** Dimension × dimension, summed over the rows. */
  readonly information: Float64Array;
}

/** A feature matrix of the chosen rows, with what was left out. */
export interface SelectedFeatureMatrix {
  readonly matrix: FeatureMatrix;
  /** Positions (into `rows`) of the rows kept, in the order given. */
  readonly kept: Uint32Array;
  /** Rows left out because a predictor was null, undefined, NaN or not a finite number. */
  readonly missingPredictor: number;
}

/**
 * The matrix of `features` over `rows[indices[0]], rows[indices[1]], …` (all rows when `indices` is
 * omitted). Each row holds the predictor columns by name (as `SELECT ${predictorSelectSql(...)}` returns them;
 * numbers, bigints or booleans). A row with any missing predictor value is left out and counted (complete
 * cases: nothing is imputed, so no statistic of another fold can enter).
 * @throws LeakageError when the feature set holds a label (or a feature derived from one), even if the set
 * was built by hand rather than through defineFeatureSet.
 */
export function featureMatrix(
  rows: readonly Readonly<Record<string, unknown>>[],
  features: FeatureSet,
  indices?: ArrayLike<number>,
): SelectedFeatureMatrix {
  assertPredictors(features.predictors);
  // The chosen rows as one array per predictor: then the one reading loop of featureMatrixFromColumns.
  const chosen = indices === undefined ? rows : Array.from(indices, (index) => rows[index]!);
  const columns = Object.fromEntries(predictorNames(features).map((name) => [name, chosen.map((row) => row[name])]));
  const selected = featureMatrixFromColumns(columns, features, chosen.length);
  return indices === undefined ? selected : { ...selected, kept: Uint32Array.from(selected.kept, (position) => indices[position]!) };
}

/**
 * featureMatrix over columns (one array per predictor name, all of one length) instead of row objects: what
 * DuckDB's getColumnsJS returns, read without an object per row. `rowCount`: the length every column must have
 * (default the first column's; given, a feature set without predictors still has its rows).
 * @throws LeakageError as featureMatrix; AnalysisOptionError when a predictor's column is absent or of another length
 */
export function featureMatrixFromColumns(
  columns: Readonly<Record<string, ArrayLike<unknown>>>,
  features: FeatureSet,
  rowCount?: number,
): SelectedFeatureMatrix {
  assertPredictors(features.predictors);
  const names = predictorNames(features);
  const data = names.map((name) => columns[name]);
  const count = rowCount ?? data[0]?.length ?? 0;
  names.forEach((name, j) => {
    if (data[j]?.length !== count) throw new AnalysisOptionError(modellingMessages.modelColumnMissing(name, count, data[j]?.length), { option: name });
  });
  const width = names.length;
  const values = new Float64Array(count * width);
  const kept = new Uint32Array(count);
  let keptCount = 0;
  for (let index = 0; index < count; index += 1) {
    const offset = keptCount * width;
    let complete = true;
    for (let j = 0; j < width; j += 1) {
      const value = numericValue(data[j]![index]);
      if (!Number.isFinite(value)) {
        complete = false;
        break;
      }
      values[offset + j] = value;
    }
    if (complete) kept[keptCount++] = index;
  }
  return {
    matrix: { values: values.slice(0, keptCount * width), rows: keptCount, columns: width, names: Object.freeze(names) },
    kept: kept.slice(0, keptCount),
    missingPredictor: count - keptCount,
  };
}

/** Column names of the predictors, in order (from the predictors themselves: a hand-built set's names may differ). */
function predictorNames(features: FeatureSet): string[] {
  return features.predictors.map((p) => (typeof p === 'string' ? p : p.name));
}
