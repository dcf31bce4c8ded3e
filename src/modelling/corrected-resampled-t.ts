// The interval of a score pooled over the folds of one split: Nadeau & Bengio's (2003) corrected resampled t.
// Each fold model is trained on the other folds' test rows, so the folds' scores are positively correlated and
// the plain variance of their mean (s²/J) is too small; the correction adds n_test/n_train for the overlap of the
// training sets. Calibration on simulated markets and why this method: docs/analysis.md.

import { spreadOf, studentTInterval, type StudentTResult } from '../analysis/index.js';

/**
 * A corrected resampled t interval with its test over J `folds` (J − 1 df), or why there is none:
 * `too_few_folds` (fewer than 2), `not_estimable` (a fold's score or the estimate is undefined), `no_variation`
 * (every fold scores alike).
 */
export type FoldInterval = StudentTResult<'folds', 'too_few_folds' | 'not_estimable' | 'no_variation'>;

/** Options of correctedResampledInterval. */
export interface CorrectedResampledOptions {
  /** Interval level, strictly between 0 and 1. Default 0.95. */
  readonly confidence?: number;
  /** The value the p-value tests against (0.5 for an AUC, 0 for a difference). Default 0. */
  readonly nullValue?: number;
  /**
   * The score's possible range (an AUC's [0, 1]): the interval is cut to it, which changes neither its coverage
   * (the truth lies inside) nor the p-value. Default: unbounded.
   */
  readonly bounds?: readonly [min: number, max: number];
}

/**
 * Nadeau & Bengio's corrected resampled t interval of a score over J folds: with s² the sample variance of the
 * folds' scores (J − 1 in the denominator), SE² = (1/J + testToTrain) · s², the interval is
 * estimate ± t(J − 1, 1 − α/2) · SE (cut to `bounds`) and p = 2 · P(T(J − 1) ≥ |estimate − nullValue| / SE).
 * @param estimate the pooled score (over every fold's test rows) the interval is centred on
 * @param foldScores the same score of each fold's test rows
 * @param testToTrain n_test / n_train: test rows per train row of a fold (over unequal folds: Σ test / Σ train)
 */
export function correctedResampledInterval(
  estimate: number,
  foldScores: ArrayLike<number>,
  testToTrain: number,
  options: CorrectedResampledOptions = {},
): FoldInterval {
  const confidence = options.confidence ?? 0.95;
  const nullValue = options.nullValue ?? 0;
  const j = foldScores.length;
  if (j < 2) return { kind: 'none', reason: 'too_few_folds', folds: j };
  if (!Number.isFinite(estimate) || !(testToTrain >= 0 && Number.isFinite(testToTrain))) return { kind: 'none', reason: 'not_estimable', folds: j };
  const spread = spreadOf(foldScores);
  if (spread === undefined) return { kind: 'none', reason: 'not_estimable', folds: j };
  const standardError = Math.sqrt((1 / j + testToTrain) * (spread.squares / (j - 1)));
  if (!(standardError > 0)) return { kind: 'none', reason: 'no_variation', folds: j };
  const degreesOfFreedom = j - 1;
  const { low, high, pValue } = studentTInterval(estimate, standardError, degreesOfFreedom, { confidence, nullValue });
  const [min, max] = options.bounds ?? [-Infinity, Infinity];
  return {
    kind: 'interval',
    low: Math.max(min, low),
    high: Math.min(max, high),
    pValue,
    standardError,
    folds: j,
    degreesOfFreedom,
  };
}

/** n_test / n_train of a split's folds: Σ test rows / Σ train rows (NaN when no fold trained on a row). */
export function testToTrainRatio(folds: readonly { readonly rows: number; readonly trainRows: number }[]): number {
  let test = 0;
  let train = 0;
  for (const fold of folds) {
    test += fold.rows;
    train += fold.trainRows;
  }
  return train > 0 ? test / train : Number.NaN;
}
