// When a row last changed as of `asOf`: the input of a release's `generated_at` (first check that saw its content).

import { WINDOWS, WINDOW_SECONDS, type MarketEventRow } from '../../contract/index.js';
import type { BarSeries } from './bar-series.js';
import { BAR_SECONDS } from './day-candles.js';

/** Windows longest first: the longest resolved window contains every shorter one (same reference_start). */
const LONGEST_FIRST = [...WINDOWS].map((window) => WINDOW_SECONDS[window]).sort((a, b) => b - a);

/**
 * The latest time at or before `asOf` (UTC Unix seconds) at which `row` changed: the row as of T equals
 * the row as of `asOf` exactly for T in [result, asOf]. A row depends on T only through conditions of the
 * form `x <= T`, each of which changes the row when it flips:
 * - the row exists once `sample_time <= T`;
 * - its features use bars archived by T: the selected bar (retrospective) and the 20 prior bars of
 *   `volume_ratio_20`; the latest of those archive times is `feature_available_at`;
 * - a window stops being pending at reference_start + W, then each of its bars archived later lowers the
 *   gap's `missing_candles` (or completes it).
 * @param series the pair's bars covering the row's windows (as `dayRows` uses them).
 */
export function rowChangedAt(row: MarketEventRow, series: BarSeries, asOf: number): number {
  let latest = row.sample_time;
  if (row.feature_available_at !== null && row.feature_available_at > latest) latest = row.feature_available_at;
  const start = row.reference_start;
  for (const seconds of LONGEST_FIRST) {
    const end = start + seconds;
    if (end > asOf) continue; // pending at asOf, so at every earlier T too
    const first = series.indexAt(start);
    const resolved = series.latestArchival(first, first + seconds / BAR_SECONDS, asOf, end);
    return resolved > latest ? resolved : latest;
  }
  return latest;
}
