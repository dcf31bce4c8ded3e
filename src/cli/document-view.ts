// How `rdw research` and `rdw live` show a free or public document whatever its shape: the documented
// envelope as a header line and a table of its items; any other shape as what it is (rows, fields, JSON).

import { formatCsv, printableText } from '../base/index.js';
import type { ResearchTable } from '../workbench/index.js';
import type { CliContext } from './cli-context.js';
import { byteText } from './byte-text.js';
import { formatTable } from './format-table.js';
import { documentMessages } from './messages.js';
import { wrapText } from './wrap-text.js';
import { forOutput } from './terminal-safe-text.js';

type Row = Record<string, unknown>;

/** Envelope fields shown in the header line of a snapshot or live page (spec: "Research dataset snapshot"). */
const HEADER_FIELDS = ['key', 'updated', 'generated_at', 'calculation_version', 'stale'] as const;

/** The Research catalog's columns in the usual view: field of each dataset -> column title. */
const CATALOG_COLUMNS: readonly (readonly [string, string])[] = [
  ['id', 'id'],
  ['calculation_version', 'calculation_version'],
  ['json_url', 'json'],
  ['csv_url', 'csv'],
];

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for an array whose every element is a JSON object: rows for a table (an empty array counts). */
export function isRowList(value: unknown): value is Row[] {
  return Array.isArray(value) && value.every(isPlainObject);
}

/** Column names of `rows`: every key, in the order first seen (rows of another service may differ). */
export function rowColumns(rows: readonly Row[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  return [...columns];
}

/** Rows as an aligned table; a field a row does not carry is shown empty (missing, never invented). */
export function rowTable(rows: readonly Row[], columns: readonly string[] = rowColumns(rows)): string {
  const filled = rows.map((row) => Object.fromEntries(columns.map((column) => [column, column in row ? row[column] : ''])));
  return formatTable(columns, filled);
}

/**
 * Prints a Research snapshot or live page (`name`: the dataset ID or page key asked for). With --json, the
 * body exactly as received. Otherwise: the envelope's header (observation time, generation time,
 * calculation version, and STALE when `stale` is true), the items as a table and the envelope's other fields
 * (source, window, summary, limitation) below it; items that are not rows,
 * or a body without the envelope, as its fields; an array of objects as a table; anything else as JSON.
 */
export function writeDocument(context: CliContext, name: string, document: unknown): void {
  const out = context.stdout;
  if (context.json) return void out.write(`${JSON.stringify(document)}\n`);
  if (isPlainObject(document)) {
    const header = headerLine(name, document);
    if (header === undefined) out.write(`${wrapText(documentMessages.otherShape(name, 'a JSON object'), out.columns, 2)}\n`);
    else out.write(`${wrapText(header, out.columns, 2)}\n`);
    const items = document.items;
    if (header !== undefined && isRowList(items)) {
      // An items column that only repeats the header's calculation version is said once, in the header (the
      // table then fits 100 columns); a row of another version keeps the column.
      const sameVersion = 'calculation_version' in document && items.every((item) => item.calculation_version === document.calculation_version);
      const columns = rowColumns(items).filter((column) => !(sameVersion && column === 'calculation_version'));
      out.write(items.length === 0 ? `${documentMessages.noItems()}\n` : rowTable(items, columns));
      // The rest of the envelope (source, window, summary, limitation…) travels with the rows: the spec says
      // limitations must go with downstream analysis.
      return void out.write(fieldLines(document, [...HEADER_FIELDS, 'items'], 0, out.columns));
    }
    return void out.write(fieldLines(document, header === undefined ? [] : HEADER_FIELDS, 1, out.columns));
  }
  if (Array.isArray(document)) {
    out.write(`${wrapText(documentMessages.otherShape(name, `a JSON array of ${document.length} element${document.length === 1 ? '' : 's'}`), out.columns, 2)}\n`);
    if (document.length > 0 && isRowList(document)) return void out.write(rowTable(document));
    return void out.write(`${JSON.stringify(document, null, 2)}\n`);
  }
  out.write(`${wrapText(documentMessages.otherShape(name, document === null ? 'JSON null' : `a JSON ${typeof document}`), out.columns, 2)}\n`);
  out.write(`${JSON.stringify(document)}\n`);
}

/**
 * Prints the free Research catalog: its scope, the datasets as a table, the limits as the service states them
 * ("not stated" where it does not), then its other fields (limitations). A catalog in another shape is shown as
 * its fields.
 */
export function writeResearchCatalog(context: CliContext, catalog: unknown): void {
  const out = context.stdout;
  if (context.json) return void out.write(`${JSON.stringify(catalog)}\n`);
  if (!isPlainObject(catalog) || !isRowList(catalog.datasets)) return writeDocument(context, 'research catalog', catalog);
  if (typeof catalog.scope === 'string') out.write(`${valueText(catalog.scope)}\n\n`);
  const datasets = catalog.datasets as Row[];
  // A csv column that only repeats each json path plus "/csv" is said once below the table instead (the
  // table then fits a terminal); a service whose CSV paths differ keeps the column.
  const csvBesideJson = datasets.length > 0 && datasets.every((dataset) => typeof dataset.json_url === 'string' && dataset.csv_url === `${dataset.json_url}/csv`);
  const known = CATALOG_COLUMNS.filter(([field]) => datasets.some((dataset) => field in dataset) && !(csvBesideJson && field === 'csv_url'));
  if (known.length === 0) out.write(rowTable(datasets));
  else {
    const rows = datasets.map((dataset) => Object.fromEntries(known.map(([field, title]) => [title, field in dataset ? dataset[field] : ''])));
    out.write(formatTable(known.map(([, title]) => title), rows));
  }
  if (csvBesideJson) out.write(`${documentMessages.csvBesideJson()}\n`);
  out.write(`\n${limitsLine(catalog.limits)}\n`);
  // The rest of the catalog, its limitations first of all (spec: they "must travel with downstream analysis").
  out.write(fieldLines(catalog, ['scope', 'datasets', 'limits'], 0, out.columns));
}

/** Prints CSV rows again as CSV (header first), or as JSON rows with --json. */
export function writeCsvTable(context: CliContext, table: ResearchTable): void {
  if (context.json) return void context.stdout.write(`${JSON.stringify(table.rows)}\n`);
  // The service's text: on a terminal its control characters are shown, not obeyed (piped, every byte as sent).
  context.stdout.write(forOutput(context.stdout, formatCsv(table.columns, table.rows)));
}

/** The header line of an object carrying any envelope field, else undefined. Only fields present are shown. */
function headerLine(name: string, document: Row): string | undefined {
  if (!HEADER_FIELDS.some((field) => field in document)) return undefined;
  const parts: string[] = [];
  if ('updated' in document) parts.push(`observed ${timeText(document.updated)}`);
  if ('generated_at' in document) parts.push(`generated ${timeText(document.generated_at)}`);
  if ('calculation_version' in document) parts.push(`calculation ${valueText(document.calculation_version)}`);
  const key = typeof document.key === 'string' && document.key !== '' ? valueText(document.key) : name;
  const stale = !('stale' in document) || document.stale === false ? '' : ` — ${document.stale === true ? documentMessages.stale() : documentMessages.staleValue(valueText(document.stale))}`;
  return `${key}:${parts.length === 0 ? '' : ` ${parts.join(', ')}`}${stale}`;
}

/** UTC Unix seconds as ISO time; null as "none"; anything else (a string, an odd number) as sent. */
function timeText(value: unknown): string {
  if (value === null) return documentMessages.noObservation();
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= 8.64e12) {
    return new Date(value * 1000).toISOString().replace('.000Z', 'Z');
  }
  return valueText(value);
}

