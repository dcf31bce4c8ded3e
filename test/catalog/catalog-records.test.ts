// The catalog's records held against each other and against the verified manifests (a second independent server's
// adversary, session 35: after a hand edit of catalog.duckdb `rdw verify` said all was well while an export shipped
// rows of a release it no longer recorded, a lock pinned no data file, and a changed generated_at chose which
// revision studies read). Each edit is made behind rdw's back through a DuckDB connection of its own; the built CLI
// against the mock over HTTP finds it (exit 3, RDW_CATALOG_RECORD, one sentence naming the release) and
// `rdw verify --repair` mends it from what rdw verified. Plain SQL reads the result.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogMessages } from '../../src/catalog/messages.js';
import { EXIT_CODES } from '../../src/contract/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { jsonError } from '../support/json-stderr.js';
import { behindRdwsBack } from '../support/behind-rdws-back.js';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli, type BuiltCliRun } from '../support/run-built-cli.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

const rdw = (mock: MockServer, home: string, argv: string[]): Promise<BuiltCliRun> =>
  runBuiltCli([...argv, '--home', home], { env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk }, cwd: home, timeoutMs: 90_000 });

const sql = async (home: string, query: string) => (await queryCatalog(home, query))!;

describe('rdw verify holds the catalog\'s records to each other and to the verified manifests', () => {
  it('finds rows of a release it does not record, a release without a data file, and fields its manifest contradicts; --repair mends all three', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '3'])).code).toBe(0);
        const before = await sql(home, 'SELECT id, rows::INTEGER AS rows, generated_at FROM releases ORDER BY day');
        const [a, b, c] = before.map((row) => String(row.id));
        const aRows = Number(before[0]!.rows);
        await behindRdwsBack(
          home,
          `DELETE FROM release_files WHERE release_id = '${a}'`,
          `DELETE FROM releases WHERE id = '${a}'`,
          `DELETE FROM release_files WHERE release_id = '${b}' AND format IN ('parquet', 'csv')`,
          `UPDATE releases SET generated_at = generated_at + 99999999, rows = 3 WHERE id = '${c}'`,
        );

        // Before any repair: an export ships no row of the release the catalog no longer records; a lock of the
        // release without a data file is refused (exit 3), not written with no file to pin.
        const exported = await rdw(mock, home, ['export', 'out', '--json']);
        expect(exported.code, exported.stderr).toBe(EXIT_CODES.ok);
        const total = await sql(home, `SELECT count(*)::INTEGER AS n FROM market_events WHERE release_id <> '${a}'`);
        expect(JSON.parse(exported.stdout)).toMatchObject({ rows: total[0]!.n });
        const lock = await rdw(mock, home, ['lock', 'b.lock.json', b!]);
        expect(lock.code).toBe(EXIT_CODES.integrity);
        expect(lock.stderr).toBe(`rdw: ${catalogMessages.recordNoDataFile(b!)}\n`);
        expect(existsSync(path.join(home, 'b.lock.json'))).toBe(false);

        const found = await rdw(mock, home, ['verify']);
        expect(found.code, found.stderr).toBe(EXIT_CODES.integrity);
        const lines = found.stderr.trim().split('\n');
        expect(lines).toContain(`rdw: ${catalogMessages.recordNoDataFile(b!)}`);
        expect(found.stderr).toContain(catalogMessages.recordOrphanRows(a!, aRows));
        expect(found.stderr).toContain(catalogMessages.recordDiffers(c!, 'rows', '3', String(before[2]!.rows)));
        expect(found.stderr).toMatch(new RegExp(`records generated_at \\d+ for release ${c}, but its verified manifest says ${Number(before[2]!.generated_at)} .*revision of a day a study reads`));
        const json = await rdw(mock, home, ['verify', '--json']);
        expect(json.code).toBe(EXIT_CODES.integrity);
        expect(jsonError(json, 'some')).toMatchObject({ code: 'RDW_CATALOG_RECORD', exitCode: EXIT_CODES.integrity });
        const document = JSON.parse(json.stdout) as { ok: boolean; records: { kind: string; releaseId: string }[] };
        expect(document.ok).toBe(false);
        expect(document.records.map((problem) => `${problem.kind} ${problem.releaseId}`).sort()).toEqual(
          [`orphan_rows ${a}`, `no_data_file ${b}`, `record_differs ${c}`, `record_differs ${c}`].sort(),
        );

        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(EXIT_CODES.ok);
        expect(repaired.stdout).toContain(`Removed ${aRows} rows of release ${a} that the catalog held no record of.`);
        expect(repaired.stdout).toContain(`Recorded the data file of release ${b} again from its verified manifest.`);
        expect(repaired.stdout).toContain(`Set rows of release ${c} back to ${before[2]!.rows}, as its verified manifest says.`);
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
        // Plain SQL: no row without its release, B's data file recorded again, C's record as imported.
        expect(await sql(home, 'SELECT count(*)::INTEGER AS n FROM market_events WHERE release_id NOT IN (SELECT id FROM releases)')).toEqual([{ n: 0 }]);
        expect(await sql(home, `SELECT count(*)::INTEGER AS n FROM release_files WHERE release_id = '${b}' AND format IN ('parquet', 'csv')`)).toEqual([{ n: 1 }]);
        expect(await sql(home, `SELECT rows::INTEGER AS rows, generated_at FROM releases WHERE id = '${c}'`)).toEqual([{ rows: before[2]!.rows, generated_at: before[2]!.generated_at }]);
        // A can be pulled again (before the repair its leftover rows made the pull blame the service), whole.
        expect((await rdw(mock, home, ['pull', a!])).code).toBe(EXIT_CODES.ok);
        expect(await sql(home, `SELECT count(*)::INTEGER AS n FROM market_events WHERE release_id = '${a}'`)).toEqual([{ n: aRows }]);
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
      }),
    );
  }, 240_000);
});

