// repairStore / repairStoredFiles / the present-release check of pulls, against the embedded mock over HTTP,
// with real store files and a real DuckDB catalog: restored bytes equal the recorded digest, rows are
// re-imported all or nothing, a server serving other bytes or a full byte budget changes nothing.

import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/base/index.js';
import { openCatalog, pullRelease, pullReleases, repairStore, StoreMismatchError, verifyStore, type Catalog, type StoredFileCheck } from '../../src/catalog/index.js';
import { checkStoredFiles } from '../../src/catalog/verify-store.js';
import { ByteBudgetError, ChecksumMismatchError, type RdwClient } from '../../src/client/index.js';
import { EXIT_CODES, type FileDigest } from '../../src/contract/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { contentHash } from '../support/content-hash.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

const DAYS = 3;

/** The recorded file of `format` of the first imported release, and that release's ID. */
async function recorded(catalog: Catalog, format: string): Promise<{ id: string; file: FileDigest; path: string }> {
  const [row] = await catalog.query(`SELECT release_id, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE format = $format ORDER BY release_id LIMIT 1`, { format });
  const file = { sha256: String(row!.sha256), bytes: Number(row!.bytes) };
  return { id: String(row!.release_id), file, path: catalog.store.pathOf(file.sha256) };
}

/** One byte of a stored file flipped (the store is 0444: made writable first). */
async function flipByte(file: string): Promise<void> {
  await chmod(file, 0o644);
  const bytes = await readFile(file);
  bytes[bytes.length >> 1]! ^= 0xff;
  await writeFile(file, bytes);
}

const rowsOf = (catalog: Catalog, id: string) => contentHash(catalog, `market_events WHERE release_id = '${id}'`);
const downloads = (mock: MockServer) => mock.requestLog.filter((entry) => entry.path.includes('/download/'));

/** Pulls the latest two releases of `mock` into `catalog`; returns the client and the fresh rows' content hash per release. */
async function pulled(mock: MockServer, catalog: Catalog, home: string): Promise<{ client: RdwClient; fresh: Map<string, unknown> }> {
  const client = mockClient(mock, home);
  const ids = (await client.releases({ limit: 2 })).map((release) => release.id);
  const result = await pullReleases(catalog, client, ids);
  expect(result.failed).toEqual([]);
  const fresh = new Map<string, unknown>();
  for (const id of ids) fresh.set(id, await rowsOf(catalog, id));
  return { client, fresh };
}

/** `fn` with a catalog holding the latest two releases of a fresh mock, its client (closed after) and their rows' hashes. */
async function withPulled(fn: (mock: MockServer, catalog: Catalog, client: RdwClient, fresh: Map<string, unknown>) => Promise<void>): Promise<void> {
  await withMockServer({ days: DAYS }, (mock) =>
    withCatalog(async (catalog, home) => {
      const { client, fresh } = await pulled(mock, catalog, home);
      try {
        await fn(mock, catalog, client, fresh);
      } finally {
        await client.close();
      }
    }),
  );
}