/** A string as it is; any other JSON value as JSON. */
function valueText(value: unknown): string {
  // A service's text may hold a terminal's escape codes: shown escaped, never sent to the terminal.
  return printableText(typeof value === 'string' ? value : JSON.stringify(value), Infinity);
}

/** Longest JSON text of an object or array shown on its field's line; a longer one is laid out below it. */
const INLINE_JSON_MAX = 80;
/** Deepest nesting laid out as fields or tables; below it, values are JSON on one line. */
const MAX_DEPTH = 4;

/**
 * One `field: value` line per field not in `skip`, in the body's order, indented two spaces per level. A
 * short value is shown on its line (objects and arrays as JSON); a longer object is laid out as its own
 * fields below, and a longer list of objects as a table (so a page of another shape reads as rows, not as
 * one line of JSON).
 */
function fieldLines(document: Row, skip: readonly string[], depth = 1, columns?: number): string {
  const pad = '  '.repeat(depth);
  const lines: string[] = [];
  for (const [field, value] of Object.entries(document)) {
    if (skip.includes(field)) continue;
    const text = valueText(value);
    const nested = typeof value === 'object' && value !== null && text.length > INLINE_JSON_MAX && depth < MAX_DEPTH;
    if (nested && isPlainObject(value)) {
      lines.push(`${pad}${printableText(field, Infinity)}:`, fieldLines(value, [], depth + 1, columns).trimEnd());
    } else if (nested && Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      // A list of sentences (limitation): one per line, wrapped under its own indent on a terminal.
      lines.push(`${pad}${printableText(field, Infinity)}:`, ...value.map((item) => `${pad}  - ${wrapText(valueText(item), columns, pad.length + 4)}`));
    } else if (nested && isRowList(value)) {
      const table = rowTable(value).trimEnd().split('\n');
      lines.push(`${pad}${printableText(field, Infinity)}:`, ...table.map((line) => `${pad}  ${line}`.trimEnd()));
    } else {
      lines.push(`${pad}${printableText(field, Infinity)}: ${text}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** "Limits: …" from a catalog's `limits`, each value as stated (or "not stated"), in the words of rdw doctor. */
function limitsLine(limits: unknown): string {
  if (!isPlainObject(limits)) return documentMessages.limitsNotStated();
  const stated = (field: string, unit: (value: number) => string) => {
    const value = limits[field];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? unit(value) : documentMessages.notStated(field);
  };
  return documentMessages.limits([
    stated('keys', (value) => documentMessages.keySlots(value)),
    stated('rpm', (value) => documentMessages.rpm(value)),
    stated('daily_bytes', (value) => (value === 0 ? documentMessages.noPaidBytes() : documentMessages.paidBytesPerDay(byteText(value)))),
  ]);
}
