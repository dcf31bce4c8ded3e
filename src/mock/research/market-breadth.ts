// The `market-breadth` snapshot: last price, 24-hour change (percent) and 24-hour turnover of each pair.

import { BASE_ASSET, SPOT_VENUE, SYMBOLS, type ResearchDatasetSpec } from '../../contract/index.js';
import { DAY_SECONDS } from '../releases/check-times.js';
import { latestAtOrBefore, observedCandles } from './observed-series.js';
import type { ResearchCalculation, ResearchItem } from './research-snapshot.js';
import type { ResearchSimulator } from './research-simulator.js';
import { roundTo } from './round-to.js';

/** Tolerance for the 24-hour reference price: the last close at most this long before `source_time - 24h`. */
const REFERENCE_TOLERANCE_SECONDS = 1800;

/**
 * One item per pair from the candles archived by `t`: `price` is the last valid close, `source_time`
 * its close time, `change_24h` = 100 * (price / close 24 hours earlier - 1), `volume_24h` the summed
 * quote volume of the valid candles in the 24 hours up to `source_time`. Null where no valid candle.
 */
export function marketBreadth(simulator: ResearchSimulator, spec: ResearchDatasetSpec, t: number): ResearchCalculation {
  const items: ResearchItem[] = [];
  const changes: number[] = [];
  for (const symbol of SYMBOLS) {
    const candles = observedCandles(simulator, symbol, t - 2 * DAY_SECONDS, t);
    const last = candles.at(-1);
    let change: number | null = null;
    let volume: number | null = null;
    if (last) {
      const reference = latestAtOrBefore(candles, (candle) => candle.close_time, last.close_time - DAY_SECONDS);
      if (reference && reference.close_time >= last.close_time - DAY_SECONDS - REFERENCE_TOLERANCE_SECONDS) {
        change = roundTo(100 * (last.close / reference.close - 1), 4);
      }
      volume = roundTo(
        candles.filter((candle) => candle.close_time > last.close_time - DAY_SECONDS).reduce((sum, candle) => sum + candle.quote_volume, 0),
        2,
      );
    }
    if (change !== null) changes.push(change);
    items.push({
      symbol,
      base: BASE_ASSET[symbol],
      source: SPOT_VENUE,
      price: last ? last.close : null,
      change_24h: change,
      volume_24h: volume,
      source_time: last ? last.close_time : null,
      calculation_version: spec.calculation_version,
    });
  }
  const sorted = [...changes].sort((a, b) => a - b);
  const median =
    sorted.length === 0 ? null : sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return {
    items,
    summary: {
      pairs_observed: items.filter((item) => item.price !== null).length,
      advancing: changes.filter((change) => change > 0).length,
      declining: changes.filter((change) => change < 0).length,
      unchanged: changes.filter((change) => change === 0).length,
      median_change_24h: roundTo(median, 4),
    },
    window: { start: t - DAY_SECONDS, end: t, lookback_seconds: DAY_SECONDS },
    updated: newest(items),
  };
}

/** Newest `source_time` among items; null when none has one. */
export function newest(items: readonly ResearchItem[], column = 'source_time'): number | null {
  let result: number | null = null;
  for (const item of items) {
    const value = item[column];
    if (typeof value === 'number' && (result === null || value > result)) result = value;
  }
  return result;
}
