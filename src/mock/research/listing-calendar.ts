// The `listing-calendar` snapshot: a small hand-maintained list of announcements that lags on purpose,
// so the snapshot is stale (its newest announcement is older than the two-day freshness boundary).

import { seededRandom } from '../../base/index.js';
import type { ResearchDatasetSpec } from '../../contract/index.js';
import { DAY_SECONDS } from '../releases/check-times.js';
import { newest } from './market-breadth.js';
import type { ResearchCalculation, ResearchItem } from './research-snapshot.js';
import type { ResearchSimulator } from './research-simulator.js';

/** Pairs an announcement may concern (listings of new pairs, delistings of old ones). */
const CANDIDATE_PAIRS = ['TONUSDT', 'SUIUSDT', 'APTUSDT', 'ARBUSDT', 'OPUSDT', 'NEARUSDT', 'INJUSDT', 'SEIUSDT'];
const ANNOUNCEMENT_SOURCE = 'spotex announcements';
/** The newest announcement is this many seconds (plus a seeded 0-23 h) before the snapshot time. */
export const LISTING_LAG_SECONDS = 3 * DAY_SECONDS;
const LOOKBACK_SECONDS = 30 * DAY_SECONDS;

/** Mixed into the simulator seed so this list draws its own stream ('list' in ASCII). */
const LISTING_SEED_SALT = 0x6c697374;

/**
 * Four announcements on whole hours, newest first, the newest `LISTING_LAG_SECONDS` + a seeded
 * 0-23 hours before `t`, the others spaced 3-8 days apart; effective 2-7 days after the announcement,
 * or null (not announced) for one of them.
 */
export function listingCalendar(simulator: ResearchSimulator, spec: ResearchDatasetSpec, t: number): ResearchCalculation {
  const random = seededRandom(simulator.options.seed ^ LISTING_SEED_SALT);
  const items: ResearchItem[] = [];
  const hour = 3600;
  let announced = Math.floor((t - LISTING_LAG_SECONDS) / hour) * hour - Math.floor(random() * 24) * hour;
  const pairs = [...CANDIDATE_PAIRS];
  for (let index = 0; index < 4; index += 1) {
    const pair = pairs.splice(Math.floor(random() * pairs.length), 1)[0]!;
    const change = random() < 0.7 ? 'listing' : 'delisting';
    const effective = index === 1 ? null : announced + (2 + Math.floor(random() * 6)) * DAY_SECONDS;
    items.push({
      announced_at: announced,
      effective_at: effective,
      symbol: pair,
      change,
      source: ANNOUNCEMENT_SOURCE,
      calculation_version: spec.calculation_version,
    });
    announced -= (3 + Math.floor(random() * 6)) * DAY_SECONDS;
  }
  const upcoming = items
    .map((item) => item.effective_at)
    .filter((value): value is number => typeof value === 'number' && value > t)
    .sort((a, b) => a - b);
  return {
    items,
    summary: {
      listings: items.filter((item) => item.change === 'listing').length,
      delistings: items.filter((item) => item.change === 'delisting').length,
      next_effective_at: upcoming[0] ?? null,
    },
    window: { start: t - LOOKBACK_SECONDS, end: t, lookback_seconds: LOOKBACK_SECONDS },
    updated: newest(items, 'announced_at'),
  };
}
