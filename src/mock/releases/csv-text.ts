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
  // Same cells as `csvField`, inlined for the common types (this runs for every cell of every release);
  // cells and lines are joined natively rather than concatenated one by one.
  const lines: string[] = [columns.map((name) => csvField(name)).join(',')];
  const cells: string[] = new Array<string>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const name = columns[i] as string;
      const value = row[name];
      if (value === null || value === undefined) cells[i] = '';
      else if (typeof value === 'number') {
        if (!Number.isFinite(value)) throw new ReleaseValueError(messages.nonFiniteValue(name, value));
        cells[i] = String(value);
      } else if (typeof value === 'string' && value !== '' && !NEEDS_QUOTES.test(value)) cells[i] = value;
      else cells[i] = csvField(value as CsvValue, name);
    }
    lines.push(cells.join(','));
  }
  lines.push('');
  return lines.join('\n');
}
