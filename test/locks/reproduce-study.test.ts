// reproduceStudy against real catalogs and an in-test mock over HTTP: pulls by exact ID, then proves
// every pinned byte; any difference is a LockMismatchError (exit 3) naming the release and the file.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentStore, openCatalog } from '../../src/catalog/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import {
  LockMismatchError,
  NotInCatalogError,
  recordStudyLock,
  reproduceStudy,
  UnknownLockedReleaseError,
  verifyStudyLock,
  type StudyLock,
} from '../../src/locks/index.js';
import { mockClient } from '../support/with-catalog.js';
import { studyMessages } from '../../src/locks/messages.js';
import { createTempHome } from '../support/temp-home.js';
import { editedLock, flipByte, latestIds, MOCK_OPTIONS, otherSha, withPulled } from '../support/lock-fixture.js';

let mock: MockServer;
let lock: StudyLock;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, ...MOCK_OPTIONS });
  const temp = await createTempHome();
  try {
    const client = mockClient(mock, temp.home);
    const ids = await latestIds(client, 2);
    await client.close();
    lock = await withPulled(mock, temp.home, ids, (catalog) => recordStudyLock(catalog, ids));
  } finally {
    await temp.remove();
  }
});
afterAll(() => mock.close());

/** Runs `fn` with a catalog and client in a fresh home; closes and removes everything. */
async function inFreshHome<T>(fn: (catalog: Awaited<ReturnType<typeof openCatalog>>, client: ReturnType<typeof mockClient>, home: string) => Promise<T>): Promise<T> {
  const temp = await createTempHome();
  const catalog = await openCatalog(temp.home);
  const client = mockClient(mock, temp.home);
  try {
    return await fn(catalog, client, temp.home);
  } finally {
    await client.close();
    await catalog.close();
    await temp.remove();
  }
}

const mismatch = async (promise: Promise<unknown>): Promise<LockMismatchError> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LockMismatchError);
  expect(error).toMatchObject({ code: 'RDW_LOCK_MISMATCH', exitCode: 3 });
  return error as LockMismatchError;
};

