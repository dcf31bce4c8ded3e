// `rdw sql "<query>"`: runs SQL on the catalog, opened read-only; an aligned table, or rows as JSON with --json.

import { StatementType } from '@duckdb/node-api';
import { CliUsageError, SqlNotReadOnlyError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { formatTable } from '../format-table.js';
import { commandMessages } from '../messages.js';

/** DuckDB statement types that only read (DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info bind as SELECT). */
const READ_STATEMENTS: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN]);

/** DuckDB's name of a statement type in words: COPY, ATTACH, COPY_DATABASE → "COPY DATABASE", LOAD (also INSTALL). */
function statementWord(type: StatementType): string {
  const name = StatementType[type] ?? 'unknown';
  return name === 'LOAD' ? 'LOAD/INSTALL' : name.replace(/_/g, ' ');
}

export const sqlCommand: Command = {
  name: 'sql',
  line: COMMAND_LINES.sql,
  async run(context, args) {
    if (args.positionals.length !== 1 || args.positionals[0]!.trim() === '') {
      throw new CliUsageError(commandMessages.sqlNeedsQuery(), { option: 'query' });
    }
    const catalog = await openCliCatalog(context, 'read');
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
          if (!READ_STATEMENTS.has(type)) throw new SqlNotReadOnlyError(commandMessages.sqlNotReadOnly(statementWord(type)), { option: 'query' });
        }
        const reader = await connection.runAndReadAll(args.positionals[0]!);
        return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Record<string, unknown>[] };
      }));
    } catch (error) {
      if (error instanceof SqlNotReadOnlyError) throw error;
      if (/file system operations are disabled/i.test((error as Error).message)) {
        throw new SqlNotReadOnlyError(commandMessages.sqlNoFileAccess(), { option: 'query', cause: error });
      }
      throw new CliUsageError(commandMessages.sqlFailed((error as Error).message), { option: 'query', cause: error });
    }
    if (context.json) context.stdout.write(`${JSON.stringify(rows)}\n`);
    else context.stdout.write(formatTable(columns, rows));
  },
};
