// `rdw sql --csv` (RFC 4180, read back by DuckDB's own CSV reader) and `rdw sql --parquet FILE` (read back
// by a separate DuckDB: same rows and column types as the query on the catalog; atomic replacement).

import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { createTempHome } from '../support/temp-home.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let mock: MockServer;
let home: { home: string; remove(): Promise<void> };
let out: string;

async function rdw(argv: string[], terminalColumns?: number): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, RDW_HOME: home.home },
    stdout: { write: (text) => void (stdout += text), isTTY: terminalColumns !== undefined, ...(terminalColumns === undefined ? {} : { columns: terminalColumns }) },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: out,
  });
  return { code, stdout, stderr };
}

/** Rows and column types of `sql` in a fresh in-memory DuckDB (with the catalog attached read-only as `c`). */
async function duckdb(sql: string): Promise<{ rows: unknown[][]; types: string[] }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    await connection.run(`ATTACH '${path.join(home.home, 'catalog.duckdb')}' AS c (READ_ONLY)`);
    const reader = await connection.runAndReadAll(sql);
    return { rows: reader.getRowsJson() as unknown[][], types: reader.columnTypes().map(String) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const ODD = `SELECT 1::BIGINT AS id, 'a,"b"' AS quoted, 'two
lines' AS multiline, NULL::VARCHAR AS nothing, '' AS empty, 1.5::DOUBLE AS x, [1, 2] AS list, true AS flag`;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 3 });
  home = await createTempHome();
  out = path.join(home.home, 'out');
  await mkdir(out);
  expect((await rdw(['pull', '--latest', '3'])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await home?.remove();
});

describe('rdw sql on a terminal', () => {
  it('cuts a cell longer than 40 characters to 39 and …; piped, and with --csv, every value is whole', async () => {
    const sql = "SELECT repeat('x', 120) AS long, 'short' AS s";
    const terminal = await rdw(['sql', sql], 100);
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout).toContain(`${'x'.repeat(39)}…  short`);
    expect(terminal.stdout).not.toContain('x'.repeat(40));
    const piped = await rdw(['sql', sql]);
    expect(piped.stdout).toContain('x'.repeat(120));
    const csv = await rdw(['sql', '--csv', sql], 100);
    expect(csv.stdout).toContain('x'.repeat(120));
  });

  it("shows a float with at most 10 significant digits (its binary tail dropped); piped and --json keep every digit", async () => {
    const sql = 'SELECT 0.1::DOUBLE + 0.2::DOUBLE AS sum, 1::DOUBLE / 3 AS third, 1.5e-12::DOUBLE AS tiny, 123456789012::DOUBLE AS whole';
    const terminal = await rdw(['sql', sql], 100);
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout.split('\n')[2]).toMatch(/^\s*0\.3\s+0\.3333333333\s+1\.5e-12\s+123456789012$/);
    expect((await rdw(['sql', sql])).stdout).toContain('0.30000000000000004');
    expect(JSON.parse((await rdw(['sql', '--json', sql], 100)).stdout)).toEqual([{ sum: 0.1 + 0.2, third: 1 / 3, tiny: 1.5e-12, whole: 123456789012 }]);
  });

  it('right-aligns every number column by its type: a count(*) (BIGINT, a string in the JSON rows) and a DECIMAL too', async () => {
    // A new user's trial (session 35): count_star() was left-aligned beside right-aligned doubles.
    const sql = "SELECT * FROM (VALUES (5, 5::BIGINT, 1.5::DECIMAL(6,2), 'a'), (1000, 1000::BIGINT, 22.25::DECIMAL(6,2), 'bcd')) t(i, b, d, s)";
    const terminal = await rdw(['sql', sql], 100);
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout.split('\n').slice(0, 4)).toEqual(['   i     b      d  s', '----  ----  -----  ---', '   5     5   1.50  a', '1000  1000  22.25  bcd']);
  });
});

