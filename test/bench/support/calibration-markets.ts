// The simulated markets of the calibration bench: one seed's MarketSimulator days in a real catalog
// (test/support/fixture-catalog.ts), with the release ID of each day, so a shorter market is the same
// catalog's newest N releases (the same rows the longer market holds for those days).

import { createHash } from 'node:crypto';
import { simulatorCatalog, type FixtureCatalog } from '../../support/fixture-catalog.js';
import { MarketSimulator } from '../../../src/mock/index.js';

/** A seed's catalog and its releases, oldest day first. */
export interface CalibrationMarket {
  seed: number;
  fixture: FixtureCatalog;
  releases: { id: string; day: string }[];
}

const LABEL = 'calibration';

/** Simulates `days` days of seed `seed` into a fresh catalog (the caller closes `fixture`). */
export async function buildCalibrationMarket(seed: number, days: number): Promise<CalibrationMarket> {
  const fixture = await simulatorCatalog({ seed, days, label: `${LABEL}|${seed}` });
  const releases = new MarketSimulator({ seed, days })
    .days()
    .map((day) => ({ id: createHash('sha256').update(`${LABEL}|${seed}|${day}`).digest('hex'), day }));
  return { seed, fixture, releases };
}

/** Release IDs of the newest `days` days of a market. */
export function newestReleases(market: CalibrationMarket, days: number): string[] {
  return market.releases.slice(-days).map((release) => release.id);
}
