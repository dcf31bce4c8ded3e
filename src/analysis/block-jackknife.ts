// Intervals and p-values of rdw's statistics when rows are not independent: the delete-one-block jackknife
// over contiguous blocks of UTC days, with Student's t at (blocks - 1) degrees of freedom. One method gives
// both the interval and the p-value, so "the interval excludes 0" and "p < 0.05" never disagree. Why this
// method, the block length and the minimum block count: docs/analysis.md "How sure rdw says it is".

import { spreadOf, studentTInterval, type StudentTResult } from './student-t.js';

export { studentTQuantile } from './student-t.js';

/**
 * A block is at least this many outcome windows long (in whole UTC days, at least one day): rows whose
 * windows overlap share price moves, and blocks much longer than a window keep neighbouring blocks nearly
 * independent (calibrated on simulated markets: docs/analysis.md).
 */
export const BLOCK_WINDOW_MULTIPLE = 2;

/** Fewer blocks than this give no interval: the t interval's own error is too large below it (calibrated). */
export const MIN_INTERVAL_BLOCKS = 8;

const DAY_SECONDS = 86_400;

/** Whole UTC days per block for an outcome window of `windowSeconds`: max(1, ceil(multiple * window / 1 day)). */
export function intervalBlockDays(windowSeconds: number, multiple = BLOCK_WINDOW_MULTIPLE): number {
  return Math.max(1, Math.ceil((multiple * windowSeconds) / DAY_SECONDS - 1e-9));
}

/** UTC days a sample needs for `minBlocks` blocks of `blockDays` days. */
export function daysForInterval(blockDays: number, minBlocks = MIN_INTERVAL_BLOCKS): number {
  return blockDays * minBlocks;
}

/** More UTC days a sample of `days` days needs before `minBlocks` blocks of `blockDays` days fit (0 when they do). */
export function moreDaysForInterval(days: number, blockDays: number, minBlocks = MIN_INTERVAL_BLOCKS): number {
  return Math.max(0, daysForInterval(blockDays, minBlocks) - days);
}

/**
 * Block index of each day: floor((day - firstDay) / blockDays), renumbered 0..G-1 over the blocks that hold
 * at least one day (an empty block holds no rows and is no observation).
 * @param dayNumbers each row's (or cluster's) day as an integer (e.g. days since 1970-01-01)
 * @param firstDay the day block 0 starts on (e.g. the study's first day, so blocks follow the calendar
 *   whichever days hold rows). Default: the earliest of dayNumbers.
 * @returns `block` (same length as dayNumbers) and `count` (G)
 */
export function assignDayBlocks(dayNumbers: ArrayLike<number>, blockDays: number, firstDay?: number): { block: Int32Array; count: number } {
  const block = new Int32Array(dayNumbers.length);
  if (dayNumbers.length === 0) return { block, count: 0 };
  let first = Infinity;
  for (let i = 0; i < dayNumbers.length; i += 1) first = Math.min(first, dayNumbers[i]!);
  if (firstDay !== undefined) first = firstDay;
  const raw = new Map<number, number>();
  for (let i = 0; i < dayNumbers.length; i += 1) raw.set(Math.floor((dayNumbers[i]! - first) / blockDays), 0);
  const ordered = [...raw.keys()].sort((a, b) => a - b);
  ordered.forEach((key, index) => raw.set(key, index));
  for (let i = 0; i < dayNumbers.length; i += 1) block[i] = raw.get(Math.floor((dayNumbers[i]! - first) / blockDays))!;
  return { block, count: ordered.length };
}

/**
 * A block-jackknife interval with its test, or why there is none: `too_few_blocks` (fewer than the minimum),
 * `not_estimable` (a leave-one-out value is missing), `no_variation` (every leave-one-out value is equal).
 */
export type BlockInterval = StudentTResult<'blocks', 'too_few_blocks' | 'not_estimable' | 'no_variation'>;

/** Options of blockJackknifeInterval. */
export interface BlockJackknifeOptions {
  /** Interval level, strictly between 0 and 1. Default 0.95. */
  readonly confidence?: number;
  /** The value the p-value tests against (0 for a difference, 0.5 for an AUC). Default 0. */
  readonly nullValue?: number;
  /** Fewer leave-one-out values than this give no interval. Default MIN_INTERVAL_BLOCKS. */
  readonly minBlocks?: number;
}

/**
 * The delete-one-block jackknife t interval of a statistic: with G blocks and θ₍₋g₎ the statistic computed
 * without block g, SE² = (G−1)/G · Σ (θ₍₋g₎ − mean θ₍₋·₎)², and the interval is θ̂ ± t(G−1, 1−α/2) · SE,
 * centred on the full-sample estimate θ̂; p = 2 · P(T(G−1) ≥ |θ̂ − null| / SE).
 * @param estimate the statistic on every row
 * @param leaveOneOut the statistic without each block in turn (length G)
 */
export function blockJackknifeInterval(estimate: number, leaveOneOut: ArrayLike<number>, options: BlockJackknifeOptions = {}): BlockInterval {
  const confidence = options.confidence ?? 0.95;
  const nullValue = options.nullValue ?? 0;
  const minBlocks = Math.max(2, options.minBlocks ?? MIN_INTERVAL_BLOCKS);
  const g = leaveOneOut.length;
  if (g < minBlocks) return { kind: 'none', reason: 'too_few_blocks', blocks: g };
  if (!Number.isFinite(estimate)) return { kind: 'none', reason: 'not_estimable', blocks: g };
  const spread = spreadOf(leaveOneOut);
  if (spread === undefined) return { kind: 'none', reason: 'not_estimable', blocks: g };
  const standardError = Math.sqrt(((g - 1) / g) * spread.squares);
  if (!(standardError > 0)) return { kind: 'none', reason: 'no_variation', blocks: g };
  const degreesOfFreedom = g - 1;
  const { low, high, pValue } = studentTInterval(estimate, standardError, degreesOfFreedom, { confidence, nullValue });
  return {
    kind: 'interval',
    low,
    high,
    pValue,
    standardError,
    blocks: g,
    degreesOfFreedom,
  };
}
