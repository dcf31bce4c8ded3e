// Bad input to a pull: manifests and files that do not match, other product versions or columns, and
// the CSV fallback. Each refusal is an IntegrityError (exit 3) that leaves nothing imported.

import { copyFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/base/index.js';
import { ManifestInvalidError, RowCountMismatchError, SchemaMismatchError, openCatalog, pullRelease, pullReleases, type Catalog } from '../../src/catalog/index.js';
import { importReleases } from '../../src/catalog/import-release.js';
import { prepareRelease } from '../../src/catalog/pull-release.js';
import { ApiNotFoundError, ChecksumMismatchError, SizeMismatchError, type RdwClient } from '../../src/client/index.js';
import { EXIT_CODES, IntegrityError, type Release, type SchemaDocument } from '../../src/contract/index.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { contentHash } from '../support/content-hash.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

type Overrides = Partial<Pick<RdwClient, 'manifest' | 'bundledSchema' | 'download'>>;

/** The real client with some methods replaced (its private state stays bound to the original). */
function overriding(client: RdwClient, overrides: (real: RdwClient) => Overrides): RdwClient {
  const replaced = overrides(client);
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property in replaced) return replaced[property as keyof Overrides];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A client whose manifests are edited by `edit` (the bytes and sha256 stay the real ones). */
const editedManifest = (client: RdwClient, edit: (release: Release) => Release) =>
  overriding(client, (real) => ({
    manifest: async (id) => {
      const manifest = await real.manifest(id);
      return { ...manifest, release: edit(structuredClone(manifest.release)) };
    },
  }));

async function expectNothingImported(catalog: Catalog): Promise<void> {
  for (const table of ['releases', 'release_files', 'market_events']) {
    expect(await catalog.query(`SELECT count(*)::DOUBLE AS n FROM ${table}`)).toEqual([{ n: 0 }]);
  }
  expect(await readdir(catalog.store.tempDir)).toEqual([]);
}

describe('pull refuses mismatching files and manifests', () => {
  const cases: { name: string; edit: (release: Release) => Release; error: new (...args: never[]) => IntegrityError }[] = [
    { name: 'an extended file (longer than the manifest says)', edit: (r) => ({ ...r, files: { ...r.files, parquet: { ...r.files.parquet, bytes: r.files.parquet.bytes - 100 } } }), error: SizeMismatchError },
    { name: 'a truncated file (shorter than the manifest says)', edit: (r) => ({ ...r, files: { ...r.files, parquet: { ...r.files.parquet, bytes: r.files.parquet.bytes + 100 } } }), error: SizeMismatchError },
    { name: 'a manifest whose parquet checksum does not match', edit: (r) => ({ ...r, files: { ...r.files, parquet: { ...r.files.parquet, sha256: 'a'.repeat(64) } } }), error: ChecksumMismatchError },
    { name: 'a manifest whose schema checksum does not match', edit: (r) => ({ ...r, files: { ...r.files, schema: { ...r.files.schema!, sha256: 'b'.repeat(64) } } }), error: IntegrityError },
    { name: 'a row count that differs from the rows in the file', edit: (r) => ({ ...r, rows: r.rows + 1 }), error: RowCountMismatchError },
    { name: 'another product version', edit: (r) => ({ ...r, version: 'mev-calc-5' }), error: SchemaMismatchError },
    { name: 'another dataset', edit: (r) => ({ ...r, dataset: 'other-v1' }), error: ManifestInvalidError },
  ];
  for (const { name, edit, error: errorClass } of cases) {
    it(`refuses ${name} with exit 3 and imports nothing`, async () => {
      await withMockServer({ days: 2 }, (mock) =>
        withCatalog(async (catalog, home) => {
          // No retries: a short body is final (a retry would try a Range resume of the same bytes).
          const real = mockClient(mock, home, { retry: { maxRetries: 0, baseDelayMs: 1, jitterMs: 1 } });
          const [release] = await real.releases({ limit: 1 });
          const error = await pullRelease(catalog, editedManifest(real, edit), release!.id).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(errorClass);
          expect((error as IntegrityError).exitCode).toBe(EXIT_CODES.integrity);
          await expectNothingImported(catalog);
          // Nothing unverified in the store: every stored file hashes to its name.
          for (const sha256 of await catalog.store.listStored()) expect((await hashFile(catalog.store.pathOf(sha256))).sha256).toBe(sha256);
          await real.close();
        }),
      );
    });
  }

  it('isolates a release that fails inside a group-commit batch: the others commit, it imports nothing', async () => {
    await withMockServer({ days: 5 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const real = mockClient(mock, home);
        const releases = await real.releases({ limit: 4 });
        const bad = releases[2]!;
        // The bad release's manifest claims one row more: detected only by the import's row count.
        const client = editedManifest(real, (release) => (release.id === bad.id ? { ...release, rows: release.rows + 1 } : release));
        const result = await pullReleases(catalog, client, releases.map((release) => release.id), { concurrency: 4, batchSize: 4 });
        expect(result.failed.map((failure) => failure.id)).toEqual([bad.id]);
        expect(result.failed[0]!.error).toBeInstanceOf(RowCountMismatchError);
        expect(result.pulled.map((pulled) => pulled.id)).toEqual(releases.filter((r) => r !== bad).map((r) => r.id));
        for (const release of releases) {
          const [row] = await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events WHERE release_id = $id', { id: release.id });
          expect(row).toEqual({ n: release === bad ? 0 : release.rows });
        }
        expect(await catalog.query('SELECT id FROM releases WHERE id = $id', { id: bad.id })).toEqual([]);
        await real.close();
      }),
    );
  });

  it('finds a wrong row count of a csv release inside a batch at import: the batch rolls back, the others commit', async () => {
    await withMockServer({ days: 6 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const real = mockClient(mock, home);
        const releases = await real.releases({ limit: 5 });
        const bad = releases[1]!;
        // Parquet is not offered for the bad release, so it comes as csv, whose row count has no footer to
        // check before the transaction: the multi-release transaction itself must find it.
        const client = editedManifest(real, (release) => {
          if (release.id !== bad.id) return release;
          const { parquet: _parquet, ...files } = release.files;
          return { ...release, rows: release.rows + 1, files: files as Release['files'] };
        });
        const result = await pullReleases(catalog, client, releases.map((release) => release.id), { concurrency: 4, batchSize: 8 });
        expect(result.failed.map((failure) => failure.id)).toEqual([bad.id]);
        expect(result.failed[0]!.error).toBeInstanceOf(RowCountMismatchError);
        expect(result.failed[0]!.error.message).toBe(`Release ${bad.id.slice(0, 12)}… holds ${bad.rows} rows, but its manifest says ${bad.rows + 1}. Nothing was imported.`);
        expect(await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events WHERE release_id = $id', { id: bad.id })).toEqual([{ n: 0 }]);
        expect(await catalog.query('SELECT count(*)::DOUBLE AS n FROM release_files WHERE release_id = $id', { id: bad.id })).toEqual([{ n: 0 }]);
        const good = releases.filter((release) => release !== bad);
        for (const release of good) {
          expect(await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events WHERE release_id = $id', { id: release.id })).toEqual([{ n: release.rows }]);
        }
        await real.close();
      }),
    );
  });

  it('imports a batch in one multi-file scan: each release holds exactly its own file, ID and day', async () => {
    await withMockServer({ days: 5 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const releases = await client.releases({ limit: 4 });
        const items = [];
        for (const release of releases) items.push((await prepareRelease(catalog, client, release.id)).item);
        // A repeated release in one batch is imported once.
        expect(await importReleases(catalog, [...items, items[0]!])).toEqual([true, true, true, true, false]);
        for (const [i, release] of releases.entries()) {
          const stored = items[i]!.dataPath.replaceAll("'", "''");
          expect(await contentHash(catalog, `market_events WHERE release_id = '${release.id}'`)).toEqual(await contentHash(catalog, `read_parquet('${stored}')`));
          expect(await catalog.query(`SELECT DISTINCT strftime(day, '%Y-%m-%d') AS day FROM market_events WHERE release_id = $id`, { id: release.id })).toEqual([{ day: release.day }]);
          expect(await catalog.query(`SELECT format FROM release_files WHERE release_id = $id ORDER BY format`, { id: release.id })).toEqual(
            [{ format: 'manifest' }, { format: 'parquet' }, ...(release.files.schema ? [{ format: 'schema' }] : [])],
          );
        }
        const orders = await catalog.query('SELECT id, import_order::DOUBLE AS n FROM releases ORDER BY import_order');
        expect(orders).toEqual(releases.map((release, i) => ({ id: release.id, n: i + 1 })));
        // Already imported: nothing changes.
        expect(await importReleases(catalog, items)).toEqual([false, false, false, false]);
        expect(await catalog.query('SELECT count(*)::DOUBLE AS n FROM market_events')).toEqual([{ n: releases.reduce((sum, r) => sum + r.rows, 0) }]);
        await client.close();
      }),
    );
  });

  it('refuses a bundled schema of another version or column set', async () => {
    const edits: ((document: SchemaDocument) => SchemaDocument)[] = [
      (document) => ({ ...document, version: 'mev-calc-3' }),
      (document) => {
        const { price: _price, ...fields } = document.fields;
        return { ...document, fields };
      },
      (document) => ({ ...document, fields: { ...document.fields, price: { ...document.fields.price!, type: 'string' } } }),
      (document) => ({ ...document, fields: { ...document.fields, extra_column: { type: 'number', description: '', nullable: true } } }),
    ];
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const real = mockClient(mock, home);
        const [release] = await real.releases({ limit: 1 });
        for (const edit of edits) {
          const client = overriding(real, (inner) => ({
            bundledSchema: async (id) => {
              const bundled = await inner.bundledSchema(id);
              return bundled === undefined ? undefined : { ...bundled, document: edit(structuredClone(bundled.document)) };
            },
          }));
          const error = await pullRelease(catalog, client, release!.id).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(SchemaMismatchError);
          expect((error as SchemaMismatchError).code).toBe('RDW_SCHEMA_MISMATCH');
          await expectNothingImported(catalog);
        }
        await real.close();
      }),
    );
  });

  it('refuses a parquet file whose columns differ from the spec, even with matching checksums', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (scratch) => {
        const real = mockClient(mock, scratch);
        const [release] = await real.releases({ limit: 1 });
        const original = path.join(scratch, 'original.parquet');
        await real.download(release!.id, 'parquet', original);
        const variants = {
          'missing column': `SELECT * EXCLUDE (price) FROM read_parquet('${original}')`,
          'retyped column': `SELECT * REPLACE (CAST(price AS VARCHAR) AS price) FROM read_parquet('${original}')`,
          'extra column': `SELECT *, 1 AS extra FROM read_parquet('${original}')`,
        };
        const duck = await DuckDBInstance.create(':memory:');
        const connection = await duck.connect();
        await withCatalog(async (catalog) => {
          for (const [name, sql] of Object.entries(variants)) {
            const file = path.join(scratch, `${name.replace(' ', '-')}.parquet`);
            await connection.run(`COPY (${sql}) TO '${file}' (FORMAT parquet)`);
            const digest = await hashFile(file);
            const client = overriding(real, (inner) => ({
              manifest: async (id) => {
                const manifest = await inner.manifest(id);
                return { ...manifest, release: { ...manifest.release, files: { ...manifest.release.files, parquet: digest } } };
              },
              download: async (_id, _format, dest) => {
                await copyFile(file, dest);
                return digest;
              },
            }));
            const error = await pullRelease(catalog, client, release!.id).catch((caught: unknown) => caught);
            expect(error, name).toBeInstanceOf(SchemaMismatchError);
            await expectNothingImported(catalog);
          }
        });
        connection.closeSync();
        duck.closeSync();
        await real.close();
      }),
    );
  });
});

