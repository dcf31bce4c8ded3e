// The terms of nested cross-validation (nestedCvInterval) over one set of k-folds: for each pair of folds a < b, a
// model and baseline fitted on the rows that train both (purged around both), scored on both folds' test rows.
// J(J − 1)/2 more fits; evaluateModel gives the fitting (pairDeltas), this file the bookkeeping.

import { assignDayBlocks } from '../analysis/index.js';
import { rowLogLoss } from './classification-metrics.js';
import { meanJackknifeVariance, type NestedCvFold } from './nested-cv-interval.js';

/** A fold's number and train rows (positions into the data). */
interface FoldRows {
  readonly fold: number;
  readonly train: ArrayLike<number>;
}

/** Δ log loss (model − baseline) summed over rows, and the rows summed. */
export interface DeltaSum {
  readonly sum: number;
  readonly count: number;
}

/** The pooled test predictions, aligned by position, with each row's fold number and UTC day. */
export interface PooledPredictions {
  readonly y: Float64Array;
  readonly model: Float64Array;
  readonly baseline: Float64Array;
  readonly day: Float64Array;
  readonly fold: Int32Array;
}

/** Δ log loss of `model` against `baseline` predictions, summed over the rows. */
export function deltaSum(y: Float64Array, model: Float64Array, baseline: Float64Array): DeltaSum {
  let sum = 0;
  for (let i = 0; i < y.length; i += 1) sum += rowLogLoss(y[i]!, model[i]!) - rowLogLoss(y[i]!, baseline[i]!);
  return { sum, count: y.length };
}

/**
 * Each outer fold's terms: its own score (`results[k].logLossDifference`) and that mean's block-jackknife variance
 * over its test days (from the pooled predictions), and the inner estimate, the mean Δ log loss over the other
 * folds' test rows of the pair models holding fold k out. undefined when a pair has no rows to fit.
 * @param pairDeltas fits a model and baseline on `train` and gives their DeltaSum on each fold of `testFolds` (indices into `folds`)
 */
export function nestedCvFolds(
  folds: readonly FoldRows[],
  results: readonly { readonly fold: number; readonly logLossDifference: number }[],
  pooled: PooledPredictions,
  blockDays: number,
  pairDeltas: (train: readonly number[], testFolds: readonly number[]) => readonly DeltaSum[] | undefined,
): NestedCvFold[] | undefined {
  const j = folds.length;
  // held[a][b]: fold a's test rows under the pair model that held out a and b.
  const held: DeltaSum[][] = Array.from({ length: j }, () => Array.from({ length: j }, () => ({ sum: 0, count: 0 })));
  const inTrain = new Set<number>();
  for (let a = 0; a < j; a += 1) {
    inTrain.clear();
    for (let k = 0; k < folds[a]!.train.length; k += 1) inTrain.add(folds[a]!.train[k]!);
    for (let b = a + 1; b < j; b += 1) {
      const both: number[] = [];
      for (let k = 0; k < folds[b]!.train.length; k += 1) if (inTrain.has(folds[b]!.train[k]!)) both.push(folds[b]!.train[k]!);
      const sums = pairDeltas(both, [a, b]);
      if (sums === undefined) return undefined;
      held[a]![b] = sums[0]!;
      held[b]![a] = sums[1]!;
    }
  }
  const { block } = assignDayBlocks(pooled.day, blockDays);
  return results.map((result, k) => {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < j; i += 1) {
      if (i === k) continue;
      sum += held[i]![k]!.sum;
      count += held[i]![k]!.count;
    }
    const values: number[] = [];
    const blocks: number[] = [];
    for (let r = 0; r < pooled.fold.length; r += 1) {
      if (pooled.fold[r] !== result.fold) continue;
      values.push(rowLogLoss(pooled.y[r]!, pooled.model[r]!) - rowLogLoss(pooled.y[r]!, pooled.baseline[r]!));
      blocks.push(block[r]!);
    }
    return { outer: result.logLossDifference, outerVariance: meanJackknifeVariance(values, blocks), inner: count > 0 ? sum / count : Number.NaN };
  });
}
