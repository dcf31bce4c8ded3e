// SQL views that split Market Events by role (src/contract is the only source of roles): mev_predictors
// (identity + predictors, point-in-time rows only) and mev_labels (identity + labels, outcome values missing
// unless their window's status is complete).

import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENTS_CURRENT_VIEW } from '../catalog/index.js';
import { COMPLETE_OUTCOME_MEASURES, IDENTITY_FIELD_NAMES, LABEL_FIELD_NAMES, PREDICTOR_FIELD_NAMES, WINDOWS, outcomeFieldName } from '../contract/index.js';
import { pointInTimeConditionSql } from './point-in-time.js';
import { outcome } from './outcome.js';
import { quoteIdentifier } from '../base/index.js';

/** Names of the analysis views. */
export const PREDICTORS_VIEW = 'mev_predictors';
export const LABELS_VIEW = 'mev_labels';

/** Columns joining a predictor row to its label row: release_id plus the identity fields. */
export const JOIN_COLUMNS: readonly string[] = ['release_id', ...IDENTITY_FIELD_NAMES];

export interface AnalysisViewsOptions {
  /** Table or view the views read. Default: the catalog's MARKET_EVENTS_CURRENT_VIEW (newest revision per
   * day, so no two revisions of a day are mixed); pass its MARKET_EVENTS_TABLE and filter on release_id to pin exact IDs. */
  from?: string;
}

function columnList(names: readonly string[]): string {
  return names.map(quoteIdentifier).join(', ');
}

/** `CREATE OR REPLACE TEMP VIEW mev_predictors …`: identity + predictor fields, point-in-time rows only. */
export function predictorsViewSql(options: AnalysisViewsOptions = {}): string {
  const from = quoteIdentifier(options.from ?? MARKET_EVENTS_CURRENT_VIEW);
  return `CREATE OR REPLACE TEMP VIEW ${PREDICTORS_VIEW} AS
SELECT ${columnList([...JOIN_COLUMNS, ...PREDICTOR_FIELD_NAMES])}
FROM ${from}
WHERE ${pointInTimeConditionSql()}`;
}

/** SQL of each value held back unless complete (contract: COMPLETE_OUTCOME_MEASURES), by field name. */
const OUTCOME_VALUE_SQL: ReadonlyMap<string, string> = new Map(
  WINDOWS.flatMap((window) => COMPLETE_OUTCOME_MEASURES.map((measure) => [outcomeFieldName(measure, window), outcome(window, measure).sql] as const)),
);

/**
 * `CREATE OR REPLACE TEMP VIEW mev_labels …`: identity + every label field, all rows; a window's
 * COMPLETE_OUTCOME_MEASURES are NULL unless its status is `complete`.
 */
export function labelsViewSql(options: AnalysisViewsOptions = {}): string {
  const from = quoteIdentifier(options.from ?? MARKET_EVENTS_CURRENT_VIEW);
  const labels = LABEL_FIELD_NAMES.map((name) => {
    const valueSql = OUTCOME_VALUE_SQL.get(name);
    return valueSql === undefined ? quoteIdentifier(name) : `${valueSql} AS ${quoteIdentifier(name)}`;
  });
  return `CREATE OR REPLACE TEMP VIEW ${LABELS_VIEW} AS
SELECT ${[columnList(JOIN_COLUMNS), ...labels].join(', ')}
FROM ${from}`;
}

/**
 * Creates (or replaces) mev_predictors and mev_labels as TEMP views of `connection`: they live as long as the
 * connection and write nothing to the catalog file, so they work on the workbench's read-only connection too.
 */
export async function createAnalysisViews(connection: DuckDBConnection, options: AnalysisViewsOptions = {}): Promise<void> {
  await connection.run(predictorsViewSql(options));
  await connection.run(labelsViewSql(options));
}
