// Issue 31 item 1: the workbench hands out a catalog that refuses writes to rdw's tables. A notebook's
// `wb.catalog.query("update market_events …")`, `wb.catalog.connection.run("delete …")`, a write inside
// `exclusive`, a COMMIT that would end the read-only transaction, `transaction` and an appender are refused with
// CatalogReadOnlyError (exit 2) saying where one's own tables go; reads, temporary tables and rdw's own writes
// (a pull through the workbench) work; afterwards the rows and `rdw verify` are as before.

import { describe, expect, it } from 'vitest';
import { CatalogReadOnlyError, checkReleaseRows, importedReleaseIds, pullRelease } from '../../src/catalog/index.js';
import { openWorkbench } from '../../src/workbench/index.js';
import { createAnalysisViews } from '../../src/index.js';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

const summary = async (home: string) =>
  (await queryCatalog(home, 'SELECT count(*)::INTEGER AS n, sum(price) AS prices, (SELECT count(*) FROM releases)::INTEGER AS releases FROM market_events'))![0];

/** Expects `promise` to reject with CatalogReadOnlyError (exit 2) whose sentence says where one's own tables go. */
async function refused(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CatalogReadOnlyError);
  expect((error as CatalogReadOnlyError).code).toBe('RDW_CATALOG_READ_ONLY');
  expect((error as CatalogReadOnlyError).exitCode).toBe(2);
  expect((error as Error).message).toContain('CREATE TEMP TABLE');
}

describe("the workbench's catalog refuses writes to rdw's tables", () => {
  it('refuses every notebook-style write, keeps reads and temporary tables, and still pulls', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
        expect((await runBuiltCli(['pull', '--latest', '1', '--home', home], { env, cwd: home })).code).toBe(0);
        const before = await summary(home);
        const wb = await openWorkbench({ env, home, onNotice: () => {} });
        try {
          await refused(wb.catalog.query('UPDATE market_events SET price = price * 2'));
          await refused(wb.catalog.connection.run('DELETE FROM market_events'));
          await refused(wb.catalog.connection.runAndReadAll("INSERT INTO market_events SELECT * FROM market_events LIMIT 1"));
          await refused(wb.catalog.exclusive((connection) => connection.run("DELETE FROM market_events WHERE sample_type = 'control'")));
          await refused(wb.catalog.arrow('DELETE FROM releases RETURNING id'));
          await refused(wb.catalog.sideQuery('DROP TABLE listed_releases'));
          // A COMMIT would end the read-only transaction and let the next statement write.
          await refused(wb.catalog.query('COMMIT; DELETE FROM market_events'));
          await refused(wb.catalog.sideQuery('COMMIT; DELETE FROM market_events'));
          await refused(wb.catalog.query('-- a note first\nCOMMIT; DELETE FROM market_events'));
          await refused(wb.catalog.query("SELECT CASE WHEN true THEN 1 END; /* then */ commit; DELETE FROM market_events"));
          await refused(wb.catalog.connection.run('BEGIN TRANSACTION; UPDATE market_events SET price = 0'));
          await refused(wb.catalog.transaction((connection) => connection.run('DELETE FROM market_events')));
          await refused(Promise.resolve().then(() => wb.catalog.connection.createAppender('market_events')));
          await refused(wb.catalog.exclusive((connection) => connection.prepare('DELETE FROM market_events')));

          // Reads and temporary tables work.
          const [read] = await wb.catalog.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM market_events');
          expect(read!.n).toBe(before!.n);
          await wb.catalog.connection.run('CREATE TEMP TABLE mine AS SELECT symbol, count(*) AS n FROM market_events GROUP BY symbol');
          const mine = (await wb.catalog.connection.runAndReadAll('SELECT sum(n)::INTEGER AS n FROM mine')).getRowObjectsJson();
          expect(mine).toEqual([{ n: before!.n }]);
          // The package's analysis views are TEMP views: they work on the read-only connection and write nothing.
          await createAnalysisViews(wb.catalog.connection);
          const [split] = await wb.catalog.query<{ labels: number }>('SELECT count(*)::INTEGER AS labels FROM mev_labels');
          expect(split!.labels).toBe(before!.n);

          // rdw's own writes still go through: a pull by ID via the workbench's catalog.
          const [, listed] = await wb.client.releases({ limit: 2 });
          const pulled = await pullRelease(wb.catalog, wb.client, listed!.id);
          expect(pulled.status).toBe('imported');
          expect([...(await importedReleaseIds(wb.catalog))]).toHaveLength(2);
          expect((await checkReleaseRows(wb.catalog)).every((check) => check.ok)).toBe(true);
        } finally {
          await wb.close();
        }
        const after = await summary(home);
        expect(after!.releases).toBe(2);
        expect((await runBuiltCli(['verify', '--home', home], { env, cwd: home })).code).toBe(0);
      }),
    );
  }, 120_000);
});
