// Turns event-study rows into the plain arrays the chart builders take.

import { MISSING_STATUSES, missingColumnName, type EventStudyRow } from '../analysis/index.js';
import type { EffectPoint, MissingnessBar } from '../charts/index.js';

/** A group's label: its key values joined by spaces, e.g. `breakout up BTCUSDT`. */
export function groupLabel(row: EventStudyRow): string {
  return [row.event_kind, row.direction, row.symbol].filter((value) => value !== undefined && value !== null).join(' ');
}

/** Effect chart points: difference and CI per window and group. */
export function effectPoints(rows: readonly EventStudyRow[]): EffectPoint[] {
  return rows.map((row) => ({
    window: row.window,
    group: groupLabel(row),
    difference: row.difference_pct,
    ciLow: row.ci_low_pct,
    ciHigh: row.ci_high_pct,
  }));
}

/** Missingness bars: complete and each missing status per window and group, plus the controls. */
export function missingnessBars(rows: readonly EventStudyRow[]): MissingnessBar[] {
  const bars: MissingnessBar[] = [];
  const record = (row: EventStudyRow, prefix: '' | 'control_', group: string) => {
    const values = row as unknown as Record<string, number>;
    bars.push({ window: row.window, group, status: 'complete', rows: values[`${prefix}n_complete`] ?? 0 });
    for (const status of MISSING_STATUSES) {
      bars.push({ window: row.window, group, status, rows: values[missingColumnName(status, prefix)] ?? 0 });
    }
  };
  const controlsSeen = new Set<string>();
  for (const row of rows) {
    record(row, '', groupLabel(row));
    // Controls are shared by every group of a window (and symbol): show them once.
    const controlGroup = row.symbol ? `controls ${row.symbol}` : 'controls';
    const key = `${row.window}|${controlGroup}`;
    if (!controlsSeen.has(key)) {
      controlsSeen.add(key);
      record(row, 'control_', controlGroup);
    }
  }
  return bars;
}
