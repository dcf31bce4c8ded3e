// The interval of k-fold's pooled Δ log loss by nested cross-validation (Bates, Hastie & Tibshirani 2024): instead
// of assuming the folds' correlation (Nadeau & Bengio's n_test/n_train), it measures how far an inner
// cross-validation's estimate lands from a fresh fold's score. For each outer fold k, the inner estimate is the
// mean Δ log loss on the other folds' test rows of models trained without fold k and that fold; fold k's own score
// comes from the model trained without it alone. (inner − outer)² minus fold k's own sampling variance estimates
// the mean squared error of a cross-validation estimate about the skill expected over training sets.
// Experimental: one fixed time-ordered partition gives J terms, not the paper's many random repetitions.

import { blockJackknifeInterval, studentTInterval, type StudentTResult } from '../analysis/index.js';

/** A nested cross-validation interval with its test, or why there is none. */
export type NestedCvInterval = StudentTResult<'folds', 'too_few_folds' | 'not_estimable' | 'no_variation'>;

/** One outer fold as nestedCvInterval reads it. */
export interface NestedCvFold {
  /** Mean Δ log loss of the fold's test rows under the model trained without this fold (its own score). */
  readonly outer: number;
  /** Variance of that mean from the fold's own test rows (the block jackknife's, models fixed). */
  readonly outerVariance: number;
  /** Mean Δ log loss on the other folds' test rows of the models trained without this fold and that one. */
  readonly inner: number;
}

/** Options of nestedCvInterval. */
export interface NestedCvOptions {
  /** Interval level, strictly between 0 and 1. Default 0.95. */
  readonly confidence?: number;
  /** The value the p-value tests against. Default 0. */
  readonly nullValue?: number;
}

/**
 * SE² = (J − 1)/J · max(0, mean_k (inner_k − outer_k)² − mean_k outerVariance_k), bounded to [lower², J · lower²]
 * as the paper bounds its inflation (lower: the pooled test-days jackknife's standard error, models fixed); the
 * interval is estimate ± t(J − 1, 1 − α/2) · SE and p its two-sided test at nullValue.
 * @param lowerStandardError the pooled test-days jackknife's standard error (NaN: no lower bound is known)
 */
export function nestedCvInterval(estimate: number, folds: readonly NestedCvFold[], lowerStandardError: number, options: NestedCvOptions = {}): NestedCvInterval {
  const confidence = options.confidence ?? 0.95;
  const nullValue = options.nullValue ?? 0;
  const j = folds.length;
  if (j < 3) return { kind: 'none', reason: 'too_few_folds', folds: j };
  if (!Number.isFinite(estimate) || folds.some((f) => !Number.isFinite(f.outer) || !Number.isFinite(f.inner) || !Number.isFinite(f.outerVariance))) {
    return { kind: 'none', reason: 'not_estimable', folds: j };
  }
  let squares = 0;
  let own = 0;
  for (const fold of folds) {
    squares += (fold.inner - fold.outer) ** 2;
    own += fold.outerVariance;
  }
  let variance = ((j - 1) / j) * Math.max(0, (squares - own) / j);
  if (Number.isFinite(lowerStandardError) && lowerStandardError > 0) {
    const lower = lowerStandardError ** 2;
    variance = Math.min(Math.max(variance, lower), j * lower);
  }
  const standardError = Math.sqrt(variance);
  if (!(standardError > 0)) return { kind: 'none', reason: 'no_variation', folds: j };
  const degreesOfFreedom = j - 1;
  const { low, high, pValue } = studentTInterval(estimate, standardError, degreesOfFreedom, { confidence, nullValue });
  return { kind: 'interval', low, high, pValue, standardError, folds: j, degreesOfFreedom };
}

/**
 * The delete-one-block jackknife variance of the mean of `values` (rows grouped by `block`, any integers): what a
 * fold's own test rows say about its mean, with no minimum block count (NaN below 2 blocks).
 */
export function meanJackknifeVariance(values: ArrayLike<number>, block: ArrayLike<number>): number {
  const sums = new Map<number, [sum: number, count: number]>();
  let total = 0;
  for (let i = 0; i < values.length; i += 1) {
    const entry = sums.get(block[i]!) ?? [0, 0];
    entry[0] += values[i]!;
    entry[1] += 1;
    sums.set(block[i]!, entry);
    total += values[i]!;
  }
  const n = values.length;
  const leaveOut: number[] = [];
  for (const [sum, count] of sums.values()) leaveOut.push((total - sum) / (n - count));
  // The shared jackknife (its formula, its checks), with no minimum beyond the 2 blocks a variance needs.
  const interval = blockJackknifeInterval(total / n, leaveOut, { minBlocks: 2 });
  return interval.kind === 'interval' ? interval.standardError ** 2 : interval.reason === 'no_variation' ? 0 : Number.NaN;
}
