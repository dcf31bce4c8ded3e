// `rdw sql "<query>"`: runs SQL on the catalog, opened read-only; an aligned table, rows as JSON (--json) or
// CSV (--csv), or a Parquet file (--parquet FILE).

import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBTypeId, StatementType, type DuckDBConnection, type DuckDBMaterializedResult } from '@duckdb/node-api';
import { formatCsv } from '../../base/index.js';
import { MARKET_EVENTS_TABLE } from '../../workbench/home-catalog.js';
import { CliUsageError, SqlNotReadOnlyError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { openCliCatalog } from '../open-cli-catalog.js';
import { formatTable } from '../format-table.js';
import { commandMessages } from '../messages.js';
import { refuseDashOutput, refuseHomeOutput } from '../output-path.js';
import { sayWhileSlow } from '../slow-step-notice.js';
import { forOutput } from '../terminal-safe-text.js';
import { writeParquetFile } from '../write-parquet-file.js';

/** Widest cell of `rdw sql`'s table on a terminal (characters, `…` included). */
const SQL_TERMINAL_CELL_WIDTH = 40;
/** Significant digits of a non-integer number in a terminal's table (--csv/--json give every digit). */
const SQL_TERMINAL_DIGITS = 10;

/** DuckDB statement types that only read (DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info bind as SELECT). */
const READ_STATEMENTS: ReadonlySet<StatementType> = new Set([StatementType.SELECT, StatementType.EXPLAIN]);

/** DuckDB's name of a statement type in words: COPY, ATTACH, COPY_DATABASE → "COPY DATABASE", LOAD (also INSTALL). */
function statementWord(type: StatementType): string {
  const name = StatementType[type] ?? 'unknown';
  return name === 'LOAD' ? 'LOAD/INSTALL' : name.replace(/_/g, ' ');
}

/** DuckDB's number types: their columns are right-aligned in a table. */
const NUMERIC_TYPE_IDS: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT, DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL,
]);

export const sqlCommand: Command = {
  name: 'sql',
  line: COMMAND_LINES.sql,
  async run(context, args) {
    if (args.positionals.length !== 1 || args.positionals[0]!.trim() === '') {
      throw new CliUsageError(commandMessages.sqlNeedsQuery(MARKET_EVENTS_TABLE), { option: 'query' });
    }
    const query = args.positionals[0]!;
    const csv = args.values.csv === true;
    const parquet = args.values.parquet as string | undefined;
    refuseDashOutput(parquet, { what: '--parquet', writes: 'it names the Parquet file to write (--csv and --json print rows on stdout)', example: '--parquet events.parquet', option: 'parquet' });
    if (csv && (context.json || parquet !== undefined)) throw new CliUsageError(commandMessages.sqlOneFormat(), { option: 'csv' });
    // The target is checked before the query runs: a missing folder or a folder named as the file is exit 2.
    const target = parquet === undefined ? undefined : await parquetTarget(context.cwd, parquet);
    if (target !== undefined) await refuseHomeOutput(context.home, target, { what: '--parquet', typed: parquet!, example: '--parquet events.parquet', option: 'parquet' });
    const catalog = await openCliCatalog(context, 'read');
    let result: DuckDBMaterializedResult | { columns: string[]; numeric: boolean[]; rows: Record<string, unknown>[]; csvText?: string };
    try {
      result = await catalog.exclusive(async (connection) => {
        await lockDown(connection, query);
        if (target !== undefined) return connection.run(query);
        // Read a chunk at a time, each awaited, and say a slow read on a terminal: `rdw sql --csv "SELECT * FROM
        // market_events_current" > events.csv` (README) had read its 46,860 rows in one piece, 9-18 s on a blank
        // screen (stdout a file, so nothing drawn) with the event loop held, so no line could be said.
        return sayWhileSlow(context, commandMessages.sqlReading(), async () => {
          const streamed = await connection.stream(query);
          // By type, not by value: the JSON rows give a BIGINT (count(*)) or a DECIMAL as a string.
          const numeric = streamed.columnTypes().map((type) => NUMERIC_TYPE_IDS.has(type.typeId));
          const columns = streamed.columnNames();
          const rows: Record<string, unknown>[] = [];
          if (!csv) {
            for await (const chunk of streamed.yieldRowObjectJson()) for (const row of chunk) rows.push(row as Record<string, unknown>);
            return { columns, numeric, rows };
          }
          // CSV a chunk at a time too (its rows then dropped): formatting them all at the end held the loop again.
          const header = formatCsv(columns, []);
          const parts = [header];
          for await (const chunk of streamed.yieldRowObjectJson()) {
            parts.push(formatCsv(columns, (chunk as Record<string, unknown>[]).map(csvRow)).slice(header.length));
          }
          return { columns, numeric, rows, csvText: parts.join('') };
        });
      });
    } catch (error) {
      if (error instanceof SqlNotReadOnlyError || error instanceof CliUsageError) throw error;
      if (/file system operations are disabled/i.test((error as Error).message)) {
        throw new SqlNotReadOnlyError(commandMessages.sqlNoFileAccess(), { option: 'query', cause: error });
      }
      // An EXPLAIN passes the statement-type check whatever it explains; explaining a write is a write to DuckDB,
      // refused by the read-only catalog ("… attached in read-only mode"): a refused write, not a malformed query.
      if (/attached in read-only mode/i.test((error as Error).message)) {
        throw new SqlNotReadOnlyError(commandMessages.sqlWouldWrite(), { option: 'query', cause: error });
      }
      throw new CliUsageError(commandMessages.sqlFailed((error as Error).message), { option: 'query', cause: error });
    }
    if ('rows' in result) {
      const { columns, numeric, rows, csvText } = result;
      if (context.json) context.stdout.write(`${JSON.stringify(rows)}\n`);
      else if (csvText !== undefined) context.stdout.write(forOutput(context.stdout, csvText));
      // On a terminal a long cell (a JSON details column) is cut and a float's binary tail dropped, so the table
      // stays readable; piped, --csv and --json give every character and digit.
      else {
        const terminal = context.stdout.columns === undefined ? {} : { maxCellWidth: SQL_TERMINAL_CELL_WIDTH, significantDigits: SQL_TERMINAL_DIGITS };
        context.stdout.write(formatTable(columns, rows, { ...terminal, numericColumns: numeric }));
      }
      return;
    }
    const written = await writeParquetFile(result, target!);
    const shown = parquet!;
    if (context.json) context.stdout.write(`${JSON.stringify({ file: written.file, rows: written.rows, columns: written.columns })}\n`);
    else context.stdout.write(`${commandMessages.sqlParquetWritten(written.rows, written.columns.length, shown)}\n`);
  },
};