describe('repairStore', () => {
  it('restores a deleted parquet file by ID and re-imports its rows (all of them, even ones lost from the catalog)', async () => {
    await withPulled(async (mock, catalog, client, fresh) => {
      const { id, file, path } = await recorded(catalog, 'parquet');
      await rm(path, { force: true });
      // Rows lost from the catalog too: the re-import must bring back exactly the file's rows.
      await catalog.query(`DELETE FROM market_events WHERE release_id = '${id}' AND row_id IN (SELECT row_id FROM market_events WHERE release_id = '${id}' LIMIT 5)`);
      expect(await rowsOf(catalog, id)).not.toEqual(fresh.get(id));
      const before = (await verifyStore(catalog)).bad;
      expect(before.map((bad) => [bad.file, bad.problem])).toEqual([[`store/sha256/${file.sha256.slice(0, 2)}/${file.sha256}`, 'missing']]);
      mock.requestLog.length = 0;

      const report = await repairStore(catalog, client);
      expect(report.ok).toBe(true);
      expect(report.repairs.map((repair) => [repair.sha256, repair.problem, repair.outcome, repair.reimported])).toEqual([[file.sha256, 'missing', 'reimported', [id]]]);
      expect(await hashFile(path)).toEqual(file);
      expect(await rowsOf(catalog, id)).toEqual(fresh.get(id));
      for (const [other, hash] of fresh) expect(await rowsOf(catalog, other)).toEqual(hash);
      expect(downloads(mock).map((entry) => entry.path)).toEqual([`/v1/download/${id}/parquet`]);
      expect((await verifyStore(catalog)).bad).toEqual([]);
      expect(await readdir(catalog.store.tempDir)).toEqual([]);
    });
  });

  it('restores a parquet file with one flipped byte, and a manifest and a schema without touching rows', async () => {
    await withPulled(async (mock, catalog, client, fresh) => {
      const data = await recorded(catalog, 'parquet');
      const manifest = await recorded(catalog, 'manifest');
      const schema = await recorded(catalog, 'schema');
      for (const target of [data, manifest, schema]) await flipByte(target.path);
      const report = await repairStore(catalog, client);
      expect(report.ok).toBe(true);
      // manifests and schemas first, then data files
      expect(report.repairs.map((repair) => [repair.sha256, repair.problem, repair.outcome])).toEqual([
        ...[manifest, schema].map((target) => [target.file.sha256, 'sha256', 'restored']).sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
        [data.file.sha256, 'sha256', 'reimported'],
      ]);
      for (const target of [data, manifest, schema]) expect(await hashFile(target.path)).toEqual(target.file);
      for (const [id, hash] of fresh) expect(await rowsOf(catalog, id)).toEqual(hash);
      expect((await verifyStore(catalog)).bad).toEqual([]);
    });
  });

  it('refuses other bytes from the service (exit 3): the store and the rows stay as they were', async () => {
    await withPulled(async (mock, catalog, client, fresh) => {
      const { id, path } = await recorded(catalog, 'parquet');
      await flipByte(path);
      const damaged = await readFile(path);
      const rows = await rowsOf(catalog, id);
      mock.faults.add({ format: 'parquet', kind: 'corrupt' });
      const report = await repairStore(catalog, client);
      expect(report.ok).toBe(false);
      const [repair] = report.repairs;
      expect(repair!.outcome).toBe('failed');
      expect(repair!.error).toBeInstanceOf(ChecksumMismatchError);
      expect((repair!.error as ChecksumMismatchError).exitCode).toBe(EXIT_CODES.integrity);
      expect(await readFile(path)).toEqual(damaged);
      expect(await rowsOf(catalog, id)).toEqual(rows);
      expect(await readdir(catalog.store.tempDir)).toEqual([]);
    });
  });

  it('leaves the old rows and the damaged file when the re-import fails inside its transaction', async () => {
    await withPulled(async (mock, catalog, client, fresh) => {
      const { id, path } = await recorded(catalog, 'parquet');
      await rm(path, { force: true });
      await catalog.query(`DELETE FROM market_events WHERE release_id = '${id}' AND row_id IN (SELECT row_id FROM market_events WHERE release_id = '${id}' LIMIT 3)`);
      const rows = await rowsOf(catalog, id);
      // The catalog's recorded coverage now contradicts the file's rows: checked after the rows were replaced.
      await catalog.query(`UPDATE releases SET coverage = json_object('symbols', ['NOPE-USDT']) WHERE id = '${id}'`);
      const report = await repairStore(catalog, client);
      const [repair] = report.repairs;
      expect(repair!.outcome).toBe('failed');
      expect((repair!.error as { code?: string }).code).toBe('RDW_MANIFEST_CONTRADICTION');
      expect(await rowsOf(catalog, id)).toEqual(rows);
      expect((await checkStoredFiles(catalog)).filter((check) => !check.ok).map((check) => check.problem)).toEqual(['missing']);
      expect(await readdir(catalog.store.tempDir)).toEqual([]);
    });
  });

  it('stops at a full byte budget (exit 5, naming the day it clears) before any download, changing nothing', async () => {
    await withPulled(async (_mock, catalog) => {
      const data = await recorded(catalog, 'parquet');
      const schema = await recorded(catalog, 'schema');
      await rm(data.path, { force: true });
      await flipByte(schema.path);
      const damaged = await readFile(schema.path);
      // The same seeded releases, served by an account with a 1-byte daily budget.
      await withMockServer({ days: DAYS, limits: { desk: { daily_bytes: 1 } } }, async (tight) => {
        const limited = mockClient(tight, catalog.home);
        const report = await repairStore(catalog, limited);
        expect(report.ok).toBe(false);
        expect(report.repairs.map((repair) => repair.error?.constructor)).toEqual([ByteBudgetError, ByteBudgetError]);
        expect((report.repairs[0]!.error as ByteBudgetError).exitCode).toBe(EXIT_CODES.limit);
        expect(report.repairs[0]!.error!.message).toMatch(/\d{4}-\d{2}-\d{2}/);
        expect(downloads(tight)).toEqual([]);
        await limited.close();
      });
      expect(await readFile(schema.path)).toEqual(damaged);
      expect((await checkStoredFiles(catalog)).filter((check) => !check.ok).length).toBe(2);
    });
  });
});

