// Candles and derivative observations: shape, price levels, archive times and flagged defects.

import { describe, expect, it } from 'vitest';
import { MarketSimulator, MARKET_PROFILES } from '../../../src/mock/simulator/index.js';
import { SYMBOLS } from '../../../src/contract/index.js';

const simulator = new MarketSimulator();
const sampleDays = simulator.days().filter((_, i) => i % 15 === 0);

describe('candles', () => {
  it('gives 288 contiguous 5-minute candles per day with consistent OHLC', () => {
    for (const symbol of SYMBOLS) {
      const day = sampleDays[1] as string;
      const candles = simulator.candles(symbol, day);
      expect(candles).toHaveLength(288);
      const start = Date.parse(`${day}T00:00:00Z`) / 1000;
      candles.forEach((candle, i) => {
        expect(candle.open_time).toBe(start + 300 * i);
        expect(candle.close_time).toBe(candle.open_time + 300);
        if (candle.invalid_price) return;
        expect(candle.high).toBeGreaterThanOrEqual(Math.max(candle.open, candle.close));
        expect(candle.low).toBeLessThanOrEqual(Math.min(candle.open, candle.close));
        expect(candle.quote_volume).toBeGreaterThanOrEqual(0);
        if (candle.taker_buy_quote !== null) expect(candle.taker_buy_quote).toBeLessThanOrEqual(candle.quote_volume);
        if (candle.missing) expect(candle.archived_at).toBe(Number.POSITIVE_INFINITY);
        else expect(candle.archived_at).toBeGreaterThan(candle.close_time);
      });
    }
  });

  it('keeps each pair within its realistic price range over 120 days', () => {
    const ranges = { BTCUSDT: [60_000, 110_000], ETHUSDT: [2_000, 4_000], SOLUSDT: [100, 250], BNBUSDT: [500, 700], XRPUSDT: [0.4, 3], DOGEUSDT: [0.05, 0.4] };
    for (const symbol of SYMBOLS) {
      const [low, high] = ranges[symbol] as [number, number];
      expect(MARKET_PROFILES[symbol].minPrice).toBe(low);
      for (const day of sampleDays) {
        for (const candle of simulator.candles(symbol, day)) {
          if (candle.invalid_price) continue;
          expect(candle.close).toBeGreaterThan(low * 0.9);
          expect(candle.close).toBeLessThan(high * 1.1);
        }
      }
    }
  });

  it('joins days: the last close of a day is the next day\'s first open', () => {
    const [a, b] = simulator.days().slice(10, 12) as [string, string];
    for (const symbol of SYMBOLS) {
      expect(simulator.candles(symbol, a).at(-1)?.close).toBe(simulator.candles(symbol, b)[0]?.open);
    }
  });

  it('has rare clustered outages, rare invalid prices and occasional late archive writes', () => {
    let missing = 0;
    let invalid = 0;
    let late = 0;
    let total = 0;
    for (const symbol of SYMBOLS) {
      for (const day of simulator.days().slice(0, 60)) {
        for (const candle of simulator.candles(symbol, day)) {
          total++;
          if (candle.missing) missing++;
          if (candle.invalid_price) invalid++;
          if (!candle.missing && candle.archived_at > candle.close_time + 3600) late++;
        }
      }
    }
    expect(missing).toBeGreaterThan(0);
    expect(missing / total).toBeLessThan(0.005);
    expect(invalid).toBeGreaterThan(0);
    expect(invalid / total).toBeLessThan(0.001);
    expect(late).toBeGreaterThan(0);
    expect(late / total).toBeLessThan(0.05);
  });

  it('shows intraday volume seasonality: the 13-16 UTC hours trade more than 03-06 UTC', () => {
    let busy = 0;
    let quiet = 0;
    for (const day of sampleDays) {
      for (const candle of simulator.candles('BTCUSDT', day)) {
        const hour = new Date(candle.open_time * 1000).getUTCHours();
        if (hour >= 13 && hour < 16) busy += candle.quote_volume;
        if (hour >= 3 && hour < 6) quiet += candle.quote_volume;
      }
    }
    expect(busy).toBeGreaterThan(quiet * 1.2);
  });
});

describe('derivative observations', () => {
  it('are ordered buckets with archive times after the bucket and occasional gaps', () => {
    let gaps = 0;
    for (const symbol of SYMBOLS) {
      for (const day of sampleDays) {
        const observations = simulator.derivativeObservations(symbol, day);
        expect(observations.length).toBeLessThanOrEqual(96);
        gaps += 96 - observations.length;
        for (let i = 0; i < observations.length; i++) {
          const observation = observations[i];
          if (!observation) continue;
          expect(observation.available_at).toBeGreaterThan(observation.bucket_time);
          if (i > 0) expect(observation.bucket_time).toBeGreaterThan(observations[i - 1]?.bucket_time as number);
          if (observation.funding_hourly_pct !== null) expect(Math.abs(observation.funding_hourly_pct)).toBeLessThan(0.05);
          if (observation.oi_usd !== null) expect(observation.oi_usd).toBeGreaterThan(0);
        }
      }
    }
    expect(gaps).toBeGreaterThan(0);
  });
});
