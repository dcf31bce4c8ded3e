// One pair's 5-minute candles of one UTC day: a bridged log path between two daily anchors, intraday
// volume seasonality, taker-buy share, and the archive's imperfections (outages, invalid prices, late writes).

import type { MarketSymbol } from '../../contract/index.js';
import { MARKET_CORRELATION, type AnchorWalk } from './anchor-walk.js';
import { MARKET_PROFILES } from './market-profiles.js';
import { clamp, round } from './numbers.js';
import { randomStream } from '../../base/index.js';
import { DAY_SECONDS } from './utc-day.js';
import { BARS_PER_DAY, daySchedule } from './volatility-schedule.js';

/** Candle length, seconds. */
export const BAR_SECONDS = 300;

/** A day of candles as columns (index = bar of the day, open_time = dayStart + 300 * index). */
export interface DayCandles extends CandleColumns {
  readonly dayNumber: number;
}

/** The names of the candle columns, in the order they are described below. */
export const CANDLE_COLUMNS = ['open', 'high', 'low', 'close', 'volume', 'takerBuy', 'archivedAt', 'missing', 'invalid', 'sigma'] as const satisfies readonly (keyof CandleColumns)[];

/** Candles as columns, one entry per bar: a day's (`DayCandles`) or consecutive days' (`BarSeries`). */
export interface CandleColumns {
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  /** Quote volume, USDT. */
  readonly volume: Float64Array;
  /** Aggressive-buy quote volume, USDT; NaN when the venue's value is invalid. */
  readonly takerBuy: Float64Array;
  /** Local archive write time, UTC Unix seconds; Infinity for a candle never archived (missing). */
  readonly archivedAt: Float64Array;
  /** 1 when the exchange had an outage and the candle does not exist. */
  readonly missing: Uint8Array;
  /** 1 when the candle's prices are invalid (zero). */
  readonly invalid: Uint8Array;
  /** Per-bar standard deviation of the log return (used by the recording model). */
  readonly sigma: Float64Array;
}

/** Rates of the archive's imperfections (per bar unless stated). */
const RATES = {
  marketOutageDay: 0.008,
  pairOutageDay: 0.012,
  invalidPrice: 1 / 60_000,
  zeroVolume: 1 / 5_000,
  invalidTaker: 1 / 2_500,
  lateBar: 0.003,
  lateBlockDay: 0.07,
  volumeBurst: 0.06,
};

