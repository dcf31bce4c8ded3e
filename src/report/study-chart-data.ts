// Turns event-study rows into the plain arrays the chart builders take.

import { analysisMessages, MISSING_STATUSES, missingColumnName, type EventStudyMetadata, type EventStudyRow } from '../analysis/index.js';
import type { EffectPoint, MissingnessBar } from '../charts/index.js';

/** A group's label: its key values joined by spaces, e.g. `breakout up BTCUSDT`. */
export function groupLabel(row: EventStudyRow): string {
  return [row.event_kind, row.direction, row.symbol].filter((value) => value !== undefined && value !== null).join(' ');
}

/** Effect chart points: difference and CI per window and group, with the n behind each estimate. */
export function effectPoints(rows: readonly EventStudyRow[]): EffectPoint[] {
  return rows.map((row) => ({
    window: row.window,
    group: groupLabel(row),
    difference: row.difference_pct,
    ciLow: row.ci_low_pct,
    ciHigh: row.ci_high_pct,
    nComplete: row.n_complete,
    n: row.n,
    controlNComplete: row.control_n_complete,
    significant: row.significant_adjusted,
    qValue: row.q_value,
  }));
}

/**
 * What the effect chart's bars are, from a study's metadata: method and level, `95% CI, block-jackknife t over
 * UTC-day blocks`, or the row bootstrap's (labelled as ignoring day clustering). The block lengths are in the
 * report's description (a longer subtitle would widen the chart).
 */
export function effectInterval(metadata: Pick<EventStudyMetadata, 'interval'>): string {
  return analysisMessages.intervalShort(metadata.interval);
}

/** Missingness bars: complete and each missing status per window and group, then the controls (last in each window). */
export function missingnessBars(rows: readonly EventStudyRow[]): MissingnessBar[] {
  const groups: MissingnessBar[] = [];
  const controls: MissingnessBar[] = [];
  const record = (into: MissingnessBar[], row: EventStudyRow, prefix: '' | 'control_', group: string) => {
    const values = row as unknown as Record<string, number>;
    into.push({ window: row.window, group, status: 'complete', rows: values[`${prefix}n_complete`] ?? 0 });
    for (const status of MISSING_STATUSES) {
      into.push({ window: row.window, group, status, rows: values[missingColumnName(status, prefix)] ?? 0 });
    }
  };
  const controlsSeen = new Set<string>();
  for (const row of rows) {
    record(groups, row, '', groupLabel(row));
    // Controls are shared by every group of a window (and symbol): show them once.
    const controlGroup = row.symbol ? `controls ${row.symbol}` : 'controls';
    const key = `${row.window}|${controlGroup}`;
    if (!controlsSeen.has(key)) {
      controlsSeen.add(key);
      record(controls, row, 'control_', controlGroup);
    }
  }
  // The chart keeps input order within a window: events first, their controls below.
  return [...groups, ...controls];
}
