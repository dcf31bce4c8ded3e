// Per-day totals of one seed's market, read once through a real catalog and kept as JSON in a cache folder
// (so the exploration grid can be recomputed, or extended with more seeds, without simulating again).

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MARKET_EVENTS_CURRENT_VIEW } from '../../../src/catalog/index.js';
import { quoteIdentifier } from '../../../src/base/index.js';
import { readGroupDayTotals, type GroupDayTotals } from './calibration-day-totals.js';
import { buildCalibrationMarket, type CalibrationMarket } from './calibration-markets.js';
import type { MarketTotals } from './calibration-explore.js';

const ARRAYS = ['days', 'eventSums', 'eventCounts', 'eventSigned', 'controlSums', 'controlCounts'] as const;

function revive(json: Record<string, any>): GroupDayTotals {
  const group = { ...json } as any;
  group.days = Int32Array.from(json.days);
  for (const name of ARRAYS.slice(1)) group[name] = Float64Array.from(json[name]);
  return group as GroupDayTotals;
}

/** The seed's totals over `days` days: from the cache when there, else simulated, imported, read and cached. */
export async function marketTotals(seed: number, days: number, cacheDir: string | undefined): Promise<MarketTotals> {
  const file = cacheDir === undefined ? undefined : path.join(cacheDir, `totals-${seed}-${days}.json`);
  if (file) {
    try {
      const json = JSON.parse(await readFile(file, 'utf8'));
      return { seed, lastDay: json.lastDay, groups: (json.groups as Record<string, any>[]).map(revive) };
    } catch {
      // not cached yet
    }
  }
  const market = await buildCalibrationMarket(seed, days);
  try {
    return await cacheMarketTotals(market, cacheDir);
  } finally {
    await market.fixture.close();
  }
}

/** Reads a built market's totals (its current view) and caches them (when `cacheDir` is given). */
export async function cacheMarketTotals(market: CalibrationMarket, cacheDir: string | undefined): Promise<MarketTotals> {
  const groups = await readGroupDayTotals(market.fixture.connection, quoteIdentifier(MARKET_EVENTS_CURRENT_VIEW));
  const lastDay = Math.round(Date.parse(`${market.releases.at(-1)!.day}T00:00:00Z`) / 86_400_000);
  if (cacheDir !== undefined) {
    const file = path.join(cacheDir, `totals-${market.seed}-${market.releases.length}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    const json = { lastDay, groups: groups.map((g) => ({ ...g, ...Object.fromEntries(ARRAYS.map((name) => [name, Array.from(g[name])])) })) };
    await writeFile(file, JSON.stringify(json));
  }
  return { seed: market.seed, lastDay, groups };
}
