// `rdw sql` only reads: COPY, EXPORT, ATTACH, INSTALL/LOAD, CREATE, INSERT, SET … are refused by DuckDB's own
// statement type (exit 2, one sentence, nothing written), and a query cannot reach other files.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { commandMessages } from '../../src/cli/messages.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

let temp: Awaited<ReturnType<typeof createTempHome>>;
beforeAll(async () => {
  temp = await createTempHome('rdw-sql-');
  // An empty catalog, made by the catalog layer: rdw sql only reads, and refuses a home without one.
  await (await openCatalog(temp.home)).close();
  const first = await runBuiltCli(['sql', 'SELECT 1 AS one', '--home', temp.home]);
  expect(first.code, first.stderr).toBe(0);
});
afterAll(async () => {
  await temp.remove();
});

describe('rdw sql is read-only', () => {
  const out = (name: string) => path.join(temp.home, name);
  it.each([
    ['COPY … TO a file', () => `COPY releases TO '${out('x.csv')}'`, 'files', 'x.csv'],
    ['COPY (SELECT …) TO a file', () => `COPY (SELECT 1) TO '${out('y.parquet')}' (FORMAT parquet)`, 'files', 'y.parquet'],
    ['ATTACH', () => `ATTACH '${out('other.duckdb')}' AS other`, 'ATTACH', 'other.duckdb'],
    ['INSTALL', () => 'INSTALL httpfs', 'LOAD/INSTALL', undefined],
    ['LOAD', () => 'LOAD json', 'LOAD/INSTALL', undefined],
    ['CREATE TABLE', () => 'CREATE TEMP TABLE t AS SELECT 1', 'CREATE', undefined],
    ['INSERT', () => 'INSERT INTO releases SELECT * FROM releases', 'INSERT', undefined],
    ['SET', () => 'SET enable_external_access = true', 'SET', undefined],
    ['CHECKPOINT (a CALL)', () => 'CHECKPOINT', 'CALL', undefined],
    ['a write hidden after a SELECT', () => `SELECT 1; COPY releases TO '${out('z.csv')}'`, 'files', 'z.csv'],
  ])('refuses %s with exit 2 and writes nothing', async (_name, sql, kind, written) => {
    const run = await runBuiltCli(['sql', sql(), '--home', temp.home]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: ${kind === 'files' ? commandMessages.sqlNoFileAccess() : commandMessages.sqlNotReadOnly(kind)}\n`);
    expect(run.stdout).toBe('');
    if (written !== undefined) expect(existsSync(out(written))).toBe(false);
  });

  it.each([
    ['EXPLAIN ANALYZE DELETE', 'EXPLAIN ANALYZE DELETE FROM releases'],
    ['EXPLAIN INSERT', 'EXPLAIN INSERT INTO releases SELECT * FROM releases'],
    ['EXPLAIN (FORMAT json) UPDATE', "EXPLAIN (FORMAT json) UPDATE releases SET dataset = 'x'"],
  ])('refuses %s as a write (RDW_SQL_NOT_READ_ONLY), not as a malformed query', async (_name, sql) => {
    // It said "The query failed: Invalid Input Error: … attached in read-only mode!; fix it (rdw sql "SHOW TABLES" …)", RDW_CLI_USAGE.
    const run = await runBuiltCli(['sql', sql, '--json', '--home', temp.home]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr).error).toEqual({ code: 'RDW_SQL_NOT_READ_ONLY', exitCode: 2, message: commandMessages.sqlWouldWrite() });
  });

  it('says "an" before a statement word that starts with a vowel', () => {
    expect(commandMessages.sqlNotReadOnly('INSERT')).toMatch(/^rdw sql only reads: an INSERT statement is refused/);
    expect(commandMessages.sqlNotReadOnly('ATTACH')).toMatch(/^rdw sql only reads: an ATTACH statement/);
    expect(commandMessages.sqlNotReadOnly('CREATE')).toMatch(/^rdw sql only reads: a CREATE statement/);
  });

  it('refuses several queries in one text (exit 2) instead of printing the first and dropping the rest', async () => {
    const run = await runBuiltCli(['sql', 'SELECT 1 AS a; SELECT 2 AS b', '--home', temp.home]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`rdw: ${commandMessages.sqlOneStatement(2)}\n`);
    // A trailing ';' is still one statement.
    const one = await runBuiltCli(['sql', 'SELECT 1 AS a;', '--json', '--home', temp.home]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual([{ a: 1 }]);
  });

  it('refuses EXPORT DATABASE (exit 2) and creates no folder', async () => {
    const run = await runBuiltCli(['sql', `EXPORT DATABASE '${out('dump')}'`, '--home', temp.home]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: ${commandMessages.sqlNoFileAccess()}\n`);
    expect(existsSync(out('dump'))).toBe(false);
  });

  it('refuses to read other files from a query (external access off)', async () => {
    const run = await runBuiltCli(['sql', "SELECT * FROM read_csv('/etc/hostname')", '--home', temp.home]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: ${commandMessages.sqlNoFileAccess()}\n`);
  });

  it.each([
    ['SELECT', 'SELECT count(*)::INTEGER AS n FROM releases', [{ n: 0 }]],
    ['WITH', 'WITH x AS (SELECT 2 AS v) SELECT v FROM x', [{ v: 2 }]],
    ['FROM-first', 'FROM (SELECT 3 AS v)', [{ v: 3 }]],
    ['DESCRIBE', 'DESCRIBE releases', undefined],
    ['SHOW TABLES', 'SHOW TABLES', undefined],
  ])('still runs %s', async (_name, sql, rows) => {
    const run = await runBuiltCli(['sql', sql, '--json', '--home', temp.home]);
    expect(run.code, run.stderr).toBe(0);
    const parsed = JSON.parse(run.stdout) as unknown[];
    if (rows !== undefined) expect(parsed).toEqual(rows);
    else expect(parsed.length).toBeGreaterThan(0);
  });
});
