// Candles and derivative observations of one pair as a snapshot at time `t` sees them (archived by `t`).

import { CANDLE_SECONDS, type MarketSymbol } from '../../contract/index.js';
import { DAY_SECONDS, dayOf, dayStart } from '../releases/check-times.js';
import type { ResearchCandle, ResearchDerivativeObservation, ResearchSimulator } from './research-simulator.js';

/** UTC days from the one holding `from` to the one holding `to`, never before the simulator's first day. */
function daysBetween(simulator: ResearchSimulator, from: number, to: number): string[] {
  const days: string[] = [];
  const first = dayStart(simulator.options.firstDay);
  for (let start = Math.max(dayStart(dayOf(from)), first); start <= to; start += DAY_SECONDS) days.push(dayOf(start));
  return days;
}

/**
 * Valid candles (not missing, not an invalid price) that closed in `(from, t]` and were archived by `t`,
 * oldest first.
 */
export function observedCandles(simulator: ResearchSimulator, symbol: MarketSymbol, from: number, t: number): ResearchCandle[] {
  const candles: ResearchCandle[] = [];
  // close_time in (from, t] means open_time in (from - 300, t - 300]: only the days holding those opens.
  for (const day of daysBetween(simulator, from - CANDLE_SECONDS, t - CANDLE_SECONDS)) {
    for (const candle of simulator.candles(symbol, day)) {
      if (candle.missing || candle.invalid_price) continue;
      if (candle.close_time <= from || candle.close_time > t || candle.archived_at > t) continue;
      candles.push(candle);
    }
  }
  return candles.sort((a, b) => a.open_time - b.open_time);
}

/** Derivative observations with a bucket in `(from, t]` available by `t`, oldest first. */
export function observedDerivatives(
  simulator: ResearchSimulator,
  symbol: MarketSymbol,
  from: number,
  t: number,
): ResearchDerivativeObservation[] {
  const observations: ResearchDerivativeObservation[] = [];
  for (const day of daysBetween(simulator, from, t)) {
    for (const observation of simulator.derivativeObservations(symbol, day)) {
      if (observation.bucket_time <= from || observation.bucket_time > t || observation.available_at > t) continue;
      observations.push(observation);
    }
  }
  return observations.sort((a, b) => a.bucket_time - b.bucket_time);
}

/** The newest element whose time is at or before `t` (the list is sorted by that time). */
export function latestAtOrBefore<T>(list: readonly T[], time: (item: T) => number, t: number): T | undefined {
  for (let index = list.length - 1; index >= 0; index -= 1) {
    const item = list[index]!;
    if (time(item) <= t) return item;
  }
  return undefined;
}
