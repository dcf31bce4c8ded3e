// Point-in-time rules: keep only rows whose features were locally known at sample_time, and say how
// many were dropped for which reason (first failing rule wins, in the order of PIT_DROP_REASONS).

import type { AnalysisSourceLike } from './analysis-source.js';
import { resolveReleaseIds, rowsFromSql, toAnalysisSource } from './analysis-source.js';

/** Why a row is not point-in-time, in the order the rules are checked. */
export const PIT_DROP_REASONS = [
  /** feature_pit_eligible is not true. */
  'not_pit_eligible',
  /** feature_available_at is null: when the features were known cannot be shown. */
  'feature_available_at_missing',
  /** feature_available_at > sample_time. */
  'feature_after_sample_time',
  /** derivative_available_at > sample_time (a null derivative time is fine: no derivative context). */
  'derivative_after_sample_time',
] as const;
export type PitDropReason = (typeof PIT_DROP_REASONS)[number];

/** Rows kept and dropped by reason. */
export interface PointInTimeCounts {
  total: number;
  kept: number;
  dropped: Record<PitDropReason, number>;
}

/** SQL CASE giving a row's drop reason, or NULL when it is point-in-time. */
export function pointInTimeReasonSql(): string {
  return `(CASE
    WHEN feature_pit_eligible IS NOT TRUE THEN 'not_pit_eligible'
    WHEN feature_available_at IS NULL THEN 'feature_available_at_missing'
    WHEN feature_available_at > sample_time THEN 'feature_after_sample_time'
    WHEN derivative_available_at IS NOT NULL AND derivative_available_at > sample_time THEN 'derivative_after_sample_time'
  END)`;
}

/** SQL predicate: true for point-in-time rows only. */
export function pointInTimeConditionSql(): string {
  return `(${pointInTimeReasonSql()} IS NULL)`;
}

/** The drop reason of one row object, or null when it is point-in-time. */
export function pointInTimeReason(value: object): PitDropReason | null {
  const row = value as Readonly<Record<string, unknown>>;
  const sampleTime = row.sample_time as number;
  const featureAt = row.feature_available_at as number | null | undefined;
  const derivativeAt = row.derivative_available_at as number | null | undefined;
  if (row.feature_pit_eligible !== true) return 'not_pit_eligible';
  if (featureAt === null || featureAt === undefined) return 'feature_available_at_missing';
  if (featureAt > sampleTime) return 'feature_after_sample_time';
  if (derivativeAt !== null && derivativeAt !== undefined && derivativeAt > sampleTime) return 'derivative_after_sample_time';
  return null;
}

function emptyDropped(): Record<PitDropReason, number> {
  return Object.fromEntries(PIT_DROP_REASONS.map((reason) => [reason, 0])) as Record<PitDropReason, number>;
}

/** Keeps the point-in-time rows of an array, with counts of what was dropped and why. */
export function filterPointInTime<Row extends object>(
  rows: readonly Row[],
): { rows: Row[]; counts: PointInTimeCounts } {
  const dropped = emptyDropped();
  const kept: Row[] = [];
  for (const row of rows) {
    const reason = pointInTimeReason(row);
    if (reason === null) kept.push(row);
    else dropped[reason] += 1;
  }
  return { rows: kept, counts: { total: rows.length, kept: kept.length, dropped } };
}

/**
 * Counts point-in-time rows in the catalog by drop reason.
 * @param options.releases exact release IDs; default: the current view (newest revision per day).
 */
export async function pointInTimeCounts(
  source: AnalysisSourceLike,
  options: { releases?: readonly string[] } = {},
): Promise<PointInTimeCounts> {
  const resolved = toAnalysisSource(source);
  const releaseIds = options.releases === undefined ? undefined : resolveReleaseIds(options.releases);
  const reader = await resolved.connection.runAndReadAll(
    `SELECT ${pointInTimeReasonSql()} AS reason, count(*)::INTEGER AS rows FROM ${rowsFromSql(resolved, releaseIds)} GROUP BY ALL`,
  );
  const dropped = emptyDropped();
  let total = 0;
  let kept = 0;
  for (const row of reader.getRowObjectsJS()) {
    const count = Number(row.rows);
    total += count;
    if (row.reason === null) kept += count;
    else dropped[row.reason as PitDropReason] += count;
  }
  return { total, kept, dropped };
}
