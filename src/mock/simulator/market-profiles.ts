// Per-pair constants of the simulated spot market: price range, volatility, tick decimals, turnover, open interest.

import type { MarketSymbol } from '../../contract/index.js';

/** The character of one simulated pair. */
export interface MarketProfile {
  /** Price at the walk's epoch day (2024-01-01), USDT. */
  readonly startPrice: number;
  /** The daily anchor walk reflects at these bounds, USDT. */
  readonly minPrice: number;
  readonly maxPrice: number;
  /** Standard deviation of the daily log return in a normal regime. */
  readonly dailyVolatility: number;
  /** Decimals of prices (tick size 10^-decimals). */
  readonly priceDecimals: number;
  /** Typical quote volume per UTC day, USDT. */
  readonly dailyQuoteVolume: number;
  /** Typical open-interest notional on the derivatives venue, USD. */
  readonly openInterestUsd: number;
}

export const MARKET_PROFILES: Readonly<Record<MarketSymbol, MarketProfile>> = {
  BTCUSDT: { startPrice: 85_000, minPrice: 60_000, maxPrice: 110_000, dailyVolatility: 0.028, priceDecimals: 2, dailyQuoteVolume: 2.0e9, openInterestUsd: 9.0e9 },
  ETHUSDT: { startPrice: 3_000, minPrice: 2_000, maxPrice: 4_000, dailyVolatility: 0.036, priceDecimals: 2, dailyQuoteVolume: 1.1e9, openInterestUsd: 5.0e9 },
  SOLUSDT: { startPrice: 160, minPrice: 100, maxPrice: 250, dailyVolatility: 0.048, priceDecimals: 3, dailyQuoteVolume: 4.5e8, openInterestUsd: 2.0e9 },
  BNBUSDT: { startPrice: 600, minPrice: 500, maxPrice: 700, dailyVolatility: 0.022, priceDecimals: 2, dailyQuoteVolume: 1.6e8, openInterestUsd: 7.0e8 },
  XRPUSDT: { startPrice: 1.2, minPrice: 0.4, maxPrice: 3, dailyVolatility: 0.045, priceDecimals: 5, dailyQuoteVolume: 3.5e8, openInterestUsd: 1.5e9 },
  DOGEUSDT: { startPrice: 0.15, minPrice: 0.05, maxPrice: 0.4, dailyVolatility: 0.052, priceDecimals: 6, dailyQuoteVolume: 2.5e8, openInterestUsd: 1.0e9 },
};
