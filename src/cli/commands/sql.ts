// `rdw sql "<query>"`: runs SQL on the catalog, opened read-only; an aligned table, or rows as JSON with --json.

import { StatementType } from '@duckdb/node-api';
import { catalogMessages, CatalogOptionError, openCatalog } from '../../catalog/index.js';
import { UsageError } from '../../contract/index.js';
import type { Command } from '../command.js';

/** A statement that is not a query: `rdw sql` only reads (exit 2). */
export class SqlNotReadOnlyError extends UsageError {
  override readonly code = 'RDW_SQL_NOT_READ_ONLY' as const;
}

/** DuckDB statement types that only read (DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info bind as SELECT). */
const READ_STATEMENTS: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN]);

/** DuckDB's name of a statement type in words: COPY, ATTACH, COPY_DATABASE → "COPY DATABASE", LOAD (also INSTALL). */
function statementWord(type: StatementType): string {
  const name = StatementType[type] ?? 'unknown';
  return name === 'LOAD' ? 'LOAD/INSTALL' : name.replace(/_/g, ' ');
}

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
        // Read-only by DuckDB's own means: first the instance loses file system access for good (no COPY … TO,
        // read_csv of other files, ATTACH, INSTALL; preparing EXPORT DATABASE would already create its folder),
        // then every statement's type must be a query.
        await connection.run('SET enable_external_access = false');
        await connection.run('SET lock_configuration = true');
        const statements = await connection.extractStatements(args.positionals[0]!);
        for (let index = 0; index < statements.count; index += 1) {
          const type = (await statements.prepare(index)).statementType;
          if (!READ_STATEMENTS.has(type)) throw new SqlNotReadOnlyError(catalogMessages.sqlNotReadOnly(statementWord(type)), { option: 'query' });
        }
        const reader = await connection.runAndReadAll(args.positionals[0]!);
        return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Record<string, unknown>[] };
      }));
    } catch (error) {
      if (error instanceof SqlNotReadOnlyError) throw error;
      if (/file system operations are disabled/i.test((error as Error).message)) {
        throw new SqlNotReadOnlyError(catalogMessages.sqlNoFileAccess(), { option: 'query', cause: error });
      }
      throw new CatalogOptionError(catalogMessages.sqlFailed((error as Error).message), { option: 'query', cause: error });
    }
    if (context.json) context.stdout.write(`${JSON.stringify(rows)}\n`);
    else context.stdout.write(formatTable(columns, rows));
  },
};
