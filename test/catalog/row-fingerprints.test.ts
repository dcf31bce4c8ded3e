// Issue 31 item 1: the catalog's rows are as trustworthy as its files. Each release's rows get a fingerprint at
// import; a row changed behind rdw's back (a separate DuckDB connection on catalog.duckdb) makes `rdw verify`,
// `rdw reproduce` and `rdw study event --lock` exit 3 naming the release, and `rdw verify --repair` fixes it. The
// built CLI against the mock over HTTP, real DuckDB files.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReleaseRows, openCatalog } from '../../src/catalog/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { studyLockFromJson } from '../../src/locks/index.js';
import { readFile } from 'node:fs/promises';
import { behindRdwsBack } from '../support/behind-rdws-back.js';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli, type BuiltCliRun } from '../support/run-built-cli.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

const rdw = (mock: MockServer, home: string, argv: string[]): Promise<BuiltCliRun> =>
  runBuiltCli([...argv, '--home', home], { env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk }, cwd: home, timeoutMs: 90_000 });

/** Every release's recorded fingerprint, by ID, read with plain SQL. */
async function recordedFingerprints(home: string): Promise<Record<string, string | null>> {
  const rows = (await queryCatalog(home, 'SELECT id, rows_fingerprint FROM releases ORDER BY id'))!;
  return Object.fromEntries(rows.map((row) => [String(row.id), (row.rows_fingerprint as string | null) ?? null]));
}

/** An order-free summary of a release's rows, by plain SQL: count and the sum of every price. */
const rowsSummary = async (home: string, id: string) =>
  (await queryCatalog(home, `SELECT count(*)::INTEGER AS n, sum(price) AS prices, sum(hash(row_id)) AS ids FROM market_events WHERE release_id = '${id}'`))![0];

