// pullRelease / pullReleases against the embedded mock: verified, atomic, idempotent imports.

import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/base/index.js';
import {
  CatalogOptionError,
  ContentStore,
  listImportedReleases,
  pullRelease,
  pullReleases,
  recordListings,
  type Catalog,
} from '../../src/catalog/index.js';
import { ByteBudgetError, ChecksumMismatchError } from '../../src/client/index.js';
import { EXIT_CODES, IntegrityError, MARKET_EVENT_FIELDS, NotFoundError, RdwError } from '../../src/contract/index.js';
import { contentHash } from '../support/content-hash.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';

const UNKNOWN_ID = 'f'.repeat(64);

async function countRows(catalog: Catalog, id?: string): Promise<number> {
  const [row] = await catalog.query(
    id === undefined ? 'SELECT count(*)::DOUBLE AS n FROM market_events' : 'SELECT count(*)::DOUBLE AS n FROM market_events WHERE release_id = $id',
    id === undefined ? undefined : { id },
  );
  return Number(row?.n);
}

async function storedFiles(catalog: Catalog): Promise<string[]> {
  return catalog.store.listStored();
}

async function tempFiles(catalog: Catalog): Promise<string[]> {
  return readdir(catalog.store.tempDir);
}

const downloads = (log: readonly { path?: string }[]) => log.filter((entry) => String(entry.path).includes('/download/'));

describe('pullRelease', () => {
  it('imports every row of a release with its metadata and read-only verified files', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        const result = await pullRelease(catalog, client, release!.id);
        expect(result).toMatchObject({ id: release!.id, status: 'imported', day: release!.day, rows: release!.rows, format: 'parquet' });
        expect(await countRows(catalog, release!.id)).toBe(release!.rows);

        const [meta] = await catalog.query(
          `SELECT strftime(day, '%Y-%m-%d') AS day, version, rows::DOUBLE AS rows, manifest_sha256, schema_sha256, coverage, limitations FROM releases`,
        );
        const manifest = await client.manifest(release!.id);
        expect(meta).toMatchObject({ day: release!.day, version: release!.version, rows: release!.rows, manifest_sha256: manifest.sha256 });
        expect(meta!.schema_sha256).toBe(release!.files.schema!.sha256);
        expect(JSON.parse(String(meta!.coverage))).toEqual(manifest.release.coverage);

        const files = await catalog.query('SELECT format, sha256, bytes::DOUBLE AS bytes FROM release_files ORDER BY format');
        expect(files.map((file) => file.format)).toEqual(['manifest', 'parquet', 'schema']);
        for (const file of files) {
          const stored = catalog.store.pathOf(String(file.sha256));
          expect(await hashFile(stored)).toEqual({ sha256: file.sha256, bytes: file.bytes });
          expect((await stat(stored)).mode & 0o777).toBe(0o444);
          expect(path.relative(home, stored)).toBe(ContentStore.relativePath(String(file.sha256)));
        }
        expect(await tempFiles(catalog)).toEqual([]);
        await client.close();
      }),
    );
  });

  it('types every spec column and keeps values equal to the parquet file', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        await pullRelease(catalog, client, release!.id);
        const columns = await catalog.query(`SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'market_events' ORDER BY ordinal_position`);
        const expected = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN' } as const;
        expect(columns.map((column) => [column.column_name, column.data_type, column.is_nullable])).toEqual([
          ['release_id', 'VARCHAR', 'NO'],
          ['day', 'DATE', 'NO'],
          ...MARKET_EVENT_FIELDS.map((field) => [field.name, expected[field.type], field.nullable ? 'YES' : 'NO']),
        ]);
        const parquet = catalog.store.pathOf(release!.files.parquet.sha256);
        expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, `read_parquet('${parquet}')`));
        await client.close();
      }),
    );
  });

  it('is a no-op success for an ID already imported: no request is sent', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        await pullRelease(catalog, client, release!.id);
        const before = mock.requestLog.length;
        const again = await pullRelease(catalog, client, release!.id);
        expect(again).toMatchObject({ id: release!.id, status: 'present', rows: release!.rows });
        expect(mock.requestLog.length).toBe(before);
        expect(await countRows(catalog)).toBe(release!.rows);
        await client.close();
      }),
    );
  });

  it('refuses a malformed ID before any request', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        for (const bad of ['abc', `${'F'.repeat(63)}/`, `${'a'.repeat(63)}%`, `${'a'.repeat(63)} `, '../../etc/passwd']) {
          const error = await pullRelease(catalog, client, bad).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(CatalogOptionError);
          expect((error as CatalogOptionError).exitCode).toBe(EXIT_CODES.usage);
        }
        await expect(pullReleases(catalog, client, [UNKNOWN_ID, 'nope'])).rejects.toBeInstanceOf(CatalogOptionError);
        expect(mock.requestLog).toEqual([]);
        await client.close();
      }),
    );
  });

  it('answers an unknown ID with a not-found error (exit 6) and imports nothing', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const error = await pullRelease(catalog, client, UNKNOWN_ID).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(NotFoundError);
        expect((error as NotFoundError).exitCode).toBe(EXIT_CODES.notFound);
        expect(await countRows(catalog)).toBe(0);
        await client.close();
      }),
    );
  });

  it('refuses a tampered parquet file (exit 3), imports nothing and keeps no unverified bytes', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        mock.faults.add({ releaseId: release!.id, format: 'parquet', kind: 'corrupt' });
        const error = await pullRelease(catalog, client, release!.id).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ChecksumMismatchError);
        expect((error as IntegrityError).exitCode).toBe(EXIT_CODES.integrity);
        expect(await countRows(catalog)).toBe(0);
        expect(await catalog.query('SELECT * FROM releases')).toEqual([]);
        expect(await catalog.query('SELECT * FROM release_files')).toEqual([]);
        expect(await storedFiles(catalog)).not.toContain(release!.files.parquet.sha256);
        expect(await tempFiles(catalog)).toEqual([]);

        // The fault cleared, the same ID imports in full.
        mock.faults.clear();
        await pullRelease(catalog, client, release!.id);
        expect(await countRows(catalog, release!.id)).toBe(release!.rows);
        await client.close();
      }),
    );
  });

  it('imports nothing when the connection is cut mid-file, then resumes the keyed partial on the next pull', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        mock.faults.add({ releaseId: release!.id, format: 'parquet', kind: 'truncate' });
        // One attempt only, so the cut is final for this pull (the client would otherwise resume at once).
        const once = mockClient(mock, home, { retry: { maxRetries: 0, baseDelayMs: 1, jitterMs: 1 } });
        const error = await pullRelease(catalog, once, release!.id).catch((caught: unknown) => caught);
        await once.close();
        expect(error).toBeInstanceOf(RdwError);
        expect(await countRows(catalog)).toBe(0);
        expect(await storedFiles(catalog)).not.toContain(release!.files.parquet.sha256);
        // Only a resumable partial keyed to this release (sidecar: ID, sha256, size) may stay in store/tmp.
        const left = await tempFiles(catalog);
        expect(left).toEqual([`${release!.id}.parquet.partial`, `${release!.id}.parquet.partial.json`]);
        expect(JSON.parse(await readFile(path.join(catalog.store.tempDir, left[1]!), 'utf8'))).toMatchObject({
          releaseId: release!.id,
          sha256: release!.files.parquet.sha256,
          bytes: release!.files.parquet.bytes,
        });

        mock.faults.clear();
        const before = mock.requestLog.length;
        await pullRelease(catalog, client, release!.id);
        const resumed = mock.requestLog.slice(before).filter((entry) => entry.path.endsWith(`/download/${release!.id}/parquet`));
        expect(resumed).toHaveLength(1);
        expect(resumed[0]!.range).toMatch(/^bytes=\d+-$/);
        expect(resumed[0]!.status).toBe(206);
        expect(await countRows(catalog, release!.id)).toBe(release!.rows);
        expect(await tempFiles(catalog)).toEqual([]);
        await client.close();
      }),
    );
  });

  it('stops at a full byte budget (exit 5) before downloading the data file', async () => {
    await withMockServer({ days: 2, limits: { desk: { daily_bytes: 20_000 } } }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [release] = await client.releases({ limit: 1 });
        const error = await pullRelease(catalog, client, release!.id).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ByteBudgetError);
        expect((error as ByteBudgetError).exitCode).toBe(EXIT_CODES.limit);
        expect(downloads(mock.requestLog).map((entry) => String(entry.path))).not.toContainEqual(expect.stringContaining('/parquet'));
        expect(await countRows(catalog)).toBe(0);
        await client.close();
      }),
    );
  });
});

