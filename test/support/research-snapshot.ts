// Test helper: a market-breadth Research snapshot with one BTCUSDT value to vary (null: missing) and a fixed ETHUSDT one.

import type { ResearchSnapshot } from '../../src/client/index.js';

/** The snapshot of `generated_at` (UTC Unix seconds), `updated` 300 s before, BTCUSDT change_24h `change`. */
export const breadthSnapshot = (generatedAt: number, change: number | null): ResearchSnapshot => ({
  key: 'market-breadth', generated_at: generatedAt, updated: generatedAt - 300, stale: false, refresh_seconds: 300,
  calculation_version: 'breadth-2', source: 'spotex', source_url: null, window: null, summary: { median_change_24h: change },
  items: [{ symbol: 'BTCUSDT', change_24h: change }, { symbol: 'ETHUSDT', change_24h: 1.5 }], limitation: [],
});