/**
 * Read-only by DuckDB's own means: first the instance loses file system access for good (no COPY … TO,
 * read_csv of other files, ATTACH, INSTALL; preparing EXPORT DATABASE would already create its folder),
 * then every statement's type must be a query, and there must be one. @throws SqlNotReadOnlyError, CliUsageError (several)
 */
async function lockDown(connection: DuckDBConnection, query: string): Promise<void> {
  await connection.run('SET enable_external_access = false');
  await connection.run('SET lock_configuration = true');
  const statements = await connection.extractStatements(query);
  for (let index = 0; index < statements.count; index += 1) {
    const type = (await statements.prepare(index)).statementType;
    if (!READ_STATEMENTS.has(type)) throw new SqlNotReadOnlyError(commandMessages.sqlNotReadOnly(statementWord(type)), { option: 'query' });
  }
  // One result is printed: a second query would run unseen (before, it was dropped without a word).
  if (statements.count > 1) throw new CliUsageError(commandMessages.sqlOneStatement(statements.count), { option: 'query' });
}

/** `--parquet FILE` as an absolute path whose folder exists and which is not itself a folder. @throws CliUsageError */
async function parquetTarget(cwd: string, file: string): Promise<string> {
  if (file.trim() === '') throw new CliUsageError(commandMessages.sqlParquetNeedsFile(), { option: 'parquet' });
  const target = path.resolve(cwd, file);
  const folder = await stat(path.dirname(target)).catch(() => undefined);
  if (folder === undefined || !folder.isDirectory()) throw new CliUsageError(commandMessages.sqlParquetNoFolder(file), { option: 'parquet' });
  if ((await stat(target).catch(() => undefined))?.isDirectory() === true) {
    throw new CliUsageError(commandMessages.sqlParquetIsFolder(file), { option: 'parquet' });
  }
  return target;
}

/** A row for CSV: lists, structs, maps and intervals as their JSON text (as --json prints them); the rest as is. */
function csvRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) out[name] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
  return out;
}
