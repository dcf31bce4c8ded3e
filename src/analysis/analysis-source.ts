// What the analysis reads: a DuckDB connection and the names of the Market Events table and current view.
// The catalog (src/catalog) owns those names and hands them over (readMarketEvents); tests build the same tables.

import type { DuckDBConnection } from '@duckdb/node-api';
import { idInListSql, MARKET_EVENTS_CURRENT_VIEW, MARKET_EVENTS_TABLE } from '../catalog/index.js';
import { checkReleaseId } from '../contract/index.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { quoteIdentifier } from '../base/index.js';

/** A DuckDB connection holding Market Events rows (DESIGN.md 2.4). */
export interface AnalysisSource {
  readonly connection: DuckDBConnection;
  /** Table of every imported row with its `release_id` and `day`. Default: the catalog's MARKET_EVENTS_TABLE. */
  readonly eventsTable?: string;
  /** View with only the newest imported revision of each day. Default: the catalog's MARKET_EVENTS_CURRENT_VIEW. */
  readonly currentView?: string;
}

/** Accepts a bare connection or an AnalysisSource. */
export type AnalysisSourceLike = AnalysisSource | DuckDBConnection;

export function toAnalysisSource(source: AnalysisSourceLike): Required<AnalysisSource> {
  const given: AnalysisSource = isAnalysisSource(source) ? source : { connection: source };
  return {
    connection: given.connection,
    eventsTable: given.eventsTable ?? MARKET_EVENTS_TABLE,
    currentView: given.currentView ?? MARKET_EVENTS_CURRENT_VIEW,
  };
}

function isAnalysisSource(source: AnalysisSourceLike): source is AnalysisSource {
  // A DuckDBConnection has a private `connection` field too: tell them apart by its query method.
  return typeof (source as Partial<DuckDBConnection>).runAndReadAll !== 'function';
}

/** Validates release IDs: exact IDs only (contract's checkReleaseId, no case folding), deduplicated and sorted. */
export function resolveReleaseIds(releases: readonly string[]): string[] {
  for (const id of releases) {
    checkReleaseId(id, (sentence) => new AnalysisOptionError(sentence, { option: 'releases' }));
  }
  return [...new Set(releases)].sort();
}

/**
 * The FROM clause of a study: exact release IDs from the events table (the catalog's idInListSql; none:
 * no rows), or the current view when none are named. Release IDs must have passed resolveReleaseIds.
 */
export function rowsFromSql(source: Required<AnalysisSource>, releaseIds: readonly string[] | undefined): string {
  if (releaseIds === undefined) return quoteIdentifier(source.currentView);
  return `(SELECT * FROM ${quoteIdentifier(source.eventsTable)} WHERE ${idInListSql('release_id', releaseIds)})`;
}