describe('CSV fallback', () => {
  it('imports the csv file of the same release when parquet is unavailable, with identical content', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        const real = mockClient(mock, home);
        const [release] = await real.releases({ limit: 1 });
        const noParquet = overriding(real, (inner) => ({
          download: async (id, format, dest, options) => {
            if (format === 'parquet') throw new ApiNotFoundError('parquet unavailable');
            return inner.download(id, format, dest, options);
          },
        }));
        const viaCsv = await openCatalog(path.join(home, 'a'));
        const result = await pullRelease(viaCsv, noParquet, release!.id);
        expect(result).toMatchObject({ status: 'imported', format: 'csv', rows: release!.rows });
        const formats = await viaCsv.query('SELECT format FROM release_files ORDER BY format');
        expect(formats.map((row) => row.format)).toEqual(['csv', 'manifest', 'schema']);
        const csvHash = await contentHash(viaCsv, 'market_events');
        await viaCsv.close();

        const viaParquet = await openCatalog(path.join(home, 'b'));
        await pullRelease(viaParquet, real, release!.id);
        expect(await contentHash(viaParquet, 'market_events')).toEqual(csvHash);
        expect(csvHash!.n).toBe(release!.rows);
        await viaParquet.close();
        await real.close();
      }),
    );
  });
});