describe("rdw verify holds the view market_events_current to rdw's definition", () => {
  it('finds it replaced or dropped behind rdw\'s back (exit 3, RDW_CATALOG_RECORD); studies refuse it; --repair restores it', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '3'])).code).toBe(0);
        const current = 'SELECT count(*)::INTEGER AS n FROM market_events_current';
        const rows = await sql(home, current);
        // Every row of every revision, not only the newest of each day: what a replaced view could make studies read.
        await behindRdwsBack(home, 'CREATE OR REPLACE VIEW market_events_current AS SELECT * FROM market_events WHERE symbol = \'BTCUSDT\'');
        const replaced = await rdw(mock, home, ['verify']);
        expect(replaced.code).toBe(EXIT_CODES.integrity);
        expect(replaced.stderr).toBe(`rdw: ${catalogMessages.recordViewDiffers('market_events_current', 'replaced')}\n`);
        const json = await rdw(mock, home, ['verify', '--json']);
        expect(jsonError(json, 'some')).toMatchObject({ code: 'RDW_CATALOG_RECORD', exitCode: EXIT_CODES.integrity });
        expect((JSON.parse(json.stdout) as { records: unknown[] }).records).toEqual([{ kind: 'view_differs', view: 'market_events_current', state: 'replaced' }]);
        const study = await rdw(mock, home, ['study', 'event', '--window', '1h']);
        expect(study.code).toBe(EXIT_CODES.integrity);
        expect(study.stderr).toMatch(/The catalog's view catalog\.main\.market_events_current is not rdw's any more .*run "rdw verify --repair" to restore it\.\n$/);

        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(EXIT_CODES.ok);
        expect(repaired.stdout).toContain('Restored the view market_events_current as rdw defines it (the newest revision of each day).');
        expect(await sql(home, current)).toEqual(rows);
        expect((await rdw(mock, home, ['study', 'event', '--window', '1h'])).code).toBe(EXIT_CODES.ok);

        await behindRdwsBack(home, 'DROP VIEW market_events_current');
        const dropped = await rdw(mock, home, ['verify']);
        expect(dropped.code).toBe(EXIT_CODES.integrity);
        expect(dropped.stderr).toBe(`rdw: ${catalogMessages.recordViewDiffers('market_events_current', 'missing')}\n`);
        // Not a raw "Table ... does not exist" with a stack-trace hint: the sentence, exit 3.
        const blind = await rdw(mock, home, ['study', 'model', '--window', '1h']);
        expect(blind.code).toBe(EXIT_CODES.integrity);
        expect(blind.stderr).toBe(`rdw: ${catalogMessages.recordViewDiffers('market_events_current', 'missing')}\n`);
        expect((await rdw(mock, home, ['verify', '--repair'])).code).toBe(EXIT_CODES.ok);
        expect(await sql(home, current)).toEqual(rows);
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
      }),
    );
  }, 240_000);
});

