// The event-vs-control study (issue 6): per window and group, counts by outcome status, return
// statistics over complete outcomes only, and the difference against direction-signed controls with a
// block-jackknife interval and p-value (one method) and a Benjamini–Hochberg q-value. Pipeline: 1. resolve
// options → 2. provenance → 3. aggregates (SQL) → 4. per-day totals (SQL) → 5. jackknife over day blocks (JS)
// → 6. adjustment → 7. Arrow table.

import { intervalCalibrationNote } from './interval-calibration-note.js';
import { Bool, Float64, Int32, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import { addAdjustedSignificance } from './adjusted-significance.js';
import { assertNothingShadowed, MARKET_EVENTS_TABLE } from '../catalog/index.js';
import { EmptyStudyError } from './analysis-errors.js';
import { assertReleasesFound, studyVersionMix } from './study-provenance.js';
import type { AnalysisSourceLike } from './analysis-source.js';
import { rowsFromSql, toAnalysisSource } from './analysis-source.js';
import { addIntervals, dayNumber } from './event-study-intervals.js';
import { resolveEventStudyOptions, type EventStudyOptions, type StudyGroupKey } from './event-study-options.js';
import type { CoverageCell, EventStudyResult, EventStudyRow } from './event-study-result.js';
import { coverageSql, eventStudyAggregateSql, provenanceSql } from './event-study-sql.js';
import { analysisMessages } from './messages.js';
import { MISSING_STATUSES, missingColumnName } from './outcome.js';

/** How controls enter the comparison; recorded in every result's metadata. */
export const CONTROL_COMPARISON =
  'Controls have no direction: each event is compared with the mean complete control return_pct of the same window (and symbol when grouped by it) over the same releases, signed by the event direction (up: +return, down: -return); a group pooling both directions uses its mean sign, (n_up - n_down) / n. Columns: raw_control_mean_pct (unsigned), signed_control_mean_pct (what difference_pct subtracts).';

/** One result column: its name, its type (Arrow, CSV and JSON follow it) and which part of the table it is in. */
export interface EventStudyColumn {
  name: string;
  /** Counts are integers, key columns strings, significant_adjusted a boolean, the rest doubles. */
  type: 'string' | 'integer' | 'number' | 'boolean';
  /**
   * `result`: what the study is read for (window, group keys, counts, difference, CI, q-value) and what
   * every printed table shows by default; `detail`: the rest (missing counts by status, return statistics,
   * controls, p-value), shown by `rdw study event --wide`, the report and every file.
   */
  part: 'result' | 'detail';
}

/**
 * Result columns in order, for a grouping: the one declaration of the column order of the rows, the Arrow
 * table, event-study.csv and .json, the report's table and every printed table. Results first (window,
 * group keys, n, n_complete, difference_pct, ci_low_pct, ci_high_pct, q_value, significant_adjusted),
 * then the detail.
 */
export function eventStudyColumns(by: readonly StudyGroupKey[]): EventStudyColumn[] {
  const result = (name: string, type: EventStudyColumn['type']): EventStudyColumn => ({ name, type, part: 'result' });
  const detail = (name: string, type: EventStudyColumn['type'] = 'number'): EventStudyColumn => ({ name, type, part: 'detail' });
  const missing = (prefix: string) => MISSING_STATUSES.map((status) => detail(missingColumnName(status, prefix), 'integer'));
  return [
    result('window', 'string'),
    ...by.map((key) => result(key, 'string')),
    result('n', 'integer'),
    result('n_complete', 'integer'),
    result('difference_pct', 'number'),
    result('ci_low_pct', 'number'),
    result('ci_high_pct', 'number'),
    result('q_value', 'number'),
    result('significant_adjusted', 'boolean'),
    detail('p_value'),
    ...missing(''),
    detail('mean_return_pct'),
    detail('median_return_pct'),
    detail('hit_rate'),
    detail('median_mfe_pct'),
    detail('median_mae_pct'),
    detail('control_n', 'integer'),
    detail('control_n_complete', 'integer'),
    ...missing('control_'),
    detail('raw_control_mean_pct'),
    detail('signed_control_mean_pct'),
  ];
}

/**
 * Runs the event study over a catalog connection.
 * @param source a catalog connection (or AnalysisSource naming its tables)
 * @param options window(s) (default `1h`), grouping (default event_kind × direction), exact release IDs
 *   (default: the current view), interval (default: the block jackknife over UTC-day blocks, auto block length,
 *   95%; `bootstrap` is its old name). Every row with an interval gets a p-value from the same method and a
 *   Benjamini–Hochberg q-value over those rows, at level 1 - confidence.
 *   Rows of more than one calculation_version are refused unless `allowMixedCalculationVersions` is true.
 * @throws AnalysisOptionError, ReleaseNotInCatalogError, EmptyStudyError, MixedCalculationVersionsError (exit 2)
 */
export async function eventStudy(source: AnalysisSourceLike, options: EventStudyOptions = {}): Promise<EventStudyResult> {
  // 1. options and the rows' FROM clause
  const resolved = resolveEventStudyOptions(options);
  const catalog = toAnalysisSource(source);
  const connection = catalog.connection;
  // A user macro named like DuckDB's own function would run inside every aggregate below.
  await assertNothingShadowed(connection, catalog.eventsTable === MARKET_EVENTS_TABLE ? catalog.eventsTable : undefined);
  const from = rowsFromSql(catalog, resolved.releases);

  // 2. provenance: which releases and calculation versions the rows come from
  const provenance = (await connection.runAndReadAll(provenanceSql(from))).getRowObjectsJS()[0]!;
  const releaseIds = (provenance.release_ids as string[]) ?? [];
  const calculationVersions = (provenance.calculation_versions as string[]) ?? [];
  assertReleasesFound(resolved.releases, releaseIds);
  if (Number(provenance.rows) === 0) throw new EmptyStudyError(analysisMessages.emptyStudy());
  // Rows of different formula versions are not comparable as one sample: pooled only when asked for.
  const calculationVersionMix = await studyVersionMix(connection, from, resolved.allowMixedCalculationVersions);

  // 3. aggregates per window × group, joined to direction-signed controls (all in DuckDB)
  const rows = (await connection.runAndReadAll(eventStudyAggregateSql(from, resolved.windows, resolved.by)))
    .getRowObjectsJS()
    .map((row) => normalizeRow(row, resolved.by));

  // 4-5. intervals: DuckDB totals per day (or lists returns, row bootstrap); JS sums blocks and leaves each out.
  // Blocks count from the study's first day: the first coverage cell's (cells are ordered by day).
  const coverage = (await connection.runAndReadAll(coverageSql(from, resolved.windows[0]!))).getRowObjectsJS() as unknown as CoverageCell[];
  const intervals = await addIntervals(connection, from, rows, resolved, dayNumber(coverage[0]!.day));

  // 6. one multiple-comparison adjustment over every window × group
  const multipleComparisons = addAdjustedSignificance(rows, Number((1 - resolved.interval.confidence).toPrecision(12)), resolved.interval.method);

  // 7. the Arrow table (the coverage cells were read in step 4)
  return {
    table: eventStudyTable(rows, resolved.by),
    rows,
    coverage,
    metadata: {
      releaseIds,
      calculationVersions,
      calculationVersionMix,
      selection: resolved.releases === undefined ? 'current' : 'releases',
      rows: Number(provenance.rows),
      windows: resolved.windows,
      by: resolved.by,
      interval: resolved.interval,
      intervalBlockDays: intervals.blockDays,
      intervalBlocks: intervals.blocks,
      intervalGaps: intervals.gaps,
      intervalDescription: analysisMessages.intervalDescription(resolved.interval, intervals.blockDays),
      intervalCalibration: resolved.interval.method === 'block-jackknife' ? intervalCalibrationNote('event') : null,
      controlComparison: CONTROL_COMPARISON,
      multipleComparisons,
    },
  };
}

function normalizeRow(row: Record<string, unknown>, by: readonly StudyGroupKey[]): EventStudyRow {
  const out: Record<string, unknown> = {};
  for (const column of eventStudyColumns(by)) {
    const value = row[column.name];
    if (value === null || value === undefined) out[column.name] = null;
    else if (column.type === 'string') out[column.name] = String(value);
    else if (column.type === 'boolean') out[column.name] = Boolean(value);
    else out[column.name] = Number(value);
  }
  return out as EventStudyRow;
}

/** The rows as an Arrow table with typed columns (Utf8 keys, Int32 counts, Float64 statistics). */
export function eventStudyTable(rows: readonly EventStudyRow[], by: readonly StudyGroupKey[]): Table {
  const record = rows as readonly Record<string, unknown>[];
  const vectors: Record<string, Vector> = {};
  for (const column of eventStudyColumns(by)) {
    const values = record.map((row) => row[column.name] ?? null);
    vectors[column.name] =
      column.type === 'string'
        ? vectorFromArray(values as (string | null)[], new Utf8())
        : column.type === 'integer'
          ? vectorFromArray(values as (number | null)[], new Int32())
          : column.type === 'boolean'
            ? vectorFromArray(values as (boolean | null)[], new Bool())
            : vectorFromArray(values as (number | null)[], new Float64());
  }
  return new Table(vectors);
}
