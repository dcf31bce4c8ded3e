// Walk-forward splits by UTC day: each test block is a run of days, trained on the days before it (all of
// them, or a rolling window), with the training rows whose label interval reaches into the test purged.

import { AnalysisOptionError, type AnalysisSourceLike } from '../analysis/index.js';
import { readSplitRows } from './split-rows.js';
import { buildSplit, dayStarts, resolveCount, resolveTimeSplitOptions, timeSplits, type TimeSplitOptions, type TimeSplits } from './time-splits.js';
import { modellingMessages } from './messages.js';

export interface WalkForwardOptions extends TimeSplitOptions {
  /** Number of test blocks, the last `folds × testDays` days holding eligible rows, >= 1. Default 5. */
  folds?: number;
  /** Days per test block, >= 1. Default floor(days / (folds + 1)) (scikit-learn's TimeSeriesSplit). */
  testDays?: number;
  /** Rolling train window: the last `trainDays` days before the test block. Default undefined: expanding (every earlier day). */
  trainDays?: number;
}

/**
 * Walk-forward splits of the eligible rows (point-in-time, complete outcome at the window). The last
 * `folds × testDays` days holding eligible rows are cut into `folds` test blocks of `testDays` days; fold f
 * trains on the days before its block (or the last `trainDays` of them), minus the rows whose label interval
 * [sample_time, label end] reaches the test span's start (purged: the last W before the block). Nothing after a
 * test block trains, so there is no embargo. Deterministic: no randomness.
 * @throws MixedCalculationVersionsError (unless allowMixedCalculationVersions), AnalysisOptionError (unknown window, folds < 1, testDays/trainDays < 1, too few days), ReleaseNotInCatalogError, EmptyStudyError
 */
export async function walkForwardSplits(source: AnalysisSourceLike, options: WalkForwardOptions = {}): Promise<TimeSplits> {
  // 1. options
  const { window, releases, rowOptions } = resolveTimeSplitOptions(options);
  const folds = resolveCount('folds', options.folds, 5, 1)!;
  const givenTestDays = resolveCount('testDays', options.testDays, undefined, 1);
  const trainDays = resolveCount('trainDays', options.trainDays, undefined, 1);
  // 2. eligible rows (DuckDB), left-out counts by reason
  const selection = await readSplitRows(source, window, releases, rowOptions);
  const { rows } = selection;
  const days = rows.days.length;
  const testDays = givenTestDays ?? Math.floor(days / (folds + 1));
  if (testDays < 1 || days < folds * testDays + 1) {
    throw new AnalysisOptionError(modellingMessages.tooFewSplitDays(days, window, folds, givenTestDays ?? 1), { option: givenTestDays === undefined ? 'folds' : 'testDays' });
  }
  // 3. test blocks at the end; train on earlier days only (a rolling window: the last trainDays of them)
  const starts = dayStarts(rows);
  const splits = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const firstTestDay = days - (folds - fold) * testDays;
    const firstTrainDay = trainDays === undefined ? 0 : Math.max(0, firstTestDay - trainDays);
    const candidate = (index: number) => {
      const day = rows.dayIndex[index]!;
      return day >= firstTrainDay && day < firstTestDay;
    };
    // 4. purge (no embargo: nothing after the block is a candidate)
    splits.push(buildSplit(selection, fold + 1, starts[firstTestDay]!, starts[firstTestDay + testDays]!, 0, candidate));
  }
  return timeSplits('walk-forward', selection, 0, splits);
}
