// How the CLI prints rows (rdw sql, ls, releases, research, live): an aligned table with a rule under the
// header and a row count; null as NULL, objects as JSON, numeric columns right-aligned.

import { printableText, textTableLines } from '../base/index.js';

/**
 * Renders one cell for a text table: null as `NULL`, objects as JSON; control characters (a line break, a
 * terminal's escape codes from a service's text) escaped, so a cell stays one cell and cannot drive the terminal.
 */
function cellText(value: unknown, digits: number | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  // Number(toPrecision) drops the binary float's tail (0.30000000000000004 → 0.3) and keeps exponents for the tiny.
  if (digits !== undefined && typeof value === 'number' && !Number.isInteger(value) && Number.isFinite(value)) return String(Number(value.toPrecision(digits)));
  return printableText(typeof value === 'object' ? JSON.stringify(value) : String(value), Infinity);
}

/** Options of formatTable. */
export interface FormatTableOptions {
  /** A longer cell is cut to this many characters, ending in `…` (a terminal's table; CSV and JSON stay whole). */
  readonly maxCellWidth?: number;
  /** A number that is not an integer is shown with at most this many significant digits (a terminal's table). */
  readonly significantDigits?: number;
  /** Per column, whether it holds numbers (right-aligned); default: a column whose every value is a number or null. */
  readonly numericColumns?: readonly boolean[];
}

/** Rows as an aligned text table with a header and a row count; numbers right-aligned. Ends with a newline. */
export function formatTable(columns: readonly string[], rows: readonly Record<string, unknown>[], options: FormatTableOptions = {}): string {
  const max = options.maxCellWidth ?? Infinity;
  const cut = (text: string) => ([...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text);
  const cells = rows.map((row) => columns.map((column) => cut(cellText(row[column], options.significantDigits))));
  const numeric =
    options.numericColumns ?? columns.map((column) => rows.length > 0 && rows.every((row) => row[column] === null || typeof row[column] === 'number'));
  const lines = textTableLines(columns.map((column) => printableText(column, Infinity)), cells, { rightAligned: numeric, rule: true });
  return [...lines, `(${rows.length} row${rows.length === 1 ? '' : 's'})`, ''].join('\n');
}
