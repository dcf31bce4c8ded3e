// Outcomes as missing values: a window's measure is a number only when status_W is `complete`; every
// other status (pending, gap, invalid_price, not_applicable) yields null, never 0 (spec: "Pending or gap
// outcomes are missing values, not zero returns").

import { OUTCOME_MEASURES, OUTCOME_STATUSES, WINDOWS, isWindow, outcomeFieldName } from '../contract/index.js';
import type { OutcomeMeasure, OutcomeStatus, Window } from '../contract/index.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';
import { quoteIdentifier } from '../base/index.js';

/** Numeric outcome measures (every measure but `status`). */
export type OutcomeValueMeasure = Exclude<OutcomeMeasure, 'status'>;

/** Statuses that make an outcome missing: every status but `complete`. */
export const MISSING_STATUSES: readonly Exclude<OutcomeStatus, 'complete'>[] = OUTCOME_STATUSES.filter(
  (status): status is Exclude<OutcomeStatus, 'complete'> => status !== 'complete',
);

/** One window's outcome measure, readable from SQL and from a row object. */
export interface Outcome {
  readonly window: Window;
  readonly measure: OutcomeValueMeasure;
  /** The label column, e.g. `direction_adjusted_return_pct_1h`. */
  readonly field: string;
  /** The status column, e.g. `status_1h`. */
  readonly statusField: string;
  /** SQL expression: the value when status is `complete`, else NULL. Never coalesced. */
  readonly sql: string;
  /** The value of a row: a finite number when status is `complete`, else null. */
  read(row: object): number | null;
}

/**
 * The outcome of `window` for `measure` (default `direction_adjusted_return_pct`, percentage points).
 * @throws AnalysisOptionError for an unknown window or measure.
 */
export function outcome(window: Window, measure: OutcomeValueMeasure = 'direction_adjusted_return_pct'): Outcome {
  const checkedWindow = resolveWindow(window);
  if (measure === ('status' as string) || !(OUTCOME_MEASURES as readonly string[]).includes(measure)) {
    throw new AnalysisOptionError(analysisMessages.badMeasure(measure), { option: 'measure' });
  }
  const field = outcomeFieldName(measure, checkedWindow);
  const statusField = outcomeFieldName('status', checkedWindow);
  return {
    window: checkedWindow,
    measure,
    field,
    statusField,
    sql: `(CASE WHEN ${quoteIdentifier(statusField)} = 'complete' THEN ${quoteIdentifier(field)} END)`,
    read(row) {
      const record = row as Readonly<Record<string, unknown>>;
      if (record[statusField] !== 'complete') return null;
      const value = record[field];
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    },
  };
}

/** Validates a window name. @throws AnalysisOptionError */
export function resolveWindow(window: string): Window {
  if (!isWindow(window)) throw new AnalysisOptionError(analysisMessages.badWindow(window, WINDOWS), { option: 'window' });
  return window;
}

/** Result column name holding the count of rows of `status`: `missing_pending`, … */
export function missingColumnName(status: Exclude<OutcomeStatus, 'complete'>, prefix = ''): string {
  return `${prefix}missing_${status}`;
}

/**
 * SQL aggregate list for one window: `n`, `n_complete` and one `missing_<status>` count per missing
 * status, each `prefix`ed. Counts are BIGINT cast to INTEGER.
 */
export function missingnessAggregatesSql(window: Window, prefix = ''): string {
  const status = quoteIdentifier(outcomeFieldName('status', window));
  return [
    `count(*)::INTEGER AS ${quoteIdentifier(`${prefix}n`)}`,
    `(count(*) FILTER (WHERE ${status} = 'complete'))::INTEGER AS ${quoteIdentifier(`${prefix}n_complete`)}`,
    ...MISSING_STATUSES.map(
      (value) => `(count(*) FILTER (WHERE ${status} = '${value}'))::INTEGER AS ${quoteIdentifier(missingColumnName(value, prefix))}`,
    ),
  ].join(',\n  ');
}
