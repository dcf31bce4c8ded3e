// What keeps a long pull's memory flat: Catalog.trimMemory frees DuckDB's block cache between batches
// without touching data or settings and never fails a statement beside it; Catalog.deferCompaction stops
// checkpoints from merging row groups for the rest of the handle, and later handles merge again.

import { describe, expect, it } from 'vitest';
import { CatalogOptionError, openCatalog, pullReleases, type Catalog } from '../../src/catalog/index.js';
import { EXIT_CODES } from '../../src/contract/index.js';
import { contentHash } from '../support/content-hash.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

async function cachedBlockBytes(catalog: Catalog): Promise<number> {
  const [row] = await catalog.query(`SELECT memory_usage_bytes::DOUBLE AS bytes FROM duckdb_memory() WHERE tag = 'BASE_TABLE'`);
  return Number(row?.bytes ?? 0);
}

async function rowGroups(catalog: Catalog): Promise<number> {
  const [row] = await catalog.query(`SELECT count(DISTINCT row_group_id)::DOUBLE AS n FROM pragma_storage_info('market_events')`);
  return Number(row!.n);
}

async function vacuumTasks(catalog: Catalog): Promise<number> {
  const [row] = await catalog.query(`SELECT current_setting('max_vacuum_tasks')::DOUBLE AS n`);
  return Number(row!.n);
}

/** Appends 500 copies of existing rows and checkpoints: what a small pull's commit and close do. */
async function appendAndCheckpoint(catalog: Catalog): Promise<void> {
  await catalog.query('INSERT INTO market_events SELECT * FROM market_events LIMIT 500');
  await catalog.query('CHECKPOINT');
}

async function memoryLimit(catalog: Catalog): Promise<string> {
  const [row] = await catalog.query(`SELECT current_setting('memory_limit') AS limit`);
  return String(row!.limit);
}

/** Bytes of a limit as DuckDB shows it ("18.8 GiB"). */
function limitBytes(shown: string): number {
  const [, value, unit] = /^([\d.]+) (bytes|KiB|MiB|GiB|TiB)$/.exec(shown) ?? [];
  expect(unit, shown).toBeDefined();
  return Number(value) * 1024 ** ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'].indexOf(unit!);
}

describe('Catalog.trimMemory', () => {
  it('evicts the cached blocks of the catalog, keeps every row, and keeps memory_limit (one display step at most)', async () => {
    await withMockServer({ days: 6 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const ids = (await client.releases({ limit: 5 })).map((release) => release.id);
        const pulled = await pullReleases(catalog, client, ids, { trimEvery: 1000 });
        expect(pulled.failed).toEqual([]);
        // Written to the file by the checkpoint, then read back: the table's blocks are in the cache.
        await catalog.query('CHECKPOINT');
        const before = await contentHash(catalog, 'market_events');
        const limit = await memoryLimit(catalog);
        const cached = await cachedBlockBytes(catalog);
        expect(cached).toBeGreaterThan(2 ** 20);

        await catalog.trimMemory();

        // What is left is under the one MiB the limit is rounded up to.
        expect(await cachedBlockBytes(catalog)).toBeLessThan(2 ** 20);
        // At most one display step (0.1 GiB) lower than before, the first time only (see trimMemory).
        const trimmedLimit = await memoryLimit(catalog);
        expect(limitBytes(trimmedLimit)).toBeLessThanOrEqual(limitBytes(limit));
        expect(limitBytes(trimmedLimit)).toBeGreaterThanOrEqual(limitBytes(limit) * 0.99);
        await catalog.trimMemory();
        expect(await memoryLimit(catalog)).toBe(trimmedLimit);
        expect(await contentHash(catalog, 'market_events')).toEqual(before);
        expect(before!.n).toBeGreaterThan(0);
        await client.close();
      }),
    );
  });

  it('waits for the side connection: data-file checks beside a trim all succeed', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        await pullReleases(catalog, client, [release!.id]);
        const file = catalog.store.pathOf(release!.files.parquet.sha256);
        const checks = Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0 ? catalog.trimMemory().then(() => release!.rows) : catalog.sideQuery(`SELECT count(*)::DOUBLE AS n FROM read_parquet('${file}')`).then((rows) => Number(rows[0]!.n)),
        );
        expect(await Promise.all(checks)).toEqual(Array.from({ length: 6 }, () => release!.rows));
        await client.close();
      }),
    );
  });
});

