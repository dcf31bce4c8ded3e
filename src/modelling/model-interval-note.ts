// The one sentence a model study says when some of its rows show no interval: which rows, and how many more
// test days per fold (or how few folds) an interval needs.

import type { ResolvedModelInterval, ScoredPredictions } from './model-score-intervals.js';
import { sharedDaysAdvisor, type FoldAdvisor } from './fold-advice.js';
import { modellingMessages } from './messages.js';

/**
 * The sentences for rows without an interval, joined; undefined when every fold and the pooled row have one.
 * @param advisor what gives each fold the test days an interval needs (fold-advice.ts). Default: folds that
 *   share out the pooled test days (k-fold).
 */
export function modelIntervalNote(
  folds: readonly (ScoredPredictions & { readonly fold: number; readonly trainRows?: number })[],
  pooled: ScoredPredictions,
  interval: ResolvedModelInterval,
  advisor: FoldAdvisor = sharedDaysAdvisor(pooled.daySpan),
): string | undefined {
  // A fold fitted on no row has no scores at all, and the pooled row (every fold's predictions) none either:
  // that is their one reason, not the blocks or a class.
  const untrained = folds.filter((fold) => fold.trainRows === 0).map((fold) => fold.fold);
  const trained = folds.filter((fold) => fold.trainRows !== 0);
  const short = trained.filter((fold) => fold.noInterval === 'too_few_blocks');
  const pooledShort = untrained.length === 0 && pooled.noInterval === 'too_few_blocks';
  // The pooled row of several k-folds: its intervals come from the folds' scores, not from blocks (pooledOverFolds),
  // but the cross-fold Δ log loss interval needs the blocks of the test-days jackknife it adds to.
  const pooledOverFolds = untrained.length === 0 && pooled.overFolds !== undefined && pooled.noInterval !== undefined && !pooledShort;
  const sentences: string[] = [];
  if (untrained.length > 0) sentences.push(modellingMessages.modelFoldsUntrained(untrained, untrained.length === folds.length));
  const note = {
    blockDays: interval.blockDays,
    minBlocks: interval.minBlocks,
    totalDays: pooled.daySpan,
    pooledToo: pooledShort,
    pooledScores: pooled.overFolds?.differenceMethod === 'cross-fold' ? ('log-loss-difference' as const) : ('all' as const),
    advice: advisor(interval.blockDays * interval.minBlocks, folds.length),
  };
  if (short.length > 0) {
    sentences.push(modellingMessages.modelTooFewBlocks({ ...note, folds: short.map((fold) => fold.fold), allFolds: short.length === folds.length, fewestDays: Math.min(...short.map((fold) => fold.daySpan)) }));
  } else if (pooledShort) {
    sentences.push(modellingMessages.modelTooFewBlocks({ ...note, folds: undefined, allFolds: false, fewestDays: pooled.daySpan }));
  }
  const undefinedRows = [
    ...trained.filter((fold) => fold.noInterval !== undefined && fold.noInterval !== 'too_few_blocks').map((fold) => `fold ${fold.fold}`),
    ...(untrained.length === 0 && pooled.noInterval !== undefined && !pooledShort && !pooledOverFolds ? ['the pooled row'] : []),
  ];
  if (undefinedRows.length > 0) sentences.push(modellingMessages.modelIntervalUndefined(undefinedRows));
  if (pooledOverFolds) sentences.push(modellingMessages.modelPooledNoInterval(folds.length));
  return sentences.length === 0 ? undefined : sentences.join(' ');
}
