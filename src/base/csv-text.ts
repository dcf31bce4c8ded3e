// RFC 4180 CSV text: header first, `\n` after every line, null/undefined as empty fields, numbers in
// shortest round-trip form; a field holding `,` `"` CR or LF is quoted, its quotes doubled.

export interface CsvOptions {
  /** Write an empty string as `""` so a reader can tell it from null (an empty field). Default false. */
  quoteEmpty?: boolean;
  /**
   * The field of a NaN or infinite number (`column`: its column name, '?' when not known); may throw
   * instead. Default `String(value)` ('NaN', 'Infinity').
   */
  nonFinite?: (value: number, column: string) => string;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field: booleans `true`/`false`, numbers via `String(n)`, other values via `String(value)`. */
export function csvField(value: unknown, options: CsvOptions = {}, column = '?'): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && !Number.isFinite(value) && options.nonFinite !== undefined) return options.nonFinite(value, column);
  const text = String(value);
  if (text === '') return options.quoteEmpty === true && typeof value === 'string' ? '""' : '';
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of rows under a header of `columns`; each row gives its cells by column name. */
export function formatCsv(columns: readonly string[], rows: readonly Readonly<Record<string, unknown>>[], options: CsvOptions = {}): string {
  // Same fields as `csvField`, inlined for the common types (the mock runs this for every cell of every
  // release); cells and lines are joined natively rather than concatenated one by one.
  const nonFinite = options.nonFinite;
  const lines: string[] = [columns.map((name) => csvField(name, options)).join(',')];
  const cells: string[] = new Array<string>(columns.length);
  for (const row of rows) {
    for (let i = 0; i < columns.length; i++) {
      const name = columns[i] as string;
      const value = row[name];
      if (value === null || value === undefined) cells[i] = '';
      else if (typeof value === 'number') cells[i] = Number.isFinite(value) || nonFinite === undefined ? String(value) : nonFinite(value, name);
      else if (typeof value === 'string' && value !== '' && !NEEDS_QUOTES.test(value)) cells[i] = value;
      else cells[i] = csvField(value, options, name);
    }
    lines.push(cells.join(','));
  }
  lines.push('');
  return lines.join('\n');
}
