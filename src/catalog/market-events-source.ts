// What the catalog hands a reader of Market Events rows (src/analysis): the connection and the names of
// the rows table and the current view, inside a read-only transaction in the catalog's queue.

import type { DuckDBConnection } from '@duckdb/node-api';
import type { Catalog } from './catalog.js';

/** The table of every imported Market Events row, each with its `release_id` and `day`. */
export const MARKET_EVENTS_TABLE = 'market_events';

/** The view of the rows of the newest imported revision of each day (newest generated_at, ties by import order). */
export const MARKET_EVENTS_CURRENT_VIEW = 'market_events_current';

/** A first query over the catalog's rows, for hints such as `rdw demo`'s "Try next". */
export const EXAMPLE_CATALOG_QUERY = `SELECT symbol, count(*) AS n FROM ${MARKET_EVENTS_CURRENT_VIEW} GROUP BY ALL ORDER BY ALL`;

/** A DuckDB connection holding Market Events rows, with the names to read them by (an analysis source). */
export interface MarketEventsSource {
  readonly connection: DuckDBConnection;
  /** MARKET_EVENTS_TABLE. */
  readonly eventsTable: string;
  /** MARKET_EVENTS_CURRENT_VIEW. */
  readonly currentView: string;
}

/**
 * Runs `fn` with the catalog's Market Events source, after every earlier use of the catalog finished, inside
 * a read-only transaction (one snapshot; a write throws). The one way analysis reads a catalog.
 */
export function readMarketEvents<T>(catalog: Catalog, fn: (source: MarketEventsSource) => Promise<T>): Promise<T> {
  return catalog.read((connection) => fn({ connection, eventsTable: MARKET_EVENTS_TABLE, currentView: MARKET_EVENTS_CURRENT_VIEW }));
}
