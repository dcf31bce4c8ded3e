// Every user-facing sentence of the modelling layer: split and model options, the model's data, and the model
// scores' intervals (tests assert classes and codes, not these texts; analysisMessages has the event study's).

import type { PooledDifferenceMethod, PooledIntervalMethod } from '../contract/index.js';
import type { FoldAdvice } from './fold-advice.js';

/** Walk-forward with its test days given: the test days per fold an interval needs, and the days that takes. */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function raiseTestDays(advice: Extract<FoldAdvice, { kind: 'test-days' }>, perFold: number): string {
  const days = advice.folds * perFold + 1;
  return `raise the test days per fold to ${perFold}${advice.days < days ? ` (${advice.folds} folds of ${perFold} days and a training day need ${days} days, and the rows have ${advice.days}: pull more days or use fewer folds)` : ''}`;
}

export const modellingMessages = {
  badSplitCount: (option: string, value: string, min: number) =>
    `The split option ${option} must be a whole number of at least ${min}, not ${value}.`,
  badSampleType: (value: string, allowed: readonly string[]) =>
    `The split option sampleType must be ${allowed.map((type) => `'${type}'`).join(' or ')} (or left out for both), not ${value}.`,
  embargoLeavesNoTraining: (fold: number, seconds: number, embargoed: number, auto: number) =>
    `The embargo of ${seconds} s keeps the ${embargoed} rows after fold ${fold}'s test days out of training, so fold ${fold} has none to train on; give a shorter embargo (auto gives ${auto} s here).`,
  badEmbargo: (value: string) => `The split option embargoSeconds must be 'auto' or a number of seconds >= 0, not ${value}.`,
  /** testDays undefined: k-fold (each fold tests one block of days); a number: walk-forward (blocks of testDays, then one training day). */
  tooFewSplitDays: (days: number, window: string, folds: number, testDays: number | undefined) =>
    `The rows usable for window ${window} (point-in-time, complete outcome) cover ${days} UTC day(s), too few to split: ${
      testDays === undefined
        ? `${folds} folds need at least ${folds}`
        : `${folds} test blocks of ${testDays} day(s) and one training day need at least ${folds * testDays + 1}`
    }; use fewer folds or pull more days.`,
  noSplitRows: (window: string) =>
    `No row is usable for window ${window} (point-in-time with a complete ${window} outcome), so there is nothing to split; pull releases whose ${window} outcomes are complete.`,
  badModelOption: (option: string, value: string, rule: string) => `The model option ${option} must be ${rule}, not ${value}.`,
  modelNotFitted: (model: string) => `The ${model} model has not been fitted yet: call fit(x, y) on a train fold first.`,
  badSplitMethod: (value: string, methods: readonly string[]) => `The split method must be one of ${methods.join(', ')}, not ${value}.`,
  windowNotTargets: (asked: string, target: string, window: string) =>
    `The window ${asked} is not the window of the target ${target} (${window}); leave the window out, or give a target of window ${asked}.`,
  textPredictor: (name: string) =>
    `The predictor ${name} is text, not a number; derive a number from it, e.g. derivedFeature('is_${name}_x', ['${name}'], "${name} = 'x'").`,
  notANumberColumn: (name: string, type: string) =>
    `The feature ${name} gives ${type} values, not numbers, so it cannot be a model column; make it a number, e.g. derivedFeature('is_btc', ['symbol'], "symbol = 'BTCUSDT'").`,
  modelColumnsFailed: (detail: string) =>
    `DuckDB could not compute the model's columns (${detail}): a derived feature's or the target's SQL fails on some row; correct that SQL.`,
  targetNotBinary: (name: string, row: number, value: number) =>
    `The target ${name} must be 1, 0 or null (missing) for every row, but row ${row} gives ${value}; derive a binary target, e.g. derivedFeature('up', ['return_pct_1h'], 'return_pct_1h > 0').`,
  /**
   * What the model scores' intervals are (the evaluation's `interval.description`). pooled: how the pooled row of
   * several folds gets its interval (evaluateModel's pooledInterval); undefined: one fold.
   */
  modelIntervalMethod: (confidence: number, blockDays: number, pooled?: { over: PooledIntervalMethod; folds: number; difference?: PooledDifferenceMethod }) =>
    `${Number((confidence * 100).toFixed(2))}% block-jackknife t intervals over ${blockDays}-day blocks of test days (G−1 df, fitted models fixed)${
      pooled === undefined || pooled.folds < 2
        ? ''
        : pooled.over === 'folds'
          ? `; pooled: Nadeau–Bengio corrected resampled t over the ${pooled.folds} folds' scores (${pooled.folds - 1} df)${
              pooled.difference === 'cross-fold'
                ? ", but Δ log loss: the same jackknife over every fold's test days plus the folds' cross-fold term (quantiles of its simulated pivot)"
                : pooled.difference === 'nested'
                  ? `, but Δ log loss: nested cross-validation (Bates, Hastie & Tibshirani; ${pooled.folds - 1} df)`
                  : ''
            }`
          : `; pooled: the same over the ${pooled.folds} folds' test days together`
    }`,
  /** Why some model rows show no interval: too few blocks of test days, and what gives them enough (TooFewBlocksNote). */
  modelTooFewBlocks: (note: TooFewBlocksNote) => {
    const { folds, fewestDays, blockDays, minBlocks, totalDays, advice } = note;
    const pooledRow = note.pooledScores === 'all' ? 'the pooled row' : "the pooled row's Δ log loss";
    const needed = blockDays * minBlocks;
    const blocks = (days: number) => `${Math.ceil(days / blockDays)} block${Math.ceil(days / blockDays) === 1 ? '' : 's'}`;
    const unit = blockDays === 1 ? '1 day' : `${blockDays} days`;
    if (folds === undefined) {
      const more = advice.kind === 'test-days' ? raiseTestDays(advice, Math.ceil(needed / advice.folds)) : `pull ${needed - totalDays}+ more days`;
      return `${capitalised(pooledRow)} shows no interval: its ${totalDays} test days make ${blocks(totalDays)} of ${unit}, and an interval needs ${minBlocks} blocks (${needed} test days); ${more}.`;
    }
    const who = note.allFolds ? 'No fold shows an interval' : `Fold${folds.length === 1 ? '' : 's'} ${folds.join(', ')} show${folds.length === 1 ? 's' : ''} no interval`;
    // Several folds: the count is the shortest one's (the others' may be a day or two longer).
    const shortest = note.allFolds || folds.length > 1 ? " (the shortest fold's)" : '';
    const remedy =
      advice.kind === 'test-days'
        ? raiseTestDays(advice, needed)
        : `give each fold ${needed - fewestDays}+ more test days (${advice.daysNeeded > advice.days ? `pull about ${advice.daysNeeded - advice.days} more days, ${advice.daysNeeded} in all` : 'pull more days'})${advice.mostFolds !== undefined ? `, or use ${advice.mostFolds} fold${advice.mostFolds === 1 ? '' : 's'} or fewer` : ''}`;
    const pooled = note.pooledToo && advice.kind === 'fold-count' ? `; ${pooledRow} has none either (${totalDays} test days): pull ${needed - totalDays}+ more days` : note.pooledToo ? `; ${pooledRow} has none either` : '';
    return `${who}: ${fewestDays} test days${shortest} make ${blocks(fewestDays)} of ${unit}, and an interval needs ${minBlocks} blocks (${needed} test days per fold); ${remedy}${pooled}.`;
  },
  /** Why the pooled row of several folds shows no interval although it has folds enough (pooledOverFolds). */
  modelPooledNoInterval: (folds: number) =>
    `The pooled row shows no interval: over the ${folds} folds a fold's AUC or Δ log loss is undefined (one class only) or every fold scores alike.`,
  /**
   * Folds fitted on no row (purge, embargo or missing values took every other row): they have no scores at all,
   * and neither has the pooled row, which pools every fold's predictions.
   */
  modelFoldsUntrained: (folds: readonly number[], allFolds: boolean) =>
    `${allFolds ? 'No fold has scores' : `Fold${folds.length === 1 ? '' : 's'} ${folds.join(', ')} ha${folds.length === 1 ? 's' : 've'} no scores`}: no row was left to train on (every other row was purged or embargoed around ${folds.length === 1 ? 'its' : 'their'} test days, or misses a value), and the pooled row, which pools every fold, has none either; pull more days.`,
  /** Rows without an interval although blocks suffice: a score undefined or constant without some block. */
  modelIntervalUndefined: (rows: readonly string[]) =>
    `No interval on ${rows.join(', ')}: without one of its blocks a score is undefined (one class left) or every block gives the same score.`,
  modelDataShape: () => 'The model data must hold either rows (one object per row) or columns (one array per predictor), exactly one of them.',
  modelColumnMissing: (name: string, rows: number, length: number | undefined) =>
    length === undefined
      ? `The model data has no column ${name}; pass one array per predictor of the feature set.`
      : `The model data's column ${name} has ${length} value(s) but the first predictor has ${rows}; pass columns of one length.`,
  modelLengthMismatch: (rows: number, targets: number) =>
    `The model got ${rows} feature row(s) but ${targets} target value(s); pass one target per row, in the same order.`,
  /** The calibration sentence of a split the calibration bench does not measure (row k-fold: it runs purged k-fold and walk-forward). */
  calibrationOtherSplit: (note: string, method: string) =>
    `${note} Those figures are for purged k-fold splits; intervals on ${method} splits are not measured.`,
};

/**
 * What modelTooFewBlocks says. `folds`: the folds without an interval (undefined: only the pooled row);
 * `fewestDays`: calendar test days of the shortest of them; `totalDays`: of every fold's test days together.
 */
export interface TooFewBlocksNote {
  readonly folds: readonly number[] | undefined;
  readonly allFolds: boolean;
  readonly fewestDays: number;
  readonly blockDays: number;
  readonly minBlocks: number;
  readonly totalDays: number;
  readonly pooledToo: boolean;
  /** Which of the pooled row's scores the blocks leave without an interval: all, or (k-fold) the Δ log loss only. */
  readonly pooledScores: 'all' | 'log-loss-difference';
  readonly advice: FoldAdvice;
}