describe('rdw sql --csv', () => {
  it('writes RFC 4180: quotes doubled, commas and line breaks quoted, null empty, a list as its JSON', async () => {
    const run = await rdw(['sql', '--csv', ODD]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('id,quoted,multiline,nothing,empty,x,list,flag\n1,"a,""b""","two\nlines",,,1.5,"[1,2]",true\n');
  });

  it('reads back through DuckDB\'s CSV reader as the same rows the catalog holds', async () => {
    const query = 'SELECT release_id, row_id, symbol, event_kind, direction, return_pct_1h FROM market_events ORDER BY release_id, row_id';
    const run = await rdw(['sql', '--csv', query]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const file = path.join(out, 'events.csv');
    await writeFile(file, run.stdout);
    const expected = await duckdb(query.replace('FROM market_events', 'FROM c.market_events'));
    expect(expected.rows.length).toBeGreaterThan(500);
    const back = await duckdb(`SELECT * FROM read_csv('${file}', header = true, columns = {'release_id': 'VARCHAR', 'row_id': 'VARCHAR', 'symbol': 'VARCHAR', 'event_kind': 'VARCHAR', 'direction': 'VARCHAR', 'return_pct_1h': 'DOUBLE'})`);
    expect(back.rows).toEqual(expected.rows.map((row) => row.map((cell, index) => (index === 1 && cell !== null ? String(cell) : cell))));
  });

  it('says a slow read on a terminal while stdout goes to a file, and writes every row', async () => {
    // `rdw sql --csv "SELECT * FROM market_events_current" > events.csv` (README) sat 9-18 s on a blank screen: the
    // rows were read and formatted in one piece, the event loop held, so no "so far" line could be said.
    let stdout = '';
    let stderr = '';
    const code = await runCli(['sql', '--csv', "SELECT range AS n, range * 0.5 AS x, 'r' || range AS s FROM range(1500000)"], {
      env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, RDW_HOME: home.home },
      stdout: { write: (text) => void (stdout += text), isTTY: false },
      stderr: { write: (text) => void (stderr += text), isTTY: true, columns: 100 },
      cwd: out,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^rdw: running the query and reading its rows \(\d+ s so far\)…$/m);
    const lines = stdout.split('\n');
    expect(lines.length).toBe(1_500_002);
    expect(lines.slice(0, 3)).toEqual(['n,x,s', '0,0.0,r0', '1,0.5,r1']);
    expect(lines.at(-2)).toBe('1499999,749999.5,r1499999');
  }, 120_000);

  it('refuses --csv with --json or --parquet (exit 2, nothing written)', async () => {
    for (const argv of [['--json', 'sql', '--csv', 'SELECT 1'], ['sql', '--csv', '--parquet', 'x.parquet', 'SELECT 1']]) {
      const run = await rdw(argv);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
    }
    expect(await readdir(out)).not.toContain('x.parquet');
  });
});

describe('rdw sql --parquet FILE', () => {
  it('writes the rows with their column types; a second run replaces the file atomically, no temporary left', async () => {
    const query = 'SELECT * FROM market_events_current ORDER BY day, row_id';
    const run = await rdw(['sql', '--parquet', 'events.parquet', query]);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const expected = await duckdb(query.replace('FROM market_events_current', 'FROM c.market_events_current'));
    expect(run.stdout).toBe(`Wrote ${expected.rows.length} rows (${expected.types.length} columns) to events.parquet.\n`);
    const back = await duckdb(`SELECT * FROM read_parquet('${path.join(out, 'events.parquet')}')`);
    expect(back.types).toEqual(expected.types);
    expect(back.rows).toEqual(expected.rows);

    const again = await rdw(['--json', 'sql', '--parquet', 'events.parquet', 'SELECT 1 AS a, 2 AS a, [1, 2] AS l']);
    expect(JSON.parse(again.stdout)).toEqual({ file: path.join(out, 'events.parquet'), rows: 1, columns: ['a', 'a_1', 'l'] });
    expect(await duckdb(`SELECT * FROM read_parquet('${path.join(out, 'events.parquet')}')`)).toEqual({ rows: [[1, 2, [1, 2]]], types: ['INTEGER', 'INTEGER', 'INTEGER[]'] });
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('keeps an existing file when the query fails, and refuses a folder or a missing folder (exit 2)', async () => {
    const file = path.join(out, 'kept.parquet');
    await writeFile(file, 'old bytes');
    const failed = await rdw(['sql', '--parquet', 'kept.parquet', 'SELECT * FROM no_such_table']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^rdw: The query failed: .*no_such_table/);
    expect(await readFile(file, 'utf8')).toBe('old bytes');

    const folder = await rdw(['sql', '--parquet', '.', 'SELECT 1']);
    expect(folder).toMatchObject({ code: 2, stdout: '' });
    expect(folder.stderr).toBe(`rdw: --parquet . is a folder; name a file in it, e.g. result.parquet.\n`);
    const missing = await rdw(['sql', '--parquet', 'no/such/folder/x.parquet', 'SELECT 1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('rdw: The folder of --parquet no/such/folder/x.parquet does not exist; create it first or name a file in an existing folder.\n');
    expect((await readdir(out)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('still refuses statements that write: --parquet is the only way out of the catalog', async () => {
    const run = await rdw(['sql', '--parquet', 'copy.parquet', "COPY market_events TO 'copy2.parquet'"]);
    expect(run.code).toBe(2);
    expect(await readdir(out)).not.toContain('copy2.parquet');
    expect(await readdir(out)).not.toContain('copy.parquet');
  });
});