describe('pullReleases', () => {
  it('imports several releases; one failure leaves the others whole', async () => {
    await withMockServer({ days: 5 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const releases = await client.releases({ limit: 4 });
        const bad = releases[1]!;
        mock.faults.add({ releaseId: bad.id, format: 'parquet', kind: 'corrupt' });
        const events: string[] = [];
        const result = await pullReleases(catalog, client, [...releases.map((release) => release.id), releases[0]!.id], {
          concurrency: 3,
          onProgress: (event) => {
            if (event.kind === 'release') events.push(`${event.releaseId}:${event.status}`);
          },
        });
        expect(result.failed.map((failure) => failure.id)).toEqual([bad.id]);
        expect(result.failed[0]!.error).toBeInstanceOf(IntegrityError);
        expect(result.pulled.map((pulled) => pulled.id)).toEqual(releases.filter((release) => release !== bad).map((release) => release.id));
        for (const release of releases) expect(await countRows(catalog, release.id)).toBe(release === bad ? 0 : release.rows);
        expect(events).toContain(`${bad.id}:failed`);
        expect(events.filter((event) => event.endsWith(':imported'))).toHaveLength(3);
        await client.close();
      }),
    );
  });
});

describe('revisions', () => {
  it('keeps the old revision, moves market_events_current, and ls notes a newer known revision', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const [old] = await client.releases({ limit: 1 });
        await pullRelease(catalog, client, old!.id);

        // Advance the data clock until the mock publishes a revision of that day.
        let revision;
        for (let hour = 0; hour < 48 && revision === undefined; hour += 1) {
          revision = mock.advance(3600).find((published) => published.day === old!.day);
        }
        expect(revision).toBeDefined();
        expect(revision!.id).not.toBe(old!.id);

        await recordListings(catalog, await client.releases({ limit: 10 }));
        const [listed] = await listImportedReleases(catalog);
        expect(listed).toMatchObject({ id: old!.id, current: true, newerId: revision!.id, newerImported: false });

        await pullRelease(catalog, client, revision!.id);
        const current = await catalog.query(`SELECT DISTINCT release_id FROM market_events_current WHERE day = $day::DATE`, { day: old!.day });
        expect(current).toEqual([{ release_id: revision!.id }]);
        expect(await countRows(catalog, old!.id)).toBe(old!.rows);
        const after = await listImportedReleases(catalog);
        expect(after.map((release) => [release.id, release.current, release.newerId])).toEqual([
          [revision!.id, true, null],
          [old!.id, false, revision!.id],
        ]);
        // A pull by ID never substitutes another revision: the old ID stays the old rows.
        expect(await pullRelease(catalog, client, old!.id)).toMatchObject({ id: old!.id, status: 'present', rows: old!.rows });
        await client.close();
      }),
    );
  });
});
