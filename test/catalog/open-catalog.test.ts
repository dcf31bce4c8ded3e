// openCatalog: layout, versioned migrations, temp clean-up, the bounded wait for a busy catalog, and a
// catalog that never holds a key, a host or a machine path.

import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { CatalogBusyError, CatalogVersionError, openCatalog, pullReleases, verifyStore } from '../../src/catalog/index.js';
import { CATALOG_SCHEMA_VERSION, MIGRATIONS } from '../../src/catalog/catalog-schema.js';
import { EXIT_CODES } from '../../src/contract/index.js';
import { mockClient } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('openCatalog', () => {
  it('creates store/ and catalog.duckdb and applies each migration once', async () => {
    await withTempHome(async (home) => {
      const first = await openCatalog(home);
      expect((await stat(path.join(home, 'catalog.duckdb'))).isFile()).toBe(true);
      expect((await stat(path.join(home, 'store', 'sha256'))).isDirectory()).toBe(true);
      expect((await stat(path.join(home, 'store', 'tmp'))).isDirectory()).toBe(true);
      const tables = await first.query(`SELECT table_name FROM information_schema.tables ORDER BY table_name`);
      expect(tables.map((row) => row.table_name)).toEqual([
        'listed_releases', 'market_event_extras', 'market_events', 'market_events_current', 'release_files', 'releases', 'schema_migrations', 'snapshots', 'sync_runs',
      ]);
      await first.close();
      const second = await openCatalog(home, { readOnly: true });
      expect(await second.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual(MIGRATIONS.map((migration) => ({ version: migration.version })));
      expect(MIGRATIONS.at(-1)!.version).toBe(CATALOG_SCHEMA_VERSION);
      await second.close();
    });
  });

  it('creates a missing catalog even when asked for read-only', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(path.join(home, 'new'), { readOnly: true });
      expect(catalog.readOnly).toBe(true);
      expect(await catalog.query('SELECT count(*)::INTEGER AS n FROM releases')).toEqual([{ n: 0 }]);
      await expect(catalog.query(`INSERT INTO snapshots (dataset_id, generated_at, fetched_at) VALUES ('x', 1, now())`)).rejects.toThrow(/read-only/);
      await catalog.close();
    });
  });

  it('leaves a home that holds only catalog.duckdb (a copied catalog) as it found it when opened read-only', async () => {
    await withTempHome(async (home) => {
      const made = await openCatalog(path.join(home, 'made'));
      await made.close();
      await mkdir(path.join(home, 'copy'));
      await copyFile(path.join(home, 'made', 'catalog.duckdb'), path.join(home, 'copy', 'catalog.duckdb'));
      const reader = await openCatalog(path.join(home, 'copy'), { readOnly: true });
      expect(await reader.query('SELECT count(*)::INTEGER AS n FROM releases')).toEqual([{ n: 0 }]);
      await reader.close();
      // Before: an empty store/ (sha256/, tmp/) appeared in it.
      expect(await readdir(path.join(home, 'copy'))).toEqual(['catalog.duckdb']);
      // Read-write makes the store as before.
      const writer = await openCatalog(path.join(home, 'copy'));
      await writer.close();
      expect((await readdir(path.join(home, 'copy', 'store'))).sort()).toEqual(['sha256', 'tmp']);
    });
  });

  it('refuses a catalog written by a newer rdw', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home);
      await catalog.query(`INSERT INTO schema_migrations VALUES (${CATALOG_SCHEMA_VERSION + 1}, 'future', now()::TIMESTAMP)`);
      await catalog.close();
      await expect(openCatalog(home)).rejects.toBeInstanceOf(CatalogVersionError);
    });
  });

  it('removes stale temp files on open and keeps a fresh resumable partial', async () => {
    await withTempHome(async (home) => {
      const tmp = path.join(home, 'store', 'tmp');
      await mkdir(tmp, { recursive: true });
      const id = 'a'.repeat(64);
      const names = {
        unmoved: `${id}.parquet`,
        orphanPartial: `${'b'.repeat(64)}.parquet.partial`,
        freshPartial: `${id}.csv.partial`,
        oldPartial: `${'c'.repeat(64)}.parquet.partial`,
        stray: 'leftover.manifest',
      };
      for (const name of Object.values(names)) await writeFile(path.join(tmp, name), 'x');
      await writeFile(path.join(tmp, `${names.freshPartial}.json`), '{}');
      await writeFile(path.join(tmp, `${names.oldPartial}.json`), '{}');
      const now = new Date('2026-11-01T00:00:00Z');
      const dayOld = new Date(now.getTime() - 2 * 24 * 3600 * 1000);
      await utimes(path.join(tmp, names.oldPartial), dayOld, dayOld);
      await utimes(path.join(tmp, names.freshPartial), now, now);
      const catalog = await openCatalog(home, { now: () => now });
      expect(catalog.tempCleanup.kept).toEqual([names.freshPartial, `${names.freshPartial}.json`]);
      expect(catalog.tempCleanup.removed.sort()).toEqual(
        [names.unmoved, names.orphanPartial, names.oldPartial, `${names.oldPartial}.json`, names.stray].sort(),
      );
      await catalog.close();
    });
  });

  it('waits a bounded time for a catalog held in this process, then throws CatalogBusyError (exit 1)', async () => {
    await withTempHome(async (home) => {
      const holder = await openCatalog(home);
      const started = Date.now();
      const error = await openCatalog(home, { busyTimeoutMs: 300, busyRetryMs: 50 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CatalogBusyError);
      expect((error as CatalogBusyError).exitCode).toBe(EXIT_CODES.failure);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      // Released within the wait: the second open succeeds.
      const waiting = openCatalog(home, { busyTimeoutMs: 5_000, busyRetryMs: 50 });
      setTimeout(() => void holder.close(), 200);
      const second = await waiting;
      await second.close();
    });
  });

  it('makes another process wait, then fail with CatalogBusyError, never corrupting the catalog', async () => {
    await withTempHome(async (home) => {
      const holder = await openCatalog(home);
      await holder.query(`INSERT INTO snapshots (dataset_id, generated_at, fetched_at) VALUES ('held', 1, now()::TIMESTAMP)`);
      const script = `
        import { openCatalog } from ${JSON.stringify(path.join(ROOT, 'src/catalog/index.ts'))};
        try { const c = await openCatalog(process.argv[1], { busyTimeoutMs: 400, busyRetryMs: 50 }); await c.close(); console.log('opened'); }
        catch (error) { console.log(error.code); }`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, home], { cwd: ROOT });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((resolve) => child.on('exit', resolve));
      expect(out.trim()).toBe('RDW_CATALOG_BUSY');
      await holder.close();
      const reopened = await openCatalog(home, { readOnly: true });
      expect(await reopened.query('SELECT dataset_id FROM snapshots')).toEqual([{ dataset_id: 'held' }]);
      await reopened.close();
    });
  });
});

