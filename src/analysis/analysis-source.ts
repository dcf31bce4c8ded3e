// What the analysis reads: a DuckDB connection and the names of the Market Events table and current view.
// A catalog (src/catalog) provides one; tests build the same tables in a plain DuckDB file.

import type { DuckDBConnection } from '@duckdb/node-api';
import { isReleaseId } from '../contract/index.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';
import { quoteIdentifier, quoteLiteral } from './sql-text.js';

/** A DuckDB connection holding Market Events rows (DESIGN.md 2.4). */
export interface AnalysisSource {
  readonly connection: DuckDBConnection;
  /** Table of every imported row with its `release_id` and `day`. Default `market_events`. */
  readonly eventsTable?: string;
  /** View with only the newest imported revision of each day. Default `market_events_current`. */
  readonly currentView?: string;
}

/** Accepts a bare connection or an AnalysisSource. */
export type AnalysisSourceLike = AnalysisSource | DuckDBConnection;

export function toAnalysisSource(source: AnalysisSourceLike): Required<AnalysisSource> {
  const given: AnalysisSource = isAnalysisSource(source) ? source : { connection: source };
  return {
    connection: given.connection,
    eventsTable: given.eventsTable ?? 'market_events',
    currentView: given.currentView ?? 'market_events_current',
  };
}

function isAnalysisSource(source: AnalysisSourceLike): source is AnalysisSource {
  // A DuckDBConnection has a private `connection` field too: tell them apart by its query method.
  return typeof (source as Partial<DuckDBConnection>).runAndReadAll !== 'function';
}

/** Validates release IDs: exact IDs only (isReleaseId, no case folding), deduplicated and sorted. */
export function resolveReleaseIds(releases: readonly string[]): string[] {
  for (const id of releases) {
    if (!isReleaseId(id)) throw new AnalysisOptionError(analysisMessages.badReleaseId(String(id)), { option: 'releases' });
  }
  return [...new Set(releases)].sort();
}

/**
 * The FROM clause of a study: exact release IDs from the events table, or the current view when none
 * are named. Release IDs must have passed resolveReleaseIds (quoted with quoteLiteral; they hold no quotes anyway).
 */
export function rowsFromSql(source: Required<AnalysisSource>, releaseIds: readonly string[] | undefined): string {
  if (releaseIds === undefined) return quoteIdentifier(source.currentView);
  if (releaseIds.length === 0) return `(SELECT * FROM ${quoteIdentifier(source.eventsTable)} WHERE false)`;
  const list = releaseIds.map(quoteLiteral).join(', ');
  return `(SELECT * FROM ${quoteIdentifier(source.eventsTable)} WHERE release_id IN (${list}))`;
}
