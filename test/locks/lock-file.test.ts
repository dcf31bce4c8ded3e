// recordStudyLock / writeLock / readLock against a real catalog filled from an in-test mock over HTTP.

import { execFileSync } from 'node:child_process';
import { lstat, mkdir, readFile, readdir, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import {
  LOCK_VERSION,
  LockFormatError,
  LockVersionError,
  NotInCatalogError,
  readLock,
  recordStudyLock,
  StudyOptionError,
  studyLockToJson,
  writeLock,
  type StudyLock,
} from '../../src/locks/index.js';
import { environmentMessages, NotARegularFileError } from '../../src/contract/index.js';
import { mockClient } from '../support/with-catalog.js';
import { createTempHome } from '../support/temp-home.js';
import { latestIds, MOCK_OPTIONS, withPulled } from '../support/lock-fixture.js';

let mock: MockServer;
let ids: string[];

beforeAll(async () => {
  mock = await startMockServer({ port: 0, ...MOCK_OPTIONS });
  const temp = await createTempHome();
  const client = mockClient(mock, temp.home);
  ids = await latestIds(client, 3);
  await client.close();
  await temp.remove();
});
afterAll(() => mock.close());

async function inHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const temp = await createTempHome();
  try {
    return await fn(temp.home);
  } finally {
    await temp.remove();
  }
}

describe('recordStudyLock', () => {
  it('pins manifest, schema and data file checksums and calculation versions from the catalog', async () => {
    await inHome((home) =>
      withPulled(mock, home, ids, async (catalog) => {
        const lock = await recordStudyLock(catalog, [ids[0]!, ids[1]!, ids[2]!, ids[0]!]);
        expect(lock.lockVersion).toBe(LOCK_VERSION);
        expect(lock.dataset).toBe('market-events-v1');
        expect(lock.releases.map((release) => release.id).sort()).toEqual([...ids].sort());
        const days = lock.releases.map((release) => release.day);
        expect(days).toEqual([...days].sort());
        for (const release of lock.releases) {
          const [row] = await catalog.query('SELECT manifest_sha256, schema_sha256, version FROM releases WHERE id = $id', { id: release.id });
          expect(release.manifestSha256).toBe(row!.manifest_sha256);
          expect(release.schemaSha256).toBe(row!.schema_sha256 ?? null);
          expect(release.version).toBe(row!.version);
          const files = await catalog.query("SELECT format, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE release_id = $id AND format NOT IN ('manifest', 'schema')", { id: release.id });
          expect(files).toHaveLength(1);
          expect(release.files).toEqual({ [String(files[0]!.format)]: { sha256: files[0]!.sha256, bytes: files[0]!.bytes } });
          expect(Object.keys(release.files)).toEqual(['parquet']);
        }
        const versions = await catalog.query(`SELECT DISTINCT calculation_version AS v FROM market_events WHERE release_id IN (${ids.map((id) => `'${id}'`).join(',')}) ORDER BY 1`);
        expect(lock.calculationVersions).toEqual(versions.map((row) => row.v));
        expect(lock.calculationVersions.length).toBeGreaterThan(0);
      }),
    );
  });

  it('refuses an ID that is not imported (exit 6), a malformed ID and no IDs (exit 2)', async () => {
    await inHome((home) =>
      withPulled(mock, home, ids.slice(0, 1), async (catalog) => {
        const missing = await recordStudyLock(catalog, [ids[0]!, ids[1]!]).catch((error: unknown) => error);
        expect(missing).toBeInstanceOf(NotInCatalogError);
        expect(missing).toMatchObject({ code: 'RDW_NOT_IN_CATALOG', exitCode: 6, releaseId: ids[1] });
        await expect(recordStudyLock(catalog, ['abc'])).rejects.toMatchObject({ code: 'RDW_STUDY_OPTION', exitCode: 2 });
        await expect(recordStudyLock(catalog, [`${ids[0]!.slice(0, 63)}/`])).rejects.toBeInstanceOf(StudyOptionError);
        // An upper-cased ID is a well-formed ID, but another one: never folded onto the imported release.
        await expect(recordStudyLock(catalog, [ids[0]!.toUpperCase()])).rejects.toBeInstanceOf(NotInCatalogError);
        await expect(recordStudyLock(catalog, [])).rejects.toMatchObject({ code: 'RDW_STUDY_OPTION', exitCode: 2 });
      }),
    );
  });
});

