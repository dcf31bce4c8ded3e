// The SQL of the event study: DuckDB does every set operation (filters, GROUP BY, medians, the join to
// controls); JavaScript only receives aggregates, per-day totals and, for the row bootstrap, lists of returns.

import { WINDOWS } from '../contract/index.js';
import type { Window } from '../contract/index.js';
import type { StudyGroupKey } from './event-study-options.js';
import { MISSING_STATUSES, missingColumnName, missingnessAggregatesSql, outcome } from './outcome.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';

/** Controls' raw return measure: controls have no direction, so their direction-adjusted return is null. */
const CONTROL_MEASURE = 'return_pct' as const;

/** +1 for an up event, -1 for down, 0 otherwise: how an event signs the control return it is compared with. */
const DIRECTION_SIGN = `(CASE direction WHEN 'up' THEN 1 WHEN 'down' THEN -1 ELSE 0 END)`;

/**
 * Mean that is bit-identical run after run: DuckDB's parallel avg() of DOUBLEs sums in a thread-dependent
 * order, so the last bits can change between runs. An exact DECIMAL sum (18 decimals of a percentage
 * point) divided by the count does not.
 */
export function exactMeanSql(expression: string): string {
  return `(sum(CAST(${expression} AS DECIMAL(38, 18)))::DOUBLE / count(${expression}))`;
}

// `base` is referenced once per window and sample type: NOT MATERIALIZED keeps DuckDB from copying every
// column of every row into a temporary (it did by default: ~0.5 GB more peak memory at 500k rows).

function keyList(by: readonly StudyGroupKey[], alias = ''): string {
  return by.map((key) => `${alias}${quoteIdentifier(key)}`).join(', ');
}

/** Control grouping keys: symbol when the study is per pair, else none. */
export function controlKeys(by: readonly StudyGroupKey[]): StudyGroupKey[] {
  return by.includes('symbol') ? ['symbol'] : [];
}

function windowOrderSql(column: string): string {
  return `list_position([${WINDOWS.map(quoteLiteral).join(', ')}], ${column})`;
}

/** Per window and group: counts by status, mean/median/hit rate/MFE/MAE, controls signed by direction. */
export function eventStudyAggregateSql(from: string, windows: readonly Window[], by: readonly StudyGroupKey[]): string {
  const keys = keyList(by);
  const cKeys = controlKeys(by);
  const events = windows.map((window) => {
    const ret = outcome(window, 'direction_adjusted_return_pct').sql;
    const mfe = outcome(window, 'mfe_pct').sql;
    const mae = outcome(window, 'mae_pct').sql;
    return `SELECT ${quoteLiteral(window)} AS "window", ${keys},
  ${missingnessAggregatesSql(window)},
  ${exactMeanSql(ret)} AS mean_return_pct,
  median(${ret}) AS median_return_pct,
  avg(CASE WHEN ${ret} > 0 THEN 1.0 WHEN ${ret} IS NOT NULL THEN 0.0 END) AS hit_rate,
  median(${mfe}) AS median_mfe_pct,
  median(${mae}) AS median_mae_pct,
  sum(CASE WHEN ${ret} IS NOT NULL THEN ${DIRECTION_SIGN} END)::DOUBLE / count(${ret}) AS signed_share
FROM base WHERE sample_type = 'event'
GROUP BY ${keys}`;
  });
  const controls = windows.map((window) => {
    const ret = outcome(window, CONTROL_MEASURE).sql;
    const select = [`${quoteLiteral(window)} AS "window"`, ...cKeys.map((key) => quoteIdentifier(key))].join(', ');
    const groupBy = cKeys.length > 0 ? `\nGROUP BY ${keyList(cKeys)}` : '';
    return `SELECT ${select},
  ${missingnessAggregatesSql(window, 'control_')},
  ${exactMeanSql(ret)} AS control_raw_mean
FROM base WHERE sample_type = 'control'${groupBy}`;
  });
  const on = ['e."window" = c."window"', ...cKeys.map((key) => `e.${quoteIdentifier(key)} IS NOT DISTINCT FROM c.${quoteIdentifier(key)}`)].join(' AND ');
  const controlCounts = ['control_n', 'control_n_complete', ...MISSING_STATUSES.map((s) => missingColumnName(s, 'control_'))];
  // Each event is compared with the control mean signed by its own direction: the group's mean sign
  // (exactly +1 or -1 when grouped by direction, whatever its number of complete rows) times the control mean.
  const share = by.includes('direction') ? `(CASE e.direction WHEN 'up' THEN 1.0 WHEN 'down' THEN -1.0 END)` : 'e.signed_share';
  const signed = `(${share} * c.control_raw_mean)`;
  return `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from}),
events AS (
${events.join('\nUNION ALL\n')}
),
controls AS (
${controls.join('\nUNION ALL\n')}
)
SELECT e.* EXCLUDE (signed_share),
  ${controlCounts.map((name) => `coalesce(c.${name}, 0)::INTEGER AS ${name}`).join(',\n  ')},
  c.control_raw_mean AS raw_control_mean_pct,
  ${signed} AS signed_control_mean_pct,
  e.mean_return_pct - ${signed} AS difference_pct
FROM events e LEFT JOIN controls c ON ${on}
ORDER BY ${windowOrderSql('e."window"')}, ${keyList(by, 'e.')}`;
}

