// Why a window's groups have no interval: its own file so that messages.ts can type its sentence with it
// (event-study-result.ts imports the options, which import the messages).

import type { Window } from '../contract/index.js';

/** A window's groups without an interval, and why (analysisMessages.noIntervalAt says it in one sentence). */
export interface IntervalGap {
  window: Window;
  /**
   * `too_few_blocks`: the window's days make fewer jackknife blocks than MIN_INTERVAL_BLOCKS; `not_estimable`:
   * leaving one block out leaves no complete event or control return; `no_variation`: every block (or draw) gives the same difference.
   */
  reason: 'too_few_blocks' | 'not_estimable' | 'no_variation';
  /** Groups of the window without an interval for this reason. */
  groups: number;
  /** Groups of the window with a difference (with or without an interval). */
  windowGroups: number;
  /** UTC days from the study's first day to the last day with a complete return of the window (the group with the most). */
  days: number;
  /** Jackknife blocks those days make. */
  blocks: number;
  /** UTC days per block at this window. */
  blockDays: number;
  /** Blocks an interval needs (MIN_INTERVAL_BLOCKS). */
  minBlocks: number;
  /** More UTC days the window needs for an interval (too_few_blocks). */
  moreDays: number;
  /** UTC days the window needs in all (daysForInterval). */
  daysNeeded: number;
}