describe('row fingerprints (issue 31 item 1)', () => {
  it('is recorded at import, equal in a second home, independent of row order, and changed by any changed, added or removed row', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '2'])).code).toBe(0);
        const recorded = await recordedFingerprints(home);
        const ids = Object.keys(recorded);
        expect(ids).toHaveLength(2);
        for (const fingerprint of Object.values(recorded)) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
        expect(recorded[ids[0]!]).not.toBe(recorded[ids[1]!]);
        // The same release pulled into another home: the same fingerprint (a second, independent import).
        await withTempHome(async (other) => {
          expect((await rdw(mock, other, ['pull', ids[0]!])).code).toBe(0);
          expect((await recordedFingerprints(other))[ids[0]!]).toBe(recorded[ids[0]!]);
        });

        const actual = async () => {
          const catalog = await openCatalog(home, { readOnly: true });
          try {
            return Object.fromEntries((await checkReleaseRows(catalog)).map((check) => [check.releaseId, check.actual]));
          } finally {
            await catalog.close();
          }
        };
        const [id] = ids;
        // The same rows written back in reverse order: the fingerprint stays.
        await behindRdwsBack(
          home,
          `CREATE TEMP TABLE kept AS SELECT * FROM market_events WHERE release_id = '${id}'`,
          `DELETE FROM market_events WHERE release_id = '${id}'`,
          `INSERT INTO market_events SELECT * FROM kept ORDER BY row_id DESC`,
        );
        expect(await actual()).toEqual(recorded);
        // One row duplicated (changes it); the copy removed again (back to the recorded one); one price moved by one ulp.
        await behindRdwsBack(home, `INSERT INTO market_events SELECT * FROM market_events WHERE release_id = '${id}' LIMIT 1`);
        expect((await actual())[id!]).not.toBe(recorded[id!]);
        await behindRdwsBack(
          home,
          `CREATE TEMP TABLE kept AS SELECT DISTINCT * FROM market_events WHERE release_id = '${id}'`,
          `DELETE FROM market_events WHERE release_id = '${id}'`,
          `INSERT INTO market_events SELECT * FROM kept`,
        );
        expect(await actual()).toEqual(recorded);
        await behindRdwsBack(home, `UPDATE market_events SET price = nextafter(price, 1e308) WHERE release_id = '${id}' AND row_id = (SELECT max(row_id) FROM market_events WHERE release_id = '${id}')`);
        const changed = await actual();
        expect(changed[id!]).not.toBe(recorded[id!]);
        expect(changed[ids[1]!]).toBe(recorded[ids[1]!]);
        // A row of the other release copied in under another day: studies read a release's rows by ID, so it counts
        // (the fingerprint once read only the release's own day, and a locked study ran on the copy unnoticed).
        await behindRdwsBack(home, `INSERT INTO market_events SELECT * REPLACE (DATE '2001-01-01' AS day) FROM market_events WHERE release_id = '${ids[1]}' LIMIT 1`);
        expect((await actual())[ids[1]!]).not.toBe(recorded[ids[1]!]);
      }),
    );
  }, 180_000);

  it('a price changed behind rdw\'s back: verify, reproduce and study event --lock exit 3 naming the release; verify --repair fixes it', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        const lockFile = path.join(home, 'study.lock.json');
        expect((await rdw(mock, home, ['lock', lockFile, '--latest', '3'])).code).toBe(0);
        const lock = studyLockFromJson(await readFile(lockFile, 'utf8'));
        const recorded = await recordedFingerprints(home);
        // The lock pins each release's rows fingerprint, the one recorded at import.
        for (const release of lock.releases) expect(release.rowsFingerprint).toBe(recorded[release.id]);
        expect((await rdw(mock, home, ['verify'])).code).toBe(0);

        const target = lock.releases[1]!.id;
        const before = await rowsSummary(home, target);
        await behindRdwsBack(home, `UPDATE market_events SET price = price * 2 WHERE release_id = '${target}' AND row_id = (SELECT min(row_id) FROM market_events WHERE release_id = '${target}')`);
        expect(await rowsSummary(home, target)).not.toEqual(before);

        for (const argv of [['verify'], ['reproduce', lockFile], ['study', 'event', '--lock', lockFile]]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, `rdw ${argv.join(' ')}: ${run.stderr}`).toBe(3);
          expect(run.stderr).toContain(target);
          expect(run.stderr).toMatch(/rows/);
          expect(run.stderr).toContain('rdw verify --repair');
          expect(run.stdout).not.toMatch(/^OK /m);
        }
        const json = await rdw(mock, home, ['verify', '--json']);
        expect(json.code).toBe(3);
        const report = JSON.parse(json.stdout) as { ok: boolean; badRows: { releaseId: string; problem: string }[] };
        expect(report.ok).toBe(false);
        expect(report.badRows.map((row) => [row.releaseId, row.problem])).toEqual([[target, 'differs']]);

        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(0);
        expect(repaired.stdout).toContain(`re-imported the rows of release ${target}`);
        expect(await rowsSummary(home, target)).toEqual(before);
        expect(await recordedFingerprints(home)).toEqual(recorded);
        for (const argv of [['verify'], ['reproduce', lockFile], ['study', 'event', '--lock', lockFile]]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, `rdw ${argv.join(' ')}: ${run.stderr}`).toBe(0);
        }

        // Rows of a locked release copied in under a day the lock does not pin, with a return of 25 %: every lock
        // check refuses (the study would read them: it selects by release ID); --repair takes them out.
        await behindRdwsBack(
          home,
          `INSERT INTO market_events SELECT * REPLACE (DATE '2001-01-01' AS day, 25.0 AS return_pct_1h) FROM market_events WHERE release_id = '${target}' LIMIT 50`,
        );
        for (const argv of [['reproduce', lockFile], ['study', 'event', '--lock', lockFile], ['study', 'model', '--lock', lockFile]]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, `rdw ${argv.join(' ')}: ${run.stderr}`).toBe(3);
          expect(run.stderr).toContain(target);
        }
        expect((await rdw(mock, home, ['verify', '--repair'])).code).toBe(0);
        expect(await rowsSummary(home, target)).toEqual(before);
        expect((await rdw(mock, home, ['study', 'event', '--lock', lockFile])).code).toBe(0);
      }),
    );
  }, 300_000);

  it('a lock written before rdw pinned rows stays readable; the rows its stored data file gives hold the rows then', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        const lockFile = path.join(home, 'old.lock.json');
        expect((await rdw(mock, home, ['lock', lockFile, '--latest', '2'])).code).toBe(0);
        const text = await readFile(lockFile, 'utf8');
        const old = text.replace(/,\n\s*"rowsFingerprint": "[0-9a-f]{64}"/g, '');
        expect(old).not.toContain('rowsFingerprint');
        const { writeFile } = await import('node:fs/promises');
        await writeFile(lockFile, old);
        expect((await rdw(mock, home, ['reproduce', lockFile])).code).toBe(0);
        const id = studyLockFromJson(old).releases[0]!.id;
        await behindRdwsBack(home, `DELETE FROM market_events WHERE release_id = '${id}' AND sample_type = 'control'`);
        const run = await rdw(mock, home, ['reproduce', lockFile]);
        expect(run.code).toBe(3);
        expect(run.stderr).toContain(id);
      }),
    );
  }, 180_000);

  it('a catalog of schema version 3 gets the fingerprints from its verified stored files, not from its rows', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '2'])).code).toBe(0);
        const recorded = await recordedFingerprints(home);
        const [changed, other] = Object.keys(recorded);
        // Back to version 3, with one release's rows changed before the upgrade.
        await behindRdwsBack(
          home,
          'ALTER TABLE releases DROP COLUMN rows_fingerprint',
          'ALTER TABLE listed_releases DROP COLUMN files',
          'ALTER TABLE listed_releases DROP COLUMN last_listed_at',
          'DELETE FROM schema_migrations WHERE version = 4',
          `UPDATE market_events SET price = -1 WHERE release_id = '${changed}'`,
        );
        // A read-only command migrates first (a short read-write open), which computes them from the files.
        const run = await rdw(mock, home, ['verify']);
        expect(run.code).toBe(3);
        expect(run.stderr).toContain(changed);
        expect(run.stderr).not.toContain(other);
        expect(await recordedFingerprints(home)).toEqual(recorded);
        expect((await rdw(mock, home, ['verify', '--repair'])).code).toBe(0);
        expect((await rdw(mock, home, ['verify'])).code).toBe(0);
      }),
    );
  }, 180_000);

  it('holds rows to their verified stored files where the catalog\'s recorded fingerprint could be rewritten; a stored sha256 macro is refused and dropped', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        const lockFile = path.join(home, 'study.lock.json');
        expect((await rdw(mock, home, ['lock', lockFile, '--latest', '2'])).code).toBe(0);
        const lock = studyLockFromJson(await readFile(lockFile, 'utf8'));
        const [first, second] = lock.releases.map((release) => release.id);
        const { writeFile } = await import('node:fs/promises');
        // A lock written before rdw pinned rows (the notebooks' committed locks are such).
        const oldLock = path.join(home, 'old.lock.json');
        await writeFile(oldLock, (await readFile(lockFile, 'utf8')).replace(/,\n\s*"rowsFingerprint": "[0-9a-f]{64}"/g, ''));
        // Pending and gap outcomes made complete with a return of 0, and the recorded fingerprints rewritten to match,
        // with rdw's own SQL (an adversary's trial): verify, which holds rows to the recorded value, cannot tell.
        const forge = (await import('../../src/catalog/rows-fingerprint.js')).recordRowsFingerprints;
        const { DuckDBInstance } = await import('@duckdb/node-api');
        const instance = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'));
        const connection = await instance.connect();
        await connection.run(`UPDATE market_events SET status_1h = 'complete', return_pct_1h = 0 WHERE status_1h IN ('pending', 'gap') AND release_id = '${first}'`);
        const releases = (await connection.runAndReadAll(`SELECT id, strftime(day, '%Y-%m-%d') AS day FROM releases`)).getRowObjectsJS() as { id: string; day: string }[];
        await connection.run('BEGIN');
        await forge(connection, releases);
        await connection.run('COMMIT');
        connection.closeSync();
        instance.closeSync();

        // The old lock is held to the rows its verified stored file gives, not to the rewritten record.
        for (const argv of [['reproduce', oldLock], ['study', 'event', '--lock', oldLock]]) {
          const run = await rdw(mock, home, argv);
          expect(run.code, `rdw ${argv.join(' ')}: ${run.stderr}`).toBe(3);
          expect(run.stderr).toMatch(new RegExp(`^rdw: The catalog's rows of release ${first} differ from the rows the lock pins through its verified stored data file `));
        }
        // rdw lock pins no rows its stored file does not give.
        const refused = await rdw(mock, home, ['lock', path.join(home, 'new.lock.json'), first!, second!]);
        expect(refused.code).toBe(3);
        expect(refused.stderr).toMatch(new RegExp(`^rdw: The catalog's rows of release ${first} differ from the rows imported from its verified files`));
        expect(existsSync(path.join(home, 'new.lock.json'))).toBe(false);
        // rdw verify holds rows to the stored files too: it names the release, and --repair re-imports it.
        const found = await rdw(mock, home, ['verify']);
        expect(found.code).toBe(3);
        expect(found.stderr).toMatch(new RegExp(`^rdw: The catalog's rows of release ${first}, and the fingerprint recorded for them, differ from the rows its verified stored data file gives`));
        expect(found.stderr).not.toContain(second!);
        const mended = await rdw(mock, home, ['verify', '--repair']);
        expect(mended.code, mended.stderr).toBe(0);
        expect(mended.stdout).toContain(`re-imported the rows of release ${first} from its stored data file (its rows and their recorded fingerprint had both changed since import).`);
        for (const argv of [['reproduce', oldLock], ['reproduce', lockFile]]) expect((await rdw(mock, home, argv)).code).toBe(0);

        // A lock whose pin is what is wrong (written from changed rows elsewhere) is named as such, not the catalog.
        const wrongPin = path.join(home, 'wrong.lock.json');
        await writeFile(wrongPin, (await readFile(lockFile, 'utf8')).replace(lock.releases[0]!.rowsFingerprint!, 'f'.repeat(64)));
        const blamed = await rdw(mock, home, ['reproduce', wrongPin]);
        expect(blamed.code).toBe(3);
        expect(blamed.stderr).toContain(`The lock pins rows fingerprint ffffffffffff… for release ${first}, but the rows its verified stored data file gives have`);

        // A macro stored in the catalog named like DuckDB's sha256: every check could be made to agree.
        await behindRdwsBack(home, `CREATE MACRO sha256(x) AS 'forged'`);
        const verify = await rdw(mock, home, ['verify']);
        expect(verify.code).toBe(3);
        expect(verify.stderr).toContain('The catalog stores a macro catalog.main.sha256() named like one of DuckDB\'s own functions');
        const reproduce = await rdw(mock, home, ['reproduce', lockFile]);
        expect(reproduce.code).toBe(3);
        expect(reproduce.stderr).toContain('"rdw verify --repair" drops a macro stored in the catalog');
        const repaired = await rdw(mock, home, ['verify', '--repair']);
        expect(repaired.code, repaired.stderr).toBe(0);
        expect(repaired.stdout).toContain("Dropped the macro catalog.main.sha256(), named like one of DuckDB's own functions.");
        for (const argv of [['verify'], ['reproduce', lockFile], ['reproduce', oldLock]]) expect((await rdw(mock, home, argv)).code).toBe(0);
      }),
    );
  }, 300_000);
});
