// `rdw sql "<query>"`: runs SQL on the catalog, opened read-only; an aligned table, or rows as JSON with --json.

import { catalogMessages, CatalogOptionError, openCatalog } from '../../catalog/index.js';
import type { Command } from '../command.js';

/** Renders one cell for a text table: null as `NULL`, objects as JSON. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Rows as an aligned text table with a header and a row count; numbers right-aligned. */
export function formatTable(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cells = rows.map((row) => columns.map((column) => cellText(row[column])));
  const numeric = columns.map((column) => rows.length > 0 && rows.every((row) => row[column] === null || typeof row[column] === 'number'));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  const render = (line: readonly string[]) =>
    line.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ').trimEnd();
  return [render(columns), render(widths.map((width) => '-'.repeat(width))), ...cells.map(render), `(${rows.length} row${rows.length === 1 ? '' : 's'})`, ''].join('\n');
}

export const sqlCommand: Command = {
  name: 'sql',
  summary: 'Run SQL on the local catalog (read-only): a table, or rows as JSON with --json.',
  usage: 'sql "<QUERY>"',
  options: {},
  allowPositionals: true,
  async run(context, args) {
    if (args.positionals.length !== 1 || args.positionals[0]!.trim() === '') {
      throw new CatalogOptionError(catalogMessages.sqlNeedsQuery(), { option: 'query' });
    }
    const catalog = await openCatalog(context.home, { readOnly: true });
    context.onExit(() => catalog.close());
    let columns: string[];
    let rows: Record<string, unknown>[];
    try {
      ({ columns, rows } = await catalog.exclusive(async (connection) => {
        const reader = await connection.runAndReadAll(args.positionals[0]!);
        return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Record<string, unknown>[] };
      }));
    } catch (error) {
      throw new CatalogOptionError(catalogMessages.sqlFailed((error as Error).message), { option: 'query', cause: error });
    }
    if (context.json) context.stdout.write(`${JSON.stringify(rows)}\n`);
    else context.stdout.write(formatTable(columns, rows));
  },
};