describe('what the catalog holds', () => {
  it('never a key, a host or a machine path; verifyStore re-hashes every file', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        const catalog = await openCatalog(home);
        const client = mockClient(mock, home);
        const ids = (await client.releases({ limit: 2 })).map((release) => release.id);
        const { failed } = await pullReleases(catalog, client, ids);
        expect(failed).toEqual([]);
        const report = await verifyStore(catalog);
        expect(report.bad).toEqual([]);
        expect(report.files.length).toBe(5); // 2 manifests, 2 parquet files, 1 shared bundled schema
        expect(report.unreferenced).toEqual([]);
        await catalog.close();
        await client.close();

        const bytes = await readFile(path.join(home, 'catalog.duckdb'));
        const url = new URL(mock.baseUrl);
        for (const needle of [mock.keys.desk, 'rdw_sk_', url.host, url.hostname, home, path.basename(home)]) {
          expect(bytes.includes(Buffer.from(needle)), needle).toBe(false);
        }
        // Also through SQL, for values DuckDB may compress on disk.
        const db = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'), { access_mode: 'READ_ONLY' });
        const connection = await db.connect();
        for (const table of ['releases', 'release_files', 'listed_releases', 'snapshots']) {
          const text = JSON.stringify((await connection.runAndReadAll(`SELECT * FROM ${table}`)).getRowObjectsJson());
          for (const needle of ['rdw_sk_', url.host, home]) expect(text.includes(needle), `${table}: ${needle}`).toBe(false);
        }
        connection.closeSync();
        db.closeSync();
      }),
    );
  });
});
