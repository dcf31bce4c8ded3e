// The foreign server's free and public research documents (spec: Catalog, Research dataset snapshot,
// the market-breadth example rows), and the public live page in the shape a variation chooses.

import { PAIRS } from './contract-fields.js';
import type { ResolvedVariation } from './spec-variation.js';

/** The one research dataset this server publishes (the spec's example). */
export const RESEARCH_DATASET = 'market-breadth';
const CALCULATION = 'breadth-calc-2';
const COLUMNS = ['symbol', 'base', 'source', 'price', 'change_24h', 'volume_24h', 'source_time', 'calculation_version'] as const;

/** The market-breadth rows at `now` (one per pair; DOGE has no valid observation: nulls). */
export function breadthItems(now: number): Record<string, string | number | null>[] {
  return PAIRS.map((symbol, index) => {
    const missing = symbol === 'DOGEUSDT';
    return {
      symbol,
      base: symbol.replace(/USDT$/, ''),
      source: 'spot-exchange',
      price: missing ? null : [68_123.5, 3_401.25, 161.5, 590.75, 0.5225, 0.14][index]!,
      change_24h: missing ? null : [1.25, -0.5, 3.75, 0, -2.125, 0.5][index]!,
      volume_24h: missing ? null : 1_000_000 * (index + 1),
      source_time: missing ? null : now - 60 - index,
      calculation_version: CALCULATION,
    };
  });
}

/** The market-breadth rows as CSV, header first (nulls as empty fields). */
export function breadthCsv(now: number): string {
  const lines = breadthItems(now).map((item) => COLUMNS.map((column) => (item[column] === null ? '' : String(item[column]))).join(','));
  return `${[COLUMNS.join(','), ...lines].join('\n')}\n`;
}

/** `GET {base_url}/research/catalog` (free scope). */
export function researchCatalog(basePath: string): Record<string, unknown> {
  return {
    scope: 'Current public research snapshots; not historical Market Events files.',
    datasets: [
      { id: RESEARCH_DATASET, calculation_version: CALCULATION, json_url: `${basePath}/research/${RESEARCH_DATASET}`, csv_url: `${basePath}/research/${RESEARCH_DATASET}/csv` },
    ],
    limits: { keys: 1, rpm: 60, daily_bytes: 0 },
    limitations: ['Snapshots are current only; no history.'],
  };
}

/** `GET {base_url}/research/market-breadth`: the snapshot envelope. */
export function researchSnapshot(now: number, variation: ResolvedVariation): Record<string, unknown> {
  const items = breadthItems(now);
  if (variation.researchShape === 'strings') {
    return {
      key: RESEARCH_DATASET,
      generated_at: now - 30,
      updated: now - 60,
      stale: variation.stale,
      refresh_seconds: 300,
      calculation_version: CALCULATION,
      source: null,
      source_url: null,
      window: 'rolling 24 hours',
      summary: 'Three of five observed pairs advanced.',
      items,
      limitation: 'DOGEUSDT had no valid observation.',
    };
  }
  return {
    key: RESEARCH_DATASET,
    generated_at: now - 30,
    updated: now - 60,
    stale: variation.stale,
    refresh_seconds: 300,
    calculation_version: CALCULATION,
    source: 'spot-exchange',
    source_url: null,
    window: { lookback: '24h' },
    summary: { advancing: 3, declining: 2, unchanged: 0, missing: 1 },
    items,
    limitation: ['DOGEUSDT had no valid observation.'],
  };
}

/** The public live page of `market-breadth` in the variation's JSON shape. */
export function livePage(now: number, variation: ResolvedVariation): unknown {
  const envelope = researchSnapshot(now, variation);
  if (variation.liveShape === 'array-body') return envelope.items;
  if (variation.liveShape === 'no-refresh') {
    const { refresh_seconds: _dropped, ...rest } = envelope;
    return rest;
  }
  if (variation.liveShape === 'items-object') {
    return { ...envelope, items: Object.fromEntries(breadthItems(now).map((item) => [String(item.symbol), item])) };
  }
  return envelope;
}
