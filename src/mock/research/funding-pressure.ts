// The `funding-pressure` snapshot: latest normalized funding and open interest per pair on the derivatives venue.

import { DERIVATIVE_VENUE, SYMBOLS, type ResearchDatasetSpec } from '../../contract/index.js';
import { DAY_SECONDS } from '../releases/check-times.js';
import { newest } from './market-breadth.js';
import { latestAtOrBefore, observedDerivatives } from './observed-series.js';
import type { ResearchCalculation, ResearchItem } from './research-snapshot.js';
import type { ResearchSimulator } from './research-simulator.js';
import { roundTo } from './round-to.js';

/** Tolerance for the 24-hour reference observation of open interest (seconds). */
const REFERENCE_TOLERANCE_SECONDS = 2 * 3600;

/**
 * One item per pair from the newest observation available by `t`: funding (percentage points per hour),
 * open interest (USD), its change over 24 hours in percent (null without a reference observation).
 */
export function fundingPressure(simulator: ResearchSimulator, spec: ResearchDatasetSpec, t: number): ResearchCalculation {
  const items: ResearchItem[] = [];
  for (const symbol of SYMBOLS) {
    const observations = observedDerivatives(simulator, symbol, t - 2 * DAY_SECONDS, t);
    const last = observations.at(-1);
    let change: number | null = null;
    if (last && last.oi_usd !== null) {
      const reference = latestAtOrBefore(observations, (observation) => observation.bucket_time, last.bucket_time - DAY_SECONDS);
      if (reference && reference.oi_usd && reference.bucket_time >= last.bucket_time - DAY_SECONDS - REFERENCE_TOLERANCE_SECONDS) {
        change = roundTo(100 * (last.oi_usd / reference.oi_usd - 1), 4);
      }
    }
    items.push({
      symbol,
      venue: DERIVATIVE_VENUE,
      funding_hourly_pct: last ? roundTo(last.funding_hourly_pct, 6) : null,
      oi_usd: last ? roundTo(last.oi_usd, 2) : null,
      oi_change_24h_pct: change,
      source_time: last ? last.bucket_time : null,
      calculation_version: spec.calculation_version,
    });
  }
  const funding = items.map((item) => item.funding_hourly_pct).filter((value): value is number => typeof value === 'number');
  const openInterest = items.map((item) => item.oi_usd).filter((value): value is number => typeof value === 'number');
  return {
    items,
    summary: {
      pairs_observed: items.filter((item) => item.source_time !== null).length,
      positive_funding: funding.filter((value) => value > 0).length,
      negative_funding: funding.filter((value) => value < 0).length,
      mean_funding_hourly_pct: funding.length ? roundTo(funding.reduce((a, b) => a + b, 0) / funding.length, 6) : null,
      total_oi_usd: openInterest.length ? roundTo(openInterest.reduce((a, b) => a + b, 0), 2) : null,
    },
    window: { start: t - DAY_SECONDS, end: t, lookback_seconds: DAY_SECONDS },
    updated: newest(items),
  };
}