describe('pulling a present release whose stored file is missing', () => {
  it('fetches the file again by ID and re-imports (pullRelease and pullReleases); a whole one sends no request', async () => {
    await withPulled(async (mock, catalog, client, fresh) => {
      const ids = [...fresh.keys()];
      mock.requestLog.length = 0;
      expect((await pullReleases(catalog, client, ids)).pulled.map((result) => [result.status, result.repaired])).toEqual([
        ['present', undefined],
        ['present', undefined],
      ]);
      expect(mock.requestLog).toEqual([]);

      const { id, file, path } = await recorded(catalog, 'parquet');
      await rm(path, { force: true });
      const single = await pullRelease(catalog, client, id);
      expect(single.status).toBe('present');
      expect(single.repaired?.map((repair) => [repair.sha256, repair.outcome])).toEqual([[file.sha256, 'reimported']]);
      expect(await hashFile(path)).toEqual(file);
      expect(await rowsOf(catalog, id)).toEqual(fresh.get(id));

      // pullReleases: a file cut short (size differs: a stat sees it) is fetched again too
      await chmod(path, 0o644);
      await writeFile(path, 'cut');
      const batch = await pullReleases(catalog, client, ids);
      expect(batch.failed).toEqual([]);
      const repaired = batch.pulled.find((result) => result.id === id)!;
      expect(repaired.repaired?.map((repair: { problem: StoredFileCheck['problem'] }) => repair.problem)).toEqual(['size']);
      expect((await verifyStore(catalog)).bad).toEqual([]);
      for (const [other, hash] of fresh) expect(await rowsOf(catalog, other)).toEqual(hash);

      // a present release whose file cannot be fetched fails (exit 3) instead of answering "present"
      await rm(path, { force: true });
      mock.faults.add({ format: 'parquet', kind: 'corrupt' });
      const refused = await pullReleases(catalog, client, [id]);
      expect(refused.pulled).toEqual([]);
      expect(refused.failed.map((failure) => failure.error.constructor)).toEqual([ChecksumMismatchError]);
      await expect(pullRelease(catalog, client, id)).rejects.toBeInstanceOf(ChecksumMismatchError);
    });
  });

  it('on a read-only catalog, names rdw verify --repair instead of fetching (no request)', async () => {
    await withMockServer({ days: DAYS }, (mock) =>
      withTempHome(async (home) => {
        const client = mockClient(mock, home);
        const writer = await openCatalog(home);
        const [id] = (await client.releases({ limit: 1 })).map((release) => release.id);
        await pullRelease(writer, client, id!);
        const { path } = await recorded(writer, 'parquet');
        await writer.close();
        await rm(path, { force: true });
        const reader = await openCatalog(home, { readOnly: true });
        try {
          mock.requestLog.length = 0;
          const error = await pullRelease(reader, client, id!).catch((caught: unknown) => caught);
          expect(error).toBeInstanceOf(StoreMismatchError);
          expect((error as Error).message).toContain('is missing or cut short; run "rdw verify --repair"');
          expect(mock.requestLog).toEqual([]);
        } finally {
          await reader.close();
          await client.close();
        }
      }),
    );
  });
});
