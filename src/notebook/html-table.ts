// Renders rows as a small, escaped HTML table for notebook output (tslab.display.html).

import { escapeHtml, textTableLines } from '../base/index.js';

export interface HtmlTableOptions {
  /** Columns to show, in order; default: the keys of the first row. */
  columns?: readonly string[];
  /** Rows shown at most; a footer says how many were left out. Default 50. */
  maxRows?: number;
  /** Significant digits of non-integer numbers. Default 4. */
  digits?: number;
  /** Caption above the table. */
  caption?: string;
  /**
   * What a null cell shows (greyed, HTML only). Default `null`: in a data table a null is a missing value, never
   * zero. A results table whose pooled row has no value for a per-fold column passes e.g. `–` (not applicable).
   */
  missing?: string;
}

/** An HTML `<table>` of `rows`; a null shows greyed as `options.missing` (default `null`; textTable leaves it blank). */
export function htmlTable(rows: readonly Record<string, unknown>[], options: HtmlTableOptions = {}): string {
  const columns = options.columns ?? Object.keys(rows[0] ?? {});
  const maxRows = options.maxRows ?? 50;
  const digits = options.digits ?? 4;
  const missing = `<td style="color:#999">${escapeHtml(options.missing ?? 'null')}</td>`;
  const head = columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('');
  const body = rows
    .slice(0, maxRows)
    .map((row) => `<tr>${columns.map((column) => cell(row[column], digits, missing)).join('')}</tr>`)
    .join('\n');
  const more = rows.length > maxRows ? `<tfoot><tr><td colspan="${columns.length}">… ${rows.length - maxRows} more rows</td></tr></tfoot>` : '';
  const caption = options.caption ? `<caption>${escapeHtml(options.caption)}</caption>` : '';
  return `<table class="rdw-table">${caption}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody>${more}</table>`;
}

/** Plain-text rendering of the same table, for printed (reproducible) outputs. */
export function textTable(rows: readonly Record<string, unknown>[], options: HtmlTableOptions = {}): string {
  const columns = options.columns ?? Object.keys(rows[0] ?? {});
  const digits = options.digits ?? 4;
  const shown = rows.slice(0, options.maxRows ?? 50).map((row) => columns.map((column) => formatValue(row[column], digits)));
  return textTableLines(columns, shown).join('\n');
}

/** One value as table text: integers as-is, other numbers to `digits` significant digits (whole numbers from 10^digits up), null/undefined as empty (missing, never 0). */
export function formatValue(value: unknown, digits = 4): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
    // Large non-integers (prices, volumes) as whole numbers rather than in exponent notation.
    return Math.abs(value) >= 10 ** digits ? value.toFixed(0) : value.toPrecision(digits);
  }
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function cell(value: unknown, digits: number, missing: string): string {
  if (value === null || value === undefined) return missing;
  const align = typeof value === 'number' || typeof value === 'bigint' ? ' style="text-align:right"' : '';
  return `<td${align}>${escapeHtml(formatValue(value, digits))}</td>`;
}