/** Generates the candles of `symbol` on day `dayNumber`; pure in (seed, symbol, dayNumber). */
export function generateDayCandles(seed: number, walk: AnchorWalk, symbol: MarketSymbol, dayNumber: number): DayCandles {
  const profile = MARKET_PROFILES[symbol];
  const schedule = daySchedule(seed, dayNumber);
  const n = BARS_PER_DAY;
  const dayStart = dayNumber * DAY_SECONDS;
  const decimals = profile.priceDecimals;

  // 1. Per-bar volatility and correlated noise (market factor shared by all pairs).
  const sigma = new Float64Array(n);
  const noise = new Float64Array(n);
  const market = randomStream(seed, 'path-market', dayNumber);
  const own = randomStream(seed, 'path', symbol, dayNumber);
  const ownWeight = Math.sqrt(1 - MARKET_CORRELATION ** 2);
  let noiseSum = 0;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const s = (profile.dailyVolatility / Math.sqrt(n)) * (schedule.barMultiplier[i] as number);
    sigma[i] = s;
    const e = s * (MARKET_CORRELATION * market.normal() + ownWeight * own.normal());
    noise[i] = e;
    noiseSum += e;
    variance += s * s;
  }

  // 2. Brownian bridge to the next day's anchor, the correction allotted in proportion to each bar's variance.
  const start = walk.logAnchor(symbol, dayNumber);
  const target = walk.logAnchor(symbol, dayNumber + 1);
  const gap = target - start - noiseSum;
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  const takerBuy = new Float64Array(n);
  const archivedAt = new Float64Array(n);
  const missing = new Uint8Array(n);
  const invalid = new Uint8Array(n);
  const shape = randomStream(seed, 'shape', symbol, dayNumber);
  let level = start;
  let burst = 1;
  for (let i = 0; i < n; i++) {
    const s = sigma[i] as number;
    const next = i === n - 1 ? target : level + (noise[i] as number) + ((s * s) / variance) * gap;
    const o = round(Math.exp(level), decimals);
    const c = round(Math.exp(next), decimals);
    const wickUp = Math.abs(shape.normal()) * 0.45 * s;
    const wickDown = Math.abs(shape.normal()) * 0.45 * s;
    open[i] = o;
    close[i] = c;
    high[i] = Math.max(o, c, round(Math.max(o, c) * Math.exp(wickUp), decimals));
    low[i] = Math.min(o, c, round(Math.min(o, c) * Math.exp(-wickDown), decimals));

    // 3. Volume: seasonality x regime x lognormal noise x decaying bursts (independent of the returns).
    burst = 1 + (burst - 1) * 0.45;
    if (shape.chance(RATES.volumeBurst)) burst = shape.uniform(2.5, 7);
    const base = (profile.dailyQuoteVolume / n) * (schedule.volumeMultiplier[i] as number) ** 0.8;
    const quote = base * Math.exp(0.3 * shape.normal() - 0.045) * burst;
    volume[i] = round(quote, 2);
    const move = (next - level) / s;
    const share = clamp(0.5 + 0.12 * Math.tanh(move / 2) + 0.03 * shape.normal(), 0.02, 0.98);
    takerBuy[i] = round(share * (volume[i] as number), 2);
    archivedAt[i] = round(dayStart + (i + 1) * BAR_SECONDS + shape.uniform(1, 8), 3);
    level = next;
  }

  // 4. Imperfections, each from its own stream so adding one never shifts the others.
  const defects = randomStream(seed, 'defects', symbol, dayNumber);
  for (let i = 0; i < n; i++) {
    if (defects.chance(RATES.zeroVolume)) {
      volume[i] = 0;
      takerBuy[i] = 0;
      high[i] = Math.max(open[i] as number, close[i] as number);
      low[i] = Math.min(open[i] as number, close[i] as number);
    } else if (defects.chance(RATES.invalidTaker)) {
      takerBuy[i] = Number.NaN;
    }
    if (defects.chance(RATES.invalidPrice)) {
      invalid[i] = 1;
      open[i] = 0;
      high[i] = 0;
      low[i] = 0;
      close[i] = 0;
    }
    if (defects.chance(RATES.lateBar)) archivedAt[i] = round((archivedAt[i] as number) + defects.uniform(3_600, 6 * 3_600), 3);
  }
  // A late archive block: the archiver fell behind and wrote a run of candles hours later.
  if (defects.chance(RATES.lateBlockDay)) {
    const length = defects.integer(12, 72);
    const first = defects.integer(0, n - length);
    const writtenFrom = dayStart + (first + length) * BAR_SECONDS + defects.uniform(1.5 * 3_600, 8 * 3_600);
    for (let i = first; i < first + length; i++) {
      archivedAt[i] = Math.max(archivedAt[i] as number, round(writtenFrom + (i - first) * 0.5, 3));
    }
  }
  // Exchange outages: market-wide (all pairs) and pair-only; the candles never exist.
  const outages: Array<[number, number]> = [];
  const marketOutage = randomStream(seed, 'outage-market', dayNumber);
  if (marketOutage.chance(RATES.marketOutageDay)) {
    const length = marketOutage.integer(2, 12);
    outages.push([marketOutage.integer(0, n - length), length]);
  }
  if (defects.chance(RATES.pairOutageDay)) {
    const length = defects.integer(1, 6);
    outages.push([defects.integer(0, n - length), length]);
  }
  for (const [first, length] of outages) {
    for (let i = first; i < first + length; i++) {
      missing[i] = 1;
      archivedAt[i] = Number.POSITIVE_INFINITY;
    }
  }
  return { dayNumber, open, high, low, close, volume, takerBuy, archivedAt, missing, invalid, sigma };
}
