// The one dispatch from a split method's name to the function that splits: modelStudy and splitCatalog both run
// through it. Keyed by the contract's SPLIT_METHODS, so the methods listed and the methods run are the same.

import { MODEL_SPLIT_METHODS, isSplitMethod, type ModelSplitMethod } from '../contract/index.js';
import { AnalysisOptionError, type AnalysisSourceLike } from '../analysis/index.js';
import { purgedKFoldSplits, type PurgedKFoldOptions } from './purged-k-fold-splits.js';
import { rowKFoldSplits, type RowKFoldOptions } from './row-k-fold-splits.js';
import type { TimeSplits } from './time-splits.js';
import { walkForwardSplits, type WalkForwardOptions } from './walk-forward-splits.js';
import { modellingMessages } from './messages.js';

/** A split method and all its options: `{ method: 'purged-k-fold', folds: 5 }`, `{ method: 'walk-forward', trainDays: 30 }`. */
export type SplitMethodOptions =
  | ({ method: 'purged-k-fold' } & PurgedKFoldOptions)
  | ({ method: 'walk-forward' } & WalkForwardOptions)
  | ({ method: 'row-k-fold' } & RowKFoldOptions);

type SplitFunction<M extends ModelSplitMethod> = (source: AnalysisSourceLike, options: Extract<SplitMethodOptions, { method: M }>) => Promise<TimeSplits>;

/** The function of each split method. */
export const SPLIT_FUNCTIONS: { readonly [M in ModelSplitMethod]: SplitFunction<M> } = {
  'purged-k-fold': purgedKFoldSplits,
  'walk-forward': walkForwardSplits,
  'row-k-fold': rowKFoldSplits,
};

/**
 * Runs the split method `options.method` names. `option` names the method's option in the error.
 * @throws AnalysisOptionError for a method not in SPLIT_METHODS; the errors of the method
 */
export function runSplitMethod(source: AnalysisSourceLike, options: SplitMethodOptions, option = 'method'): Promise<TimeSplits> {
  if (!isSplitMethod(options.method)) {
    throw new AnalysisOptionError(modellingMessages.badSplitMethod(String(options.method), MODEL_SPLIT_METHODS), { option });
  }
  return (SPLIT_FUNCTIONS[options.method] as SplitFunction<ModelSplitMethod>)(source, options);
}