describe("rdw verify holds the columns of the catalog's row tables to rdw's", () => {
  it('finds a column whose type was changed (invisible to the rows fingerprint, which casts it back) or one added; locks and studies refuse it (exit 3, one sentence); --repair alters it back', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '3'])).code).toBe(0);
        expect((await rdw(mock, home, ['lock', 'study.lock.json', '--latest', '3'])).code).toBe(0);
        const before = await sql(home, 'SELECT sum(sample_time) AS s, count(*)::INTEGER AS n FROM market_events');
        // Every value casts back to the same DOUBLE (so the rows hash as before), but a study reads text: before the
        // fix verify and reproduce said all was well and the study failed with DuckDB's raw Binder Error.
        await behindRdwsBack(
          home,
          'ALTER TABLE market_events ALTER sample_time TYPE VARCHAR',
          "UPDATE market_events SET sample_time = '00' || sample_time WHERE row_id < 'm'",
        );
        const sentence = catalogMessages.recordColumnDiffers('market_events', 'sample_time', 'DOUBLE', 'VARCHAR');
        const found = await rdw(mock, home, ['verify']);
        expect(found.code).toBe(EXIT_CODES.integrity);
        expect(found.stderr).toBe(`rdw: ${sentence}\n`);
        const json = await rdw(mock, home, ['verify', '--json']);
        expect(jsonError(json, 'some')).toMatchObject({ code: 'RDW_CATALOG_RECORD', exitCode: EXIT_CODES.integrity });
        expect((JSON.parse(json.stdout) as { records: unknown[] }).records).toEqual([
          { kind: 'column_differs', table: 'market_events', column: 'sample_time', expected: 'DOUBLE', found: 'VARCHAR' },
        ]);
        for (const argv of [
          ['reproduce', 'study.lock.json'],
          ['study', 'event', '--lock', 'study.lock.json'],
          ['study', 'model', '--lock', 'study.lock.json'],
          ['study', 'model', '--window', '1h'],
        ]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, argv.join(' ')).toBe(EXIT_CODES.integrity);
          expect(run.stderr, argv.join(' ')).toBe(`rdw: ${sentence}\n`);
        }

        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(EXIT_CODES.ok);
        expect(repaired.stdout).toContain('Altered the column market_events.sample_time back to DOUBLE.');
        expect(await sql(home, 'SELECT sum(sample_time) AS s, count(*)::INTEGER AS n FROM market_events')).toEqual(before);
        expect((await rdw(mock, home, ['reproduce', 'study.lock.json'])).code).toBe(EXIT_CODES.ok);

        // A column rdw does not make: a study reading every column would read it too.
        await behindRdwsBack(home, 'ALTER TABLE market_events ADD COLUMN note VARCHAR');
        const extra = await rdw(mock, home, ['study', 'event', '--lock', 'study.lock.json']);
        expect(extra.code).toBe(EXIT_CODES.integrity);
        expect(extra.stderr).toBe(`rdw: ${catalogMessages.recordColumnDiffers('market_events', 'note', undefined, 'VARCHAR')}\n`);
        const dropped = await rdw(mock, home, ['verify', '--repair']);
        expect(dropped.code, dropped.stderr).toBe(EXIT_CODES.ok);
        expect(dropped.stdout).toContain('Dropped the column market_events.note, which rdw does not make.');
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
        expect((await rdw(mock, home, ['study', 'event', '--lock', 'study.lock.json'])).code).toBe(EXIT_CODES.ok);
      }),
    );
  }, 240_000);
});

