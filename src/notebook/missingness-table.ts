// The missingness report as a table: one row per window and sample type, one column per outcome status.

import type { MissingnessCell } from '../analysis/index.js';
import { OUTCOME_STATUSES } from '../contract/index.js';

/** A row of the missingness report: counts by status, plus `missing_share` (non-complete / all, 0..1; null for no rows). */
export type MissingnessRow = { window: string; sample_type: string; rows: number; missing_share: number | null } & Record<string, number | string | null>;

/** Pivots `missingnessSummary` cells to one row per window × sample type (input order kept), statuses as columns. */
export function missingnessRows(cells: readonly MissingnessCell[]): MissingnessRow[] {
  const byKey = new Map<string, MissingnessRow>();
  for (const cell of cells) {
    const key = `${cell.window}|${cell.sample_type}`;
    let row = byKey.get(key);
    if (row === undefined) {
      row = { window: cell.window, sample_type: cell.sample_type, rows: 0, missing_share: null };
      for (const status of OUTCOME_STATUSES) row[status] = 0;
      byKey.set(key, row);
    }
    row[cell.status] = (row[cell.status] as number) + cell.rows;
    row.rows += cell.rows;
  }
  for (const row of byKey.values()) row.missing_share = row.rows === 0 ? null : (row.rows - (row.complete as number)) / row.rows;
  return [...byKey.values()];
}

/** Column order of the report: window, sample_type, rows, each status, missing_share. */
export const MISSINGNESS_COLUMNS: readonly string[] = ['window', 'sample_type', 'rows', ...OUTCOME_STATUSES, 'missing_share'];
