// The catalog's Market Events rows as typed objects (MarketEventRow from src/contract), for a notebook or a
// script that wants rows, not SQL: every spec field by name, plus the release and UTC day each row came from.

import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../contract/index.js';
import { quoteIdentifier } from '../base/index.js';
import type { Catalog } from './catalog.js';
import type { SqlParameters } from './catalog-row.js';
import { CatalogOptionError } from './catalog-errors.js';
import { RELEASE_COLUMNS } from './catalog-schema.js';
import { MARKET_EVENTS_CURRENT_VIEW, MARKET_EVENTS_TABLE } from './market-events-source.js';
import { catalogMessages } from './messages.js';
import { idInListSql } from './release-id-sql.js';

/**
 * One row of `market_events`: the spec's row (every number a DOUBLE, so a number or null; statuses and
 * booleans as the spec types them) plus `release_id` and its UTC `day` (`YYYY-MM-DD`).
 */
export type CatalogMarketEventRow = MarketEventRow & { release_id: string; day: string };

export interface MarketEventRowsOptions {
  /** Read the rows of exactly these release IDs (any revision of a day). Default: the newest revision of each day. */
  releases?: readonly string[];
  /** An SQL condition over the row's columns, e.g. `symbol = $symbol AND sample_type = 'event'`. Default: every row. */
  where?: string;
  /** Named parameters (`$name`) of `where`. Default: none. */
  parameters?: SqlParameters;
  /** At most this many rows (an integer >= 1). Default: all. */
  limit?: number;
}

/** The spec's columns by name, so a row holds exactly the type's keys (never a column the contract lacks). */
const COLUMNS = [...RELEASE_COLUMNS, ...MARKET_EVENT_FIELD_NAMES].map(quoteIdentifier).join(', ');

/**
 * Reads Market Events rows from the catalog in day, sample_time, row_id (then release_id) order, through `catalog.query`
 * (queued behind other uses of the catalog). Values are JSON: no DuckDB value objects.
 * @throws CatalogOptionError (exit 2) for a `limit` that is not an integer >= 1.
 */
export function readMarketEventRows(catalog: Catalog, options: MarketEventRowsOptions = {}): Promise<CatalogMarketEventRow[]> {
  const { releases, where, parameters, limit } = options;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new CatalogOptionError(catalogMessages.badOption('limit', 'an integer >= 1'), { option: 'limit' });
  }
  const source = releases === undefined ? MARKET_EVENTS_CURRENT_VIEW : MARKET_EVENTS_TABLE;
  const conditions = [...(releases === undefined ? [] : [idInListSql('release_id', releases)]), ...(where === undefined ? [] : [`(${where})`])];
  const sql = [
    `SELECT ${COLUMNS} FROM ${source}`,
    ...(conditions.length === 0 ? [] : [`WHERE ${conditions.join(' AND ')}`]),
    'ORDER BY day, sample_time, row_id, release_id',
    ...(limit === undefined ? [] : [`LIMIT ${limit}`]),
  ].join(' ');
  return catalog.query<CatalogMarketEventRow>(sql, parameters);
}