/** Lists of complete direction-adjusted event returns per window and group, in a fixed order. */
export function eventReturnListsSql(from: string, windows: readonly Window[], by: readonly StudyGroupKey[]): string {
  const keys = keyList(by);
  const parts = windows.map((window) => {
    const ret = outcome(window, 'direction_adjusted_return_pct').sql;
    return `SELECT ${quoteLiteral(window)} AS "window", ${keys}, list(${ret} ORDER BY release_id, row_id) AS returns,
  sum(${DIRECTION_SIGN})::DOUBLE / count(*) AS signed_share
FROM base WHERE sample_type = 'event' AND ${ret} IS NOT NULL
GROUP BY ${keys}`;
  });
  return `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from})\n${parts.join('\nUNION ALL\n')}`;
}

/** Lists of complete raw control returns per window (and symbol when grouped by it). */
export function controlReturnListsSql(from: string, windows: readonly Window[], by: readonly StudyGroupKey[]): string {
  const cKeys = controlKeys(by);
  const parts = windows.map((window) => {
    const ret = outcome(window, CONTROL_MEASURE).sql;
    const select = [`${quoteLiteral(window)} AS "window"`, ...cKeys.map((key) => quoteIdentifier(key))].join(', ');
    const groupBy = cKeys.length > 0 ? `\nGROUP BY ${keyList(cKeys)}` : '';
    return `SELECT ${select}, list(${ret} ORDER BY release_id, row_id) AS returns
FROM base WHERE sample_type = 'control' AND ${ret} IS NOT NULL${groupBy}`;
  });
  return `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from})\n${parts.join('\nUNION ALL\n')}`;
}

/** Rows per UTC day and symbol (events, controls, complete outcomes of `window`), for the coverage map. */
export function coverageSql(from: string, window: Window): string {
  const status = quoteIdentifier(`status_${window}`);
  return `SELECT CAST(day AS VARCHAR) AS day, symbol,
  count(*)::INTEGER AS rows,
  (count(*) FILTER (WHERE sample_type = 'event'))::INTEGER AS events,
  (count(*) FILTER (WHERE sample_type = 'control'))::INTEGER AS controls,
  (count(*) FILTER (WHERE ${status} = 'complete'))::INTEGER AS complete
FROM ${from}
GROUP BY ALL
ORDER BY day, symbol`;
}

/** Release IDs and calculation versions behind the rows. */
export function provenanceSql(from: string): string {
  return `SELECT
  (SELECT coalesce(list_sort(list(DISTINCT release_id)), []) FROM ${from}) AS release_ids,
  (SELECT coalesce(list_sort(list(DISTINCT calculation_version)), []) FROM ${from}) AS calculation_versions,
  (SELECT count(*)::INTEGER FROM ${from}) AS rows`;
}

/** Rows and releases per `calculation_version` of the study's rows (NULL: rows without one), sorted, NULL last. */
export function calculationVersionMixSql(from: string): string {
  return `SELECT calculation_version, count(*)::INTEGER AS rows, count(DISTINCT release_id)::INTEGER AS releases
FROM ${from} GROUP BY calculation_version ORDER BY calculation_version NULLS LAST`;
}

/**
 * Per window, group and UTC day: the exact sum (DECIMAL, then DOUBLE) and count of complete
 * direction-adjusted event returns — what the block jackknife sums per block of days. JavaScript
 * reads these (a few per group and day), never the rows.
 */
export function eventClusterTotalsSql(from: string, windows: readonly Window[], by: readonly StudyGroupKey[]): string {
  const keys = keyList(by);
  const parts = windows.map((window) => {
    const ret = outcome(window, 'direction_adjusted_return_pct').sql;
    return `SELECT ${quoteLiteral(window)} AS "window", ${keys}, CAST(day AS VARCHAR) AS cluster,
  sum(CAST(${ret} AS DECIMAL(38, 18)))::DOUBLE AS total, count(${ret})::INTEGER AS n,
  sum(${DIRECTION_SIGN})::INTEGER AS signed
FROM base WHERE sample_type = 'event' AND ${ret} IS NOT NULL
GROUP BY ${keys}, day`;
  });
  return `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from})\n${parts.join('\nUNION ALL\n')}`;
}

/** Per window (and symbol when grouped by it) and UTC day: exact sum and count of complete raw control returns. */
export function controlClusterTotalsSql(from: string, windows: readonly Window[], by: readonly StudyGroupKey[]): string {
  const cKeys = controlKeys(by);
  const parts = windows.map((window) => {
    const ret = outcome(window, CONTROL_MEASURE).sql;
    const select = [`${quoteLiteral(window)} AS "window"`, ...cKeys.map((key) => quoteIdentifier(key))].join(', ');
    return `SELECT ${select}, CAST(day AS VARCHAR) AS cluster,
  sum(CAST(${ret} AS DECIMAL(38, 18)))::DOUBLE AS total, count(${ret})::INTEGER AS n
FROM base WHERE sample_type = 'control' AND ${ret} IS NOT NULL
GROUP BY ${[...cKeys.map((key) => quoteIdentifier(key)), 'day'].join(', ')}`;
  });
  return `WITH base AS NOT MATERIALIZED (SELECT * FROM ${from})\n${parts.join('\nUNION ALL\n')}`;
}
