// The naive split, kept for comparison only: k folds over the rows shuffled with a seed, time ignored. A
// training row sampled minutes from a test row shares most of its label window, so scores come out too high;
// docs/modelling.md measures by how much.

import { seededRandom } from '../base/index.js';
import type { AnalysisSourceLike } from '../analysis/index.js';
import { readSplitRows, splitReleaseIds } from './split-rows.js';
import { resolveCount, resolveTimeSplitOptions, type TimeSplit, timeSplits, type TimeSplitOptions, type TimeSplits } from './time-splits.js';

export interface RowKFoldOptions extends TimeSplitOptions {
  /** Number of folds k, >= 2. Default 5. */
  folds?: number;
  /** mulberry32 seed of the shuffle. Default 1. */
  seed?: number;
}

/**
 * Row k-fold splits of the eligible rows (point-in-time, complete outcome at the window): the rows are shuffled
 * (Fisher–Yates, mulberry32 `seed`) and dealt into k folds by position; fold f tests its rows and trains on all
 * others. Nothing is purged or embargoed: this is the leaking baseline purged k-fold is measured against.
 * @throws as purgedKFoldSplits (no embargo option)
 */
export async function rowKFoldSplits(source: AnalysisSourceLike, options: RowKFoldOptions = {}): Promise<TimeSplits> {
  const { window, releases, rowOptions } = resolveTimeSplitOptions(options);
  const folds = resolveCount('folds', options.folds, 5, 2)!;
  const seed = resolveCount('seed', options.seed, 1, 0)!;
  const selection = await readSplitRows(source, window, releases, rowOptions);
  const { rows } = selection;
  const count = rows.sampleTime.length;
  const random = seededRandom(seed);
  const order = Uint32Array.from({ length: count }, (_, index) => index);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    const swap = order[i]!;
    order[i] = order[j]!;
    order[j] = swap;
  }
  // Fold of each row (Uint32: any number of folds), and each fold's size, so its arrays are filled in place.
  const foldOf = new Uint32Array(count);
  const sizes = new Uint32Array(folds);
  order.forEach((row, position) => {
    foldOf[row] = position % folds;
    sizes[position % folds] = sizes[position % folds]! + 1;
  });
  const splits: TimeSplit[] = [];
  for (let fold = 0; fold < folds; fold += 1) {
    const testIndices = new Uint32Array(sizes[fold]!);
    const trainIndices = new Uint32Array(count - sizes[fold]!);
    for (let index = 0, tested = 0, trained = 0; index < count; index += 1) {
      if (foldOf[index] === fold) testIndices[tested++] = index;
      else trainIndices[trained++] = index;
    }
    splits.push({
      fold: fold + 1,
      train: trainIndices,
      test: testIndices,
      testDays: [...new Set(Array.from(testIndices, (index) => rows.dayIndex[index]!))].map((day) => rows.days[day]!),
      testSpan: { start: rows.sampleTime[testIndices[0]!] ?? Number.NaN, end: testIndices.reduce((end, index) => Math.max(end, rows.labelEnd[index]!), -Infinity) },
      trainReleaseIds: splitReleaseIds(rows, trainIndices),
      testReleaseIds: splitReleaseIds(rows, testIndices),
      purged: 0,
      embargoed: 0,
      unused: 0,
    });
  }
  return timeSplits('row-k-fold', selection, 0, splits);
}
