// The `volatility-regime` snapshot: annualized realized volatility of 5-minute returns and a regime per pair.

import { CANDLE_SECONDS, SYMBOLS, type ResearchDatasetSpec } from '../../contract/index.js';
import { DAY_SECONDS } from '../releases/check-times.js';
import { newest } from './market-breadth.js';
import { observedCandles } from './observed-series.js';
import type { ResearchCalculation, ResearchItem } from './research-snapshot.js';
import type { ResearchSimulator } from './research-simulator.js';
import { roundTo } from './round-to.js';

const WEEK_SECONDS = 7 * DAY_SECONDS;
/** Daily 7-day volatilities compared against for the regime (the pair's own history). */
export const REGIME_HISTORY_DAYS = 28;
/** Fewer history points than this leave the regime null. */
const MIN_HISTORY = 7;
const ANNUALIZATION = Math.sqrt((365 * DAY_SECONDS) / CANDLE_SECONDS);

interface LogReturn {
  time: number;
  squared: number;
}

/** Annualized realized volatility in percent of the returns in `(start, end]`; null below half coverage. */
function realizedVolatility(returns: readonly LogReturn[], start: number, end: number): number | null {
  let sum = 0;
  let count = 0;
  for (const r of returns) {
    if (r.time > start && r.time <= end) {
      sum += r.squared;
      count += 1;
    }
  }
  if (count < (end - start) / CANDLE_SECONDS / 2) return null;
  return Math.sqrt(sum / count) * ANNUALIZATION * 100;
}

/**
 * One item per pair: realized volatility over 24 hours and 7 days up to the last valid candle archived
 * by `t` (log returns of adjacent valid 5-minute candles, annualized, percent), and a regime from the
 * percentile of the 7-day value among the pair's 7-day values at each of the previous 28 days:
 * below 25 % `calm`, above 75 % `turbulent`, else `normal`; null with fewer than 7 history points.
 */
export function volatilityRegime(simulator: ResearchSimulator, spec: ResearchDatasetSpec, t: number): ResearchCalculation {
  const items: ResearchItem[] = [];
  const regimes = { calm: 0, normal: 0, turbulent: 0 };
  for (const symbol of SYMBOLS) {
    const candles = observedCandles(simulator, symbol, t - WEEK_SECONDS - REGIME_HISTORY_DAYS * DAY_SECONDS, t);
    const returns: LogReturn[] = [];
    for (let index = 1; index < candles.length; index += 1) {
      const previous = candles[index - 1]!;
      const candle = candles[index]!;
      if (candle.open_time - previous.open_time !== CANDLE_SECONDS) continue;
      const r = Math.log(candle.close / previous.close);
      returns.push({ time: candle.close_time, squared: r * r });
    }
    const last = candles.at(-1);
    const end = last?.close_time ?? t;
    const vol24 = last ? realizedVolatility(returns, end - DAY_SECONDS, end) : null;
    const vol7 = last ? realizedVolatility(returns, end - WEEK_SECONDS, end) : null;
    let regime: 'calm' | 'normal' | 'turbulent' | null = null;
    if (vol7 !== null) {
      const history: number[] = [];
      for (let day = 1; day <= REGIME_HISTORY_DAYS; day += 1) {
        const value = realizedVolatility(returns, end - day * DAY_SECONDS - WEEK_SECONDS, end - day * DAY_SECONDS);
        if (value !== null) history.push(value);
      }
      if (history.length >= MIN_HISTORY) {
        const percentile = history.filter((value) => value < vol7).length / history.length;
        regime = percentile < 0.25 ? 'calm' : percentile > 0.75 ? 'turbulent' : 'normal';
        regimes[regime] += 1;
      }
    }
    items.push({
      symbol,
      realized_vol_24h_pct: roundTo(vol24, 4),
      realized_vol_7d_pct: roundTo(vol7, 4),
      regime,
      source_time: last ? last.close_time : null,
      calculation_version: spec.calculation_version,
    });
  }
  return {
    items,
    summary: { ...regimes, unclassified: SYMBOLS.length - regimes.calm - regimes.normal - regimes.turbulent },
    window: { start: t - WEEK_SECONDS, end: t, lookback_seconds: WEEK_SECONDS },
    updated: newest(items),
  };
}