describe('rdw verify finds a row table column computed by an expression', () => {
  it('a generated column that gives the fingerprint the imported values and every study others: verify, reproduce and study --lock refuse it; --repair makes it plain and re-imports the rows', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '3'])).code).toBe(0);
        expect((await rdw(mock, home, ['lock', 'study.lock.json', '--latest', '3'])).code).toBe(0);
        const honest = await rdw(mock, home, ['study', 'event', '--lock', 'study.lock.json', '--json']);
        expect(honest.code, honest.stderr).toBe(EXIT_CODES.ok);
        // market_events made again as rdw made it, but direction_adjusted_return_pct_1h computed from return_pct_1h:
        // the imported value while the query hashes rows (its text holds "md5("), a made-up one in any other query.
        const column = 'direction_adjusted_return_pct_1h';
        const plain = `CASE WHEN direction IS NULL THEN NULL WHEN direction = 'down' THEN 0.0 - return_pct_1h ELSE return_pct_1h END`;
        expect(await sql(home, `SELECT count(*)::INTEGER AS n FROM market_events WHERE ${column} IS DISTINCT FROM (${plain})`)).toEqual([{ n: 0 }]);
        const ddl = String((await sql(home, "SELECT sql FROM duckdb_tables() WHERE table_name = 'market_events'"))[0]!.sql);
        const generated = `${column} DOUBLE GENERATED ALWAYS AS (CASE WHEN current_query() LIKE '%md5(%' THEN (${plain}) ELSE (CASE WHEN direction IS NULL THEN NULL ELSE abs(return_pct_1h) + 1 END) END) VIRTUAL,`;
        expect(ddl).toContain(`${column} DOUBLE,`);
        const others = (await sql(home, `SELECT column_name FROM duckdb_columns() WHERE table_name = 'market_events' AND column_name <> '${column}' ORDER BY column_index`))
          .map((row) => `"${String(row.column_name)}"`)
          .join(', ');
        await behindRdwsBack(
          home,
          'CREATE TABLE copied AS SELECT * FROM market_events',
          'DROP TABLE market_events',
          ddl.replace(`${column} DOUBLE,`, generated),
          `INSERT INTO market_events (${others}) SELECT ${others} FROM copied`,
          'DROP TABLE copied',
        );

        const sentence = catalogMessages.recordColumnDiffers('market_events', column, 'DOUBLE', 'DOUBLE', true);
        for (const argv of [['verify'], ['reproduce', 'study.lock.json'], ['study', 'event', '--lock', 'study.lock.json']]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, argv.join(' ')).toBe(EXIT_CODES.integrity);
          expect(run.stderr, argv.join(' ')).toBe(`rdw: ${sentence}\n`);
        }
        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(EXIT_CODES.ok);
        expect(repaired.stdout).toContain(`Made the column market_events.${column} a plain DOUBLE column again`);
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
        const again = await rdw(mock, home, ['study', 'event', '--lock', 'study.lock.json', '--json']);
        expect(again.code, again.stderr).toBe(EXIT_CODES.ok);
        expect(JSON.parse(again.stdout)).toEqual(JSON.parse(honest.stdout));
      }),
    );
  }, 240_000);
});

describe('rdw verify with a row table column dropped', () => {
  it('says which column is missing (exit 3), not DuckDB\'s Binder Error from the rows fingerprint or a pull\'s insert (exit 1), nor an export without it (exit 0); --repair adds it back and re-imports the rows', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '2'])).code).toBe(0);
        const before = await sql(home, 'SELECT sum(price) AS s, count(price)::INTEGER AS n FROM market_events');
        await behindRdwsBack(home, 'ALTER TABLE market_events DROP COLUMN price');
        const sentence = catalogMessages.recordColumnDiffers('market_events', 'price', 'DOUBLE', undefined);
        const found = await rdw(mock, home, ['verify']);
        expect(found.code, found.stderr).toBe(EXIT_CODES.integrity);
        expect(found.stderr).toBe(`rdw: ${sentence}\n`);
        // A pull imports no row into it: the sentence (exit 3), not "rdw failed unexpectedly: Binder Error" per release.
        const pulled = await rdw(mock, home, ['pull', '--latest', '3']);
        expect(pulled.code, pulled.stderr).toBe(EXIT_CODES.integrity);
        expect(pulled.stderr).toContain(`rdw: ${sentence}\n`);
        expect(pulled.stderr).not.toContain('Binder Error');
        expect(await sql(home, 'SELECT count(*)::INTEGER AS n FROM releases')).toEqual([{ n: 2 }]);
        // An export ships no Parquet without the column (it did, exit 0, with nothing said).
        const exported = await rdw(mock, home, ['export', 'out']);
        expect(exported.code, exported.stderr).toBe(EXIT_CODES.integrity);
        expect(exported.stderr).toBe(`rdw: ${sentence}\n`);
        expect(existsSync(path.join(home, 'out'))).toBe(false);
        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(EXIT_CODES.ok);
        expect(repaired.stdout).toContain('Added the column market_events.price back as DOUBLE.');
        expect(await sql(home, 'SELECT sum(price) AS s, count(price)::INTEGER AS n FROM market_events')).toEqual(before);
        expect((await rdw(mock, home, ['verify'])).code).toBe(EXIT_CODES.ok);
      }),
    );
  }, 240_000);
});
