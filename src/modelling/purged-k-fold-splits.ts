// Purged k-fold with embargo (López de Prado, Advances in Financial Machine Learning, ch. 7) over UTC days:
// k contiguous day blocks are the test folds; training rows whose label interval overlaps a fold are purged,
// and rows just after it are embargoed.

import { WINDOW_SECONDS } from '../contract/index.js';
import { AnalysisOptionError, type AnalysisSourceLike } from '../analysis/index.js';
import { readSplitRows, type SplitRowTable } from './split-rows.js';
import { buildSplit, dayStarts, resolveCount, resolveTimeSplitOptions, timeSplits, type TimeSplitOptions, type TimeSplits } from './time-splits.js';
import { modellingMessages } from './messages.js';

/** Share of the rows' time span used as the default embargo (López de Prado's h ≈ 0.01 T). */
export const DEFAULT_EMBARGO_SHARE = 0.01;

export interface PurgedKFoldOptions extends TimeSplitOptions {
  /** Number of folds k (contiguous blocks of UTC days, each the test set once), >= 2. Default 5. */
  folds?: number;
  /**
   * Seconds after each test span's end (its last label end) whose rows are kept out of training. Default
   * `'auto'`: max(1% of the rows' span — first sample_time to last label end —, W), rounded up to a second.
   */
  embargoSeconds?: number | 'auto';
}

/** The embargo `'auto'` gives: max(1% of the span, W) seconds, rounded up. */
export function defaultEmbargoSeconds(rows: SplitRowTable, windowSeconds: number): number {
  let end = -Infinity;
  for (const value of rows.labelEnd) end = Math.max(end, value);
  const span = end - rows.sampleTime[0]!;
  return Math.ceil(Math.max(DEFAULT_EMBARGO_SHARE * span, windowSeconds));
}

/**
 * Purged k-fold splits of the eligible rows (point-in-time, complete outcome at the window) by UTC day.
 * Fold f tests the f-th of k contiguous blocks of days holding eligible rows (the first `days % k` blocks one
 * day longer); every other row trains unless its label interval [sample_time, label end] overlaps the test
 * span [first test sample_time, last test label end] (purged) or its sample_time falls in the embargo after
 * that span (embargoed). Deterministic: no randomness, rows in (sample_time, release_id, row_id) order.
 * @throws MixedCalculationVersionsError (unless allowMixedCalculationVersions), AnalysisOptionError (unknown window, folds < 2, bad embargo, fewer days than folds), ReleaseNotInCatalogError, EmptyStudyError
 */
export async function purgedKFoldSplits(source: AnalysisSourceLike, options: PurgedKFoldOptions = {}): Promise<TimeSplits> {
  // 1. options
  const { window, releases, rowOptions } = resolveTimeSplitOptions(options);
  const folds = resolveCount('folds', options.folds, 5, 2)!;
  const embargoOption = options.embargoSeconds ?? 'auto';
  if (embargoOption !== 'auto' && (typeof embargoOption !== 'number' || !Number.isFinite(embargoOption) || embargoOption < 0)) {
    throw new AnalysisOptionError(modellingMessages.badEmbargo(String(embargoOption)), { option: 'embargoSeconds' });
  }
  // 2. eligible rows (DuckDB), left-out counts by reason
  const selection = await readSplitRows(source, window, releases, rowOptions);
  const { rows } = selection;
  const days = rows.days.length;
  if (days < folds) throw new AnalysisOptionError(modellingMessages.tooFewSplitDays(days, window, folds, undefined), { option: 'folds' });
  const windowSeconds = WINDOW_SECONDS[window];
  const embargoSeconds = embargoOption === 'auto' ? defaultEmbargoSeconds(rows, windowSeconds) : embargoOption;
  // 3. k contiguous day blocks; the rows of a block are one index range (rows are in time order)
  const starts = dayStarts(rows);
  const splits = [];
  let firstDay = 0;
  for (let fold = 0; fold < folds; fold += 1) {
    const length = Math.floor(days / folds) + (fold < days % folds ? 1 : 0);
    // 4. purge and embargo around this block
    const split = buildSplit(selection, fold + 1, starts[firstDay]!, starts[firstDay + length]!, embargoSeconds);
    // A given embargo past the rows' end leaves the first fold nothing to train on: refused, not a fold without
    // scores. 'auto' (at least W) may do so on a short span at 7d: that fold then shows no scores, as before.
    if (embargoOption !== 'auto' && split.train.length === 0 && split.embargoed > 0) {
      const auto = defaultEmbargoSeconds(rows, windowSeconds);
      throw new AnalysisOptionError(modellingMessages.embargoLeavesNoTraining(fold + 1, embargoSeconds, split.embargoed, auto), { option: 'embargoSeconds' });
    }
    splits.push(split);
    firstDay += length;
  }
  return timeSplits('purged-k-fold', selection, embargoSeconds, splits);
}
