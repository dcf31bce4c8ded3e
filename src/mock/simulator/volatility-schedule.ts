// Market-wide volatility schedule: multi-day regimes, intraday seasonality and intraday bursts, all O(1)
// per day from the seed (no day depends on another), so any day can be generated on its own.

import { randomStream } from '../../base/index.js';

/** 5-minute bars per UTC day. */
export const BARS_PER_DAY = 288;
/** Days per volatility regime block. */
const REGIME_BLOCK_DAYS = 5;

/** Intraday volatility (and volume) shape: quiet Asian night, busy US/EU overlap; mean square 1. */
const SEASONAL: Float64Array = (() => {
  const shape = new Float64Array(BARS_PER_DAY);
  let sumSquares = 0;
  for (let i = 0; i < BARS_PER_DAY; i++) {
    const hour = (i + 0.5) / 12;
    const value = 0.8 + 0.45 * Math.exp(-(((hour - 14.5) / 3) ** 2)) + 0.15 * Math.exp(-(((hour - 1) / 2) ** 2));
    shape[i] = value;
    sumSquares += value * value;
  }
  const norm = Math.sqrt(sumSquares / BARS_PER_DAY);
  for (let i = 0; i < BARS_PER_DAY; i++) shape[i] = (shape[i] as number) / norm;
  return shape;
})();

/** The market-wide volatility of one day, shared by all pairs. */
export interface DaySchedule {
  /** Regime multiplier of the day (calm 0.7, normal 1, turbulent 1.7). */
  readonly regime: number;
  /** Per-bar multiplier of the daily volatility: seasonality x regime x burst; sum of squares / 288 = variance factor. */
  readonly barMultiplier: Float64Array;
  /** Per-bar multiplier of volume: seasonality x regime (news bursts move prices, not the volume baseline). */
  readonly volumeMultiplier: Float64Array;
  /** Sum over bars of barMultiplier^2 / 288: the day's variance relative to a normal day. */
  readonly varianceFactor: number;
}

/** Regime multiplier of a day (constant over blocks of five days). */
export function regimeOf(seed: number, dayNumber: number): number {
  const random = randomStream(seed, 'regime', Math.floor(dayNumber / REGIME_BLOCK_DAYS));
  const draw = random.next();
  return draw < 0.35 ? 0.7 : draw < 0.82 ? 1 : 1.7;
}

/** The schedule of a day. */
export function daySchedule(seed: number, dayNumber: number): DaySchedule {
  const regime = regimeOf(seed, dayNumber);
  const random = randomStream(seed, 'burst', dayNumber);
  const barMultiplier = new Float64Array(BARS_PER_DAY);
  for (let i = 0; i < BARS_PER_DAY; i++) barMultiplier[i] = (SEASONAL[i] as number) * regime;
  const volumeMultiplier = Float64Array.from(barMultiplier);
  // A news burst on ~30% of days: 30 minutes to 3 hours of doubled volatility.
  if (random.chance(0.3)) {
    const length = random.integer(6, 36);
    const start = random.integer(0, BARS_PER_DAY - length);
    const factor = random.uniform(1.8, 2.6);
    for (let i = start; i < start + length; i++) barMultiplier[i] = (barMultiplier[i] as number) * factor;
  }
  let sumSquares = 0;
  for (let i = 0; i < BARS_PER_DAY; i++) sumSquares += (barMultiplier[i] as number) ** 2;
  return { regime, barMultiplier, volumeMultiplier, varianceFactor: sumSquares / BARS_PER_DAY };
}

