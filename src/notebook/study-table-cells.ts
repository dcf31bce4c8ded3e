// The event study's table as cells, results first: the compact default (window, group keys, n, missing,
// diff, CI, q) or every column (wide), both in the one column order of eventStudyColumns.

import { eventStudyColumns, type EventStudyResult } from '../analysis/index.js';
import { formatValue } from './html-table.js';

export interface StudyTableOptions {
  /** True: every column (eventStudyColumns, names as in CSV and JSON). Default false: the results columns. */
  wide?: boolean;
}

/** A table ready to print: headers, which columns are numbers (right-aligned), and the cells as text. */
export interface StudyTableCells {
  header: string[];
  rightAligned: boolean[];
  rows: string[][];
}

/** Decimal places of differences and CI bounds (percentage points): 0.001 pp = 0.1 basis point. */
export const STUDY_TABLE_DECIMALS = 3;
/** Significant digits of every non-integer in the wide table. */
export const STUDY_TABLE_WIDE_DIGITS = 4;
/** Below this a q-value prints as `<0.001`. */
const SMALLEST_Q = 0.001;

type Row = Record<string, unknown>;
type CompactColumn = { header: string; right: boolean; cells: (rows: readonly Row[]) => string[] };

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const fixed = (value: unknown): string => {
  const x = num(value);
  return x === null ? '' : x.toFixed(STUDY_TABLE_DECIMALS);
};

/** The confidence as a percentage without float noise: 0.9 → 90. */
export function confidencePercent(confidence: number): number {
  return Number((confidence * 100).toPrecision(10));
}

/** A q-value to 3 decimals (`0.034`, `0.230`, `1.000`), decimal points aligned; under 0.001 as `<0.001`; blank when none. */
export function formatQValue(value: unknown): string {
  const q = num(value);
  if (q === null) return '';
  return q < SMALLEST_Q ? `<${SMALLEST_Q}` : q.toFixed(3);
}

/**
 * The compact column a result column turns into (null: merged into another one). Looked up in the order
 * eventStudyColumns declares, so the compact table keeps that order.
 */
function compactColumn(name: string, confidence: number): CompactColumn | null {
  switch (name) {
    case 'n': // complete of all, e.g. 1391/1399
      return { header: 'n', right: true, cells: (rows) => rows.map((r) => `${String(r.n_complete)}/${String(r.n)}`) };
    case 'n_complete': // all - complete: the events whose outcome is missing (by status in the wide table)
      return { header: 'missing', right: true, cells: (rows) => rows.map((r) => String(Number(r.n) - Number(r.n_complete))) };
    case 'difference_pct': // with `*` when significant after the adjustment, a space otherwise (digits align)
      return {
        header: 'diff',
        right: true,
        cells: (rows) => rows.map((r) => (num(r.difference_pct) === null ? '' : `${fixed(r.difference_pct)}${r.significant_adjusted === true ? '*' : ' '}`)),
      };
    case 'ci_low_pct':
      return { header: `${confidencePercent(confidence)}% CI`, right: true, cells: intervalCells };
    case 'q_value':
      return { header: 'q', right: true, cells: (rows) => rows.map((r) => formatQValue(r.q_value)) };
    case 'ci_high_pct':
    case 'significant_adjusted':
      return null;
    default: // window and the group keys
      return { header: name, right: false, cells: (rows) => rows.map((r) => formatValue(r[name])) };
  }
}

/** `[low, high]` with both bounds padded to their widest, so the brackets and commas line up. */
function intervalCells(rows: readonly Row[]): string[] {
  const lows = rows.map((r) => fixed(r.ci_low_pct));
  const highs = rows.map((r) => fixed(r.ci_high_pct));
  const [lowWidth, highWidth] = [lows, highs].map((cells) => cells.reduce((width, cell) => Math.max(width, cell.length), 0));
  return rows.map((_, i) => (lows[i] === '' || highs[i] === '' ? '' : `[${lows[i]!.padStart(lowWidth!)}, ${highs[i]!.padStart(highWidth!)}]`));
}

/**
 * The study's rows as table cells, in the order of eventStudyColumns. Default: the results columns only —
 * window, group keys, `n` (complete/all), `missing` (all − complete), `diff` (percentage points, 3
 * decimals, `*` when significant_adjusted), the CI as `[low, high]` and the BH `q`. `wide`: every column,
 * named as in the CSV, non-integers to 4 significant digits. A statistic without complete rows is blank.
 */
export function studyTableCells(result: Pick<EventStudyResult, 'rows' | 'metadata'>, options: StudyTableOptions = {}): StudyTableCells {
  const rows = result.rows as unknown as Row[];
  const columns = eventStudyColumns(result.metadata.by);
  if (options.wide === true) {
    return {
      header: columns.map((column) => column.name),
      rightAligned: columns.map((column) => column.type !== 'string'),
      rows: rows.map((row) => columns.map((column) => formatValue(row[column.name], STUDY_TABLE_WIDE_DIGITS))),
    };
  }
  const compact = columns
    .filter((column) => column.part === 'result')
    .map((column) => compactColumn(column.name, result.metadata.interval.confidence))
    .filter((column): column is CompactColumn => column !== null);
  const cells = compact.map((column) => column.cells(rows));
  return {
    header: compact.map((column) => column.header),
    rightAligned: compact.map((column) => column.right),
    rows: rows.map((_, i) => cells.map((column) => column[i]!)),
  };
}