describe('writeLock / readLock', () => {
  it('round-trips: the file is the canonical text, readLock returns the same lock', async () => {
    await inHome((home) =>
      withPulled(mock, home, ids, async (catalog) => {
        const lockPath = path.join(home, 'study.lock.json');
        const written = await writeLock(lockPath, catalog, ids);
        const text = await readFile(lockPath, 'utf8');
        expect(text).toBe(studyLockToJson(written));
        const read = await readLock(lockPath);
        expect(read).toEqual(written);
        expect(studyLockToJson(read)).toBe(text);
        // Rewriting is atomic and leaves no temp file beside the lock.
        await writeLock(lockPath, catalog, [...ids].reverse());
        expect(await readFile(lockPath, 'utf8')).toBe(text);
        expect((await readdir(home)).filter((name) => name.includes('lock'))).toEqual(['study.lock.json']);
      }),
    );
  });

  it('writes through a symbolic link to a file; refuses a FIFO, a device and a dangling link, leaving each as it was', async () => {
    await inHome((home) =>
      withPulled(mock, home, ids, async (catalog) => {
        const target = path.join(home, 'kept', 'study.lock.json');
        await mkdir(path.dirname(target));
        await writeFile(target, '{"lockVersion": 1, "releases": []}');
        const link = path.join(home, 'link.lock.json');
        await symlink(target, link);
        const written = await writeLock(link, catalog, ids);
        expect((await lstat(link)).isSymbolicLink()).toBe(true);
        expect(await readFile(target, 'utf8')).toBe(studyLockToJson(written));

        const fifo = path.join(home, 'fifo.lock.json');
        execFileSync('mkfifo', [fifo]);
        const dangling = path.join(home, 'dangling.lock.json');
        await symlink(path.join(home, 'nowhere'), dangling);
        for (const [file, kind] of [[fifo, 'a FIFO (named pipe)'], ['/dev/null', 'a device'], [dangling, 'a symbolic link to nothing']] as const) {
          const error = await writeLock(file, catalog, ids).then(() => 'written', (caught: unknown) => caught);
          expect(error).toBeInstanceOf(NotARegularFileError);
          expect((error as NotARegularFileError).message).toBe(environmentMessages.notARegularFile(file, kind));
        }
        expect((await lstat(fifo)).isFIFO()).toBe(true);
        expect((await lstat('/dev/null')).isCharacterDevice()).toBe(true);
        expect((await lstat(dangling)).isSymbolicLink()).toBe(true);
      }),
    );
  });

  it('replaces an earlier lock or an empty file, never another file: a usage error (exit 2) naming it, the file as it was', async () => {
    // A new user's trial (session 43): `rdw lock notes.md --latest 3` replaced the notes with a lock.
    await inHome((home) =>
      withPulled(mock, home, ids, async (catalog) => {
        const notes = path.join(home, 'notes.md');
        for (const text of ['my precious notes\n', '{"releases": []}', '[1, 2]', 'x'.repeat(100)]) {
          await writeFile(notes, text);
          const error = await writeLock(notes, catalog, ids).then(() => 'written', (caught: unknown) => caught);
          expect(error).toBeInstanceOf(StudyOptionError);
          expect(error).toMatchObject({ exitCode: 2, option: 'lock' });
          expect((error as Error).message).toBe(
            'notes.md exists and is not a study lock (no JSON "lockVersion"); a lock is written only over an earlier lock: name a new file, or move notes.md away first.',
          );
          expect(await readFile(notes, 'utf8')).toBe(text);
        }
        // An earlier lock (of any version, even damaged) and an empty file are replaced.
        for (const text of [studyLockToJson(await recordStudyLock(catalog, ids.slice(0, 1))), '{"lockVersion": 99}', '{"lockVersion": 1, "releases": 3}', '']) {
          await writeFile(notes, text);
          const written = await writeLock(notes, catalog, ids);
          expect(await readFile(notes, 'utf8')).toBe(studyLockToJson(written));
        }
      }),
    );
  });

  it('holds no key, no host and no machine path', async () => {
    await inHome((home) =>
      withPulled(mock, home, ids, async (catalog) => {
        const lockPath = path.join(home, 'study.lock.json');
        await writeLock(lockPath, catalog, ids);
        const text = await readFile(lockPath, 'utf8');
        for (const key of Object.values(mock.keys)) expect(text).not.toContain(key);
        expect(text).not.toMatch(/rdw_sk_/);
        expect(text).not.toMatch(/[/\\]/); // no path of any kind (and so no URL)
        expect(text).not.toMatch(/127\.0\.0\.1|localhost|http/i);
        expect(text).not.toContain(home);
        expect(text).not.toContain(os.tmpdir());
        expect(text).not.toContain(os.hostname());
      }),
    );
  });

  it('reads no FIFO, device or 64+ MiB file as a lock: a usage error (exit 2) saying what it is, at once', async () => {
    // An adversary's trial (session 42): rdw reproduce of a FIFO waited forever; of /dev/zero it read half a GiB of
    // zeros, then said "cannot be read (Invalid string length)".
    await inHome(async (home) => {
      const fifo = path.join(home, 'fifo.lock.json');
      execFileSync('mkfifo', [fifo]);
      const big = path.join(home, 'big.lock.json');
      await writeFile(big, '');
      await truncate(big, 65 * 2 ** 20);
      for (const [file, message] of [
        [fifo, 'The study lock fifo.lock.json is a FIFO (named pipe), not a file; give the path of the lock file (e.g. study.lock.json).'],
        ['/dev/zero', 'The study lock zero is a device, not a file; give the path of the lock file (e.g. study.lock.json).'],
        [big, 'The study lock big.lock.json is 65 MiB, more than any study lock (at most 64 MiB); check that the path names the lock file.'],
      ] as const) {
        const error = await readLock(file).catch((caught: unknown) => caught);
        expect(error, file).toBeInstanceOf(StudyOptionError);
        expect(error, file).toMatchObject({ exitCode: 2, option: 'lock' });
        expect((error as Error).message, file).toBe(message);
      }
    });
  }, 10_000);

  it('missing, malformed and newer locks are usage errors (exit 2) naming the file, not its folder', async () => {
    await inHome(async (home) => {
      const missing = await readLock(path.join(home, 'nope.json')).catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(StudyOptionError);
      expect(missing).toMatchObject({ exitCode: 2 });
      expect((missing as Error).message).toContain('nope.json');
      expect((missing as Error).message).not.toContain(home);

      // A folder given as the lock (a new user's `rdw study event --lock /tmp`): the code and what to do.
      const folder = path.join(home, 'locks');
      await mkdir(folder);
      const notAFile = await readLock(folder).catch((error: unknown) => error);
      expect(notAFile).toBeInstanceOf(StudyOptionError);
      expect((notAFile as Error).message).toBe(
        'The study lock locks cannot be read (EISDIR); it is a folder: give the path of the lock file in it, e.g. study.lock.json.',
      );

      const broken = path.join(home, 'broken.json');
      await writeFile(broken, '{"lockVersion":1,');
      await expect(readLock(broken)).rejects.toBeInstanceOf(LockFormatError);

      const valid: StudyLock = {
        lockVersion: 1,
        rdwVersion: '0.1.0',
        dataset: 'market-events-v1',
        releases: [{ id: 'a'.repeat(64), day: '2026-10-01', version: '1.0.0', manifestSha256: 'b'.repeat(64), schemaSha256: null, files: { parquet: { sha256: 'c'.repeat(64), bytes: 10 } } }],
        calculationVersions: [],
      };
      const newer = path.join(home, 'newer.json');
      await writeFile(newer, studyLockToJson(valid).replace('"lockVersion": 1', '"lockVersion": 2'));
      const error = await readLock(newer).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LockVersionError);
      expect(error).toMatchObject({ code: 'RDW_LOCK_VERSION', exitCode: 2, lockVersion: 2 });
      expect((error as Error).message).toContain('lockVersion 2');
    });
  });
});
