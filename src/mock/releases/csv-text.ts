// RFC 4180 CSV text: header first, `\n` line ends, nulls as empty fields, numbers in shortest round-trip form.

import { messages } from './messages.js';
import { ReleaseValueError } from './release-errors.js';

/** A cell value of a CSV row. */
export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV field. null/undefined -> empty field; an empty string is quoted (`""`) so readers can tell it
 * from null; booleans `true`/`false`; numbers via `String(n)` (shortest round-trip); non-finite numbers throw.
 */
export function csvField(value: CsvValue, column = '?'): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ReleaseValueError(messages.nonFiniteValue(column, value));
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === '') return '""';
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** CSV text of rows under a header of `columns`; each row gives its cells by column name. */
export function formatCsv(columns: readonly string[], rows: readonly Readonly<Record<string, unknown>>[]): string {
  const lines = [columns.map((name) => csvField(name)).join(',')];
  for (const row of rows) {
    lines.push(columns.map((name) => csvField(row[name] as CsvValue, name)).join(','));
  }
  return `${lines.join('\n')}\n`;
}
