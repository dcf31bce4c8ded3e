// What a catalog that refuses user writes (the workbench's, `userWrites: 'refused'`) allows a user's code: its
// connection (borrowed-connection.ts) runs every statement inside a read-only transaction, so a write to rdw's
// tables is refused by DuckDB.

import { StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { CatalogReadOnlyError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** The connection methods a user's code may call: each runs its statement(s) and materializes the result. */
export const USER_CONNECTION_METHODS: ReadonlySet<string> = new Set(['run', 'runAndReadAll', 'streamAndReadAll', 'startThenReadAll', 'startStreamThenReadAll']);

/**
 * A statement starting (at the start of the text or after a `;`, past blanks and comments) with a word a
 * transaction statement starts with; SQL without one needs no parse. Only statement starts count: `CASE … END`
 * in a query is not a reason to prepare every statement a second time.
 */
const TRANSACTION_START = /(?:^|;)(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*(?:begin|commit|rollback|abort|end|start)\b/i;

/**
 * Refuses SQL holding a transaction statement (BEGIN, COMMIT, ROLLBACK …): a COMMIT would end the read-only
 * transaction and let the next statement write. Statements DuckDB cannot prepare yet (they name a view an
 * earlier statement of the same text creates) are not transaction statements: those always prepare.
 */
export async function refuseTransactionStatements(connection: DuckDBConnection, sql: unknown): Promise<void> {
  if (typeof sql !== 'string' || !TRANSACTION_START.test(sql)) return;
  const statements = await connection.extractStatements(sql);
  for (let index = 0; index < statements.count; index += 1) {
    const type = await statements.prepare(index).then((prepared) => prepared.statementType, () => undefined);
    if (type === StatementType.TRANSACTION) throw new CatalogReadOnlyError(catalogMessages.userTransactionRefused());
  }
}

/** DuckDB's refusal of a write in a read-only transaction, as CatalogReadOnlyError (exit 2); any other error unchanged. */
export function userWriteRefused(error: unknown): unknown {
  const text = error instanceof Error ? error.message : String(error);
  if (!/transaction is launched in read-only mode|read-only transaction/i.test(text)) return error;
  return new CatalogReadOnlyError(catalogMessages.userWriteRefused(), { cause: error });
}

/**
 * Runs `fn` inside `BEGIN TRANSACTION READ ONLY` … COMMIT on `connection` (temporary tables and views are
 * allowed and kept; a write to any table of the catalog throws CatalogReadOnlyError); ROLLBACK on a throw.
 */
export async function inReadOnlyTransaction<T>(connection: DuckDBConnection, fn: () => Promise<T>): Promise<T> {
  await connection.run('BEGIN TRANSACTION READ ONLY');
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => {});
    throw userWriteRefused(error);
  }
  await connection.run('COMMIT');
  return result;
}