describe('Catalog.deferCompaction', () => {
  it('stops checkpoints merging row groups for this handle only; the next handle merges one run per checkpoint', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        const client = mockClient(mock, home);
        const ids = (await client.releases({ limit: 2 })).map((release) => release.id);
        let catalog = await openCatalog(home);
        try {
          await pullReleases(catalog, client, ids);
          await catalog.query('CHECKPOINT');
          expect(await vacuumTasks(catalog)).toBe(1);
          const start = await rowGroups(catalog);
          // Merging on: small appends do not pile up as row groups.
          for (let i = 0; i < 3; i++) await appendAndCheckpoint(catalog);
          const merged = await rowGroups(catalog);
          expect(merged).toBeLessThanOrEqual(start + 1);

          await catalog.deferCompaction();
          expect(await vacuumTasks(catalog)).toBe(0);
          for (let i = 0; i < 3; i++) await appendAndCheckpoint(catalog);
          expect(await rowGroups(catalog)).toBe(merged + 3);
        } finally {
          await catalog.close();
        }
        catalog = await openCatalog(home);
        try {
          expect(await vacuumTasks(catalog)).toBe(1);
          const before = await rowGroups(catalog);
          await appendAndCheckpoint(catalog);
          expect(await rowGroups(catalog)).toBeLessThan(before);
        } finally {
          await catalog.close();
        }
        await client.close();
      }),
    );
  });
});

describe('pullReleases trimEvery', () => {
  it('a pull of at least trimEvery releases defers compaction; a shorter one does not', async () => {
    await withMockServer({ days: 5 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const ids = (await client.releases({ limit: 4 })).map((release) => release.id);
        await pullReleases(catalog, client, ids.slice(0, 2), { trimEvery: 3 });
        expect(await vacuumTasks(catalog)).toBe(1);
        // Two of these three are already imported: what counts is what the pull imports.
        await pullReleases(catalog, client, ids.slice(0, 3), { trimEvery: 2 });
        expect(await vacuumTasks(catalog)).toBe(1);
        await pullReleases(catalog, client, ids, { trimEvery: 1 });
        expect(await vacuumTasks(catalog)).toBe(0);
        await client.close();
      }),
    );
  });

  it('trims after every release without changing what is imported', async () => {
    await withMockServer({ days: 7 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const releases = await client.releases({ limit: 6 });
        await catalog.trimMemory();
        const limit = await memoryLimit(catalog);
        const result = await pullReleases(catalog, client, releases.map((release) => release.id), { batchSize: 1, trimEvery: 1, concurrency: 3 });
        expect(result.failed).toEqual([]);
        const counts = await catalog.query(`SELECT release_id, count(*)::DOUBLE AS n FROM market_events GROUP BY release_id`);
        expect(Object.fromEntries(counts.map((row) => [row.release_id, row.n]))).toEqual(
          Object.fromEntries(releases.map((release) => [release.id, release.rows])),
        );
        // Six trims and the limit is where one trim left it.
        expect(await memoryLimit(catalog)).toBe(limit);
        await client.close();
      }),
    );
  });

  it('refuses a trimEvery below 1 before any request (exit 2)', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const error = await pullReleases(catalog, client, ['a'.repeat(64)], { trimEvery: 0 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(CatalogOptionError);
        expect((error as CatalogOptionError).exitCode).toBe(EXIT_CODES.usage);
        expect(mock.requestLog).toEqual([]);
        await client.close();
      }),
    );
  });
});
