// Derivative-venue context of one pair and day: funding (normalized per hour) and open interest per
// 15-minute bucket, with the venue's own outages, dropped buckets and late archive writes.

import { DERIVATIVE_MAX_AGE_SECONDS, type MarketSymbol } from '../../contract/index.js';
import type { AnchorWalk } from './anchor-walk.js';
import { MARKET_PROFILES } from './market-profiles.js';
import { round } from './numbers.js';
import { randomStream } from '../../base/index.js';
import { DAY_SECONDS } from './utc-day.js';

/** One observation of the derivatives venue. */
export interface DerivativeObservation {
  /** Source observation bucket time, UTC Unix seconds. */
  bucket_time: number;
  /** Local archive write time of this observation, UTC Unix seconds. */
  available_at: number;
  /** Funding normalized to percentage points per hour; null when the venue gave none. */
  funding_hourly_pct: number | null;
  /** Open-interest notional, USD; null when the venue gave none. */
  oi_usd: number | null;
}

/** Bucket length of derivative observations, seconds. */
export const DERIVATIVE_BUCKET_SECONDS = 900;
const BUCKETS_PER_DAY = DAY_SECONDS / DERIVATIVE_BUCKET_SECONDS;

/** Observations of `symbol` whose bucket lies in day `dayNumber`, bucket_time ascending. */
export function generateDerivativeDay(seed: number, walk: AnchorWalk, symbol: MarketSymbol, dayNumber: number): DerivativeObservation[] {
  const profile = MARKET_PROFILES[symbol];
  const random = randomStream(seed, 'derivatives', symbol, dayNumber);
  const dayStart = dayNumber * DAY_SECONDS;
  // Funding level of the day (about 0.01% per 8h on average) and open interest scaled with the price level.
  const fundingLevel = 0.00125 + 0.0015 * random.normal();
  const priceFactor = Math.exp(walk.logAnchor(symbol, dayNumber) - Math.log(profile.startPrice));
  let oi = profile.openInterestUsd * priceFactor ** 0.8 * Math.exp(0.08 * random.normal());
  let funding = fundingLevel;
  let outageFrom = -1;
  let outageTo = -1;
  if (random.chance(0.08)) {
    const length = random.integer(4, 24);
    outageFrom = random.integer(0, BUCKETS_PER_DAY - length);
    outageTo = outageFrom + length - 1;
  }
  const observations: DerivativeObservation[] = [];
  for (let b = 0; b < BUCKETS_PER_DAY; b++) {
    funding = fundingLevel + 0.7 * (funding - fundingLevel) + 0.0004 * random.normal();
    oi *= Math.exp(0.004 * random.normal());
    const dropped = random.chance(0.03);
    const late = random.chance(0.01);
    const delay = random.uniform(20, 240) + (late ? random.uniform(3_600, 4 * 3_600) : 0);
    const noFunding = random.chance(0.005);
    const noOi = random.chance(0.005);
    if (dropped || (b >= outageFrom && b <= outageTo)) continue;
    const bucketTime = dayStart + b * DERIVATIVE_BUCKET_SECONDS;
    observations.push({
      bucket_time: bucketTime,
      available_at: round(bucketTime + delay, 3),
      funding_hourly_pct: noFunding ? null : round(funding, 7),
      oi_usd: noOi ? null : Math.round(oi),
    });
  }
  return observations;
}

/**
 * The newest observation locally known at `sampleTime`: available_at <= sampleTime and
 * sampleTime - bucket_time <= 1800 s; undefined when there is none.
 * @param observations bucket_time ascending.
 */
export function selectDerivative(observations: readonly DerivativeObservation[], sampleTime: number): DerivativeObservation | undefined {
  let chosen: DerivativeObservation | undefined;
  for (const observation of observations) {
    if (observation.bucket_time > sampleTime) break;
    if (sampleTime - observation.bucket_time > DERIVATIVE_MAX_AGE_SECONDS) continue;
    if (observation.available_at <= sampleTime) chosen = observation;
  }
  return chosen;
}
