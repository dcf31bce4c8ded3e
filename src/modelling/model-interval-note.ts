// The one sentence a model study says when some of its rows show no interval: which rows, and how many more
// test days per fold (or how few folds) an interval needs.

import type { ResolvedModelInterval, ScoredPredictions } from './model-score-intervals.js';
import { modellingMessages } from './messages.js';

/** The sentences for rows without an interval, joined; undefined when every fold and the pooled row have one. */
export function modelIntervalNote(
  folds: readonly (ScoredPredictions & { readonly fold: number })[],
  pooled: ScoredPredictions,
  interval: ResolvedModelInterval,
): string | undefined {
  const short = folds.filter((fold) => fold.noInterval === 'too_few_blocks');
  const pooledShort = pooled.noInterval === 'too_few_blocks';
  // The pooled row of several folds: its interval comes from the folds' scores, not from blocks (pooledOverFolds).
  const pooledOverFolds = pooled.overFolds !== undefined && pooled.noInterval !== undefined;
  const sentences: string[] = [];
  if (short.length > 0) {
    const fewest = Math.min(...short.map((fold) => fold.daySpan));
    sentences.push(
      modellingMessages.modelTooFewBlocks(
        short.map((fold) => fold.fold),
        short.length === folds.length,
        fewest,
        interval.blockDays,
        interval.minBlocks,
        pooled.daySpan,
        pooledShort,
      ),
    );
  } else if (pooledShort) {
    sentences.push(modellingMessages.modelTooFewBlocks(undefined, false, pooled.daySpan, interval.blockDays, interval.minBlocks, pooled.daySpan, true));
  }
  const undefinedRows = [
    ...folds.filter((fold) => fold.noInterval !== undefined && fold.noInterval !== 'too_few_blocks').map((fold) => `fold ${fold.fold}`),
    ...(pooled.noInterval !== undefined && !pooledShort && !pooledOverFolds ? ['the pooled row'] : []),
  ];
  if (undefinedRows.length > 0) sentences.push(modellingMessages.modelIntervalUndefined(undefinedRows));
  if (pooledOverFolds) sentences.push(modellingMessages.modelPooledNoInterval(folds.length));
  return sentences.length === 0 ? undefined : sentences.join(' ');
}