describe('reproduceStudy', () => {
  it('pulls every locked release by ID into an empty home, verifies it, and is a no-op the second time', async () => {
    await inFreshHome(async (catalog, client) => {
      const events: string[] = [];
      const report = await reproduceStudy(lock, catalog, client, { onProgress: (event) => event.kind !== 'bytes' && events.push(`${event.kind}:${event.status}`) });
      expect(report.pulled).toBe(2);
      expect(report.releases.map((release) => [release.id, release.status])).toEqual(lock.releases.map((release) => [release.id, 'pulled']));
      // manifest + schema (when bundled) + parquet per release, every byte re-hashed
      const expectedFiles = lock.releases.reduce((sum, release) => sum + 2 + (release.schemaSha256 === null ? 0 : 1), 0);
      expect(report.filesChecked).toBe(expectedFiles);
      expect(report.bytesChecked).toBeGreaterThan(lock.releases.reduce((sum, release) => sum + release.files.parquet!.bytes, 0));
      // every missing release is pulled first, then the one verification path checks them all (verifyStudyLock)
      expect(events).toEqual(['release:imported', 'release:imported', 'verified:pulled', 'verified:pulled']);
      expect(await recordStudyLock(catalog, lock.releases.map((release) => release.id))).toEqual(lock);

      const requests = mock.requestLog.length;
      const again = await reproduceStudy(lock, catalog, undefined);
      expect(again.pulled).toBe(0);
      expect(again.releases.every((release) => release.status === 'present')).toBe(true);
      expect(mock.requestLog.length).toBe(requests);
    });
  });

  it('an unknown release ID is exit 6 (with a client: unknown to the service; without: not in the catalog)', async () => {
    await inFreshHome(async (catalog, client) => {
      const unknown = editedLock(lock, (copy) => void (copy.releases[0]!.id = 'e'.repeat(64)));
      const error = await reproduceStudy(unknown, catalog, client).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UnknownLockedReleaseError);
      expect(error).toMatchObject({ code: 'RDW_LOCKED_RELEASE_UNKNOWN', exitCode: 6, releaseId: 'e'.repeat(64) });
      const offline = await reproduceStudy(lock, catalog, undefined).catch((caught: unknown) => caught);
      expect(offline).toBeInstanceOf(NotInCatalogError);
      expect(offline).toMatchObject({ exitCode: 6, releaseId: lock.releases[0]!.id });
      // The check alone (rdw study --lock) names how many are missing at once, and the command that pulls them.
      const ids = lock.releases.map((release) => release.id);
      const none = await verifyStudyLock(catalog, lock).catch((caught: unknown) => caught);
      expect(none).toMatchObject({ code: 'RDW_NOT_IN_CATALOG', exitCode: 6, releaseId: ids[0] });
      expect((none as Error).message).toBe(studyMessages.lockedNotInCatalog(ids, ids.length));
      expect((none as Error).message).toMatch(ids.length === 1 ? /^Release \S+ of the lock is not in the local catalog; run "rdw reproduce <the lock file>"/ : new RegExp(`^${ids.length} of the lock's ${ids.length} releases are not in the local catalog \\(the first: ${ids[0]}\\); run "rdw reproduce <the lock file>" to pull them by ID`));
    });
  });

  it('a lock whose manifest SHA-256 differs fails before importing anything', async () => {
    await inFreshHome(async (catalog, client) => {
      const target = lock.releases[1]!;
      const bad = editedLock(lock, (copy) => void (copy.releases[1]!.manifestSha256 = otherSha(target.manifestSha256)));
      const error = await mismatch(reproduceStudy(bad, catalog, client));
      expect(error).toMatchObject({ releaseId: target.id, file: 'manifest' });
      expect(error.message).toContain(target.id);
      const imported = await catalog.query('SELECT id FROM releases');
      expect(imported.map((row) => row.id)).toEqual([lock.releases[0]!.id]);
    });
  });

  it('differences against an imported release: manifest, schema, parquet checksum and size, calculation versions', async () => {
    await inFreshHome(async (catalog, client) => {
      await reproduceStudy(lock, catalog, client);
      const target = lock.releases[0]!;
      const parquet = target.files.parquet!;
      const cases: [StudyLock, string][] = [
        [editedLock(lock, (copy) => void (copy.releases[0]!.manifestSha256 = otherSha(target.manifestSha256))), 'manifest'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.schemaSha256 = target.schemaSha256 === null ? 'f'.repeat(64) : otherSha(target.schemaSha256))), 'schema'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.schemaSha256 = null)), 'schema'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.files.parquet = { sha256: otherSha(parquet.sha256), bytes: parquet.bytes })), 'parquet'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.files.parquet = { sha256: parquet.sha256, bytes: parquet.bytes + 1 })), 'parquet'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.files.csv = { sha256: parquet.sha256, bytes: parquet.bytes })), 'csv'],
        [editedLock(lock, (copy) => void (copy.releases[0]!.version = '9.9.9')), 'release'],
      ];
      for (const [bad, file] of cases) {
        if (file === 'schema' && bad.releases[0]!.schemaSha256 === null && target.schemaSha256 === null) continue;
        const error = await mismatch(reproduceStudy(bad, catalog, undefined));
        expect([error.releaseId, error.file]).toEqual([target.id, file]);
      }
      const versions = editedLock(lock, (copy) => void (copy.calculationVersions = ['0.0.0-other']));
      expect(await mismatch(reproduceStudy(versions, catalog, undefined))).toMatchObject({ file: 'rows' });
      // The unedited lock still reproduces: the checks changed nothing.
      expect((await reproduceStudy(lock, catalog, undefined)).pulled).toBe(0);
    });
  });

  it('a tampered stored parquet or manifest file is exit 3 naming the release, the file and its store path', async () => {
    await inFreshHome(async (catalog, client, home) => {
      await reproduceStudy(lock, catalog, client);
      const target = lock.releases[1]!;
      const parquetPath = catalog.store.pathOf(target.files.parquet!.sha256);
      const before = await readFile(parquetPath);
      await flipByte(parquetPath, 200);
      expect((await readFile(parquetPath)).equals(before)).toBe(false);
      const error = await mismatch(reproduceStudy(lock, catalog, client));
      expect(error).toMatchObject({ releaseId: target.id, file: 'parquet', storePath: ContentStore.relativePath(target.files.parquet!.sha256) });
      expect(error.message).toContain(target.id);
      expect(error.message).toContain(ContentStore.relativePath(target.files.parquet!.sha256));
      expect(error.message).not.toContain(home);

      await flipByte(parquetPath, 200); // restored
      const manifestPath = catalog.store.pathOf(target.manifestSha256);
      await flipByte(manifestPath, 5);
      expect(await mismatch(reproduceStudy(lock, catalog, undefined))).toMatchObject({ releaseId: target.id, file: 'manifest' });
      await flipByte(manifestPath, 5);
      expect((await reproduceStudy(lock, catalog, undefined)).filesChecked).toBeGreaterThan(0);
    });
  });

  it('a missing stored file is exit 3 naming it', async () => {
    await inFreshHome(async (catalog, client) => {
      await reproduceStudy(lock, catalog, client);
      const target = lock.releases[0]!;
      const { rm } = await import('node:fs/promises');
      await rm(catalog.store.pathOf(target.files.parquet!.sha256), { force: true });
      const error = await mismatch(reproduceStudy(lock, catalog, client));
      expect(error).toMatchObject({ releaseId: target.id, file: 'parquet' });
      expect(path.basename(error.storePath ?? '')).toBe(target.files.parquet!.sha256);
    });
  });
});
