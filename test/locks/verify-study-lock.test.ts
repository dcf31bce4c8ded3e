// verifyStudyLock is the one lock check of every entry point that takes a lock: `rdw study event --lock`,
// `rdw reproduce`, `Study.open` (notebooks and scripts open locks through it) and the library itself.
// Every forgery x every entry point is exit 3 naming release and file, with nothing computed or written.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy } from '../../src/analysis/index.js';
import { hashFile } from '../../src/base/index.js';
import { ContentStore, openCatalog } from '../../src/catalog/index.js';
import { importRelease } from '../../src/catalog/import-release.js';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import type { Release } from '../../src/contract/index.js';
import {
  LockMismatchError,
  readLock,
  studyLockToJson,
  verifyStudyLock,
  writeLock,
  type LockedPart,
  type LockedRelease,
  type StudyLock,
} from '../../src/locks/index.js';
import { Study } from '../../src/workbench/index.js';
import { mockClient } from '../support/with-catalog.js';
import { createTempHome } from '../support/temp-home.js';
import { editedLock, latestIds, MOCK_OPTIONS, otherSha, withPulled } from '../support/lock-fixture.js';

/** What `rdw study event` computes by default (window 1h, by event_kind,direction, block jackknife; 'day' is its old name). */
const CLI_STUDY = { windows: ['1h'], by: ['event_kind', 'direction'], bootstrap: { method: 'day' } } as const;

interface Forgery {
  home: string;
  lockPath: string;
  /** The error every entry point must raise. */
  file: LockedPart;
  /** The store path named when a stored file is at fault. */
  storePath?: string;
}

let mock: MockServer;
let env: Record<string, string>;
let genuineHome: string;
let lockPath: string;
let lock: StudyLock;
let target: LockedRelease;
const homes: { remove(): Promise<void> }[] = [];
const forgeries = new Map<string, Forgery>();

async function newHome(): Promise<string> {
  const temp = await createTempHome('rdw-verify-lock-');
  homes.push(temp);
  return temp.home;
}

const stored = (home: string, sha256: string) => path.join(home, ...ContentStore.relativePath(sha256).split('/'));

/** A copy of the genuine home (catalog file and store) to tamper with. */
async function copyOfGenuine(): Promise<string> {
  const home = await newHome();
  await cp(genuineHome, home, { recursive: true });
  return home;
}

/**
 * A home whose catalog and store agree with each other but not with the lock: `target` imported through the
 * real import step from a forged manifest (its own checksums recomputed) and a parquet with prices x 1.5,
 * as a service (or a person with write access) forging consistently would leave it. The other release is genuine.
 */
async function consistentlyForgedHome(): Promise<string> {
  const home = await newHome();
  const others = lock.releases.filter((release) => release.id !== target.id).map((release) => release.id);
  await withPulled(mock, home, others, async (catalog) => {
    const manifest = JSON.parse(await readFile(stored(genuineHome, target.manifestSha256), 'utf8')) as Release;
    const forgedParquet = catalog.store.tempPath('forged.parquet');
    const genuineParquet = stored(genuineHome, target.files.parquet!.sha256);
    await catalog.query(`COPY (SELECT * REPLACE (price * 1.5 AS price) FROM read_parquet('${genuineParquet}')) TO '${forgedParquet}' (FORMAT parquet)`);
    const data = await hashFile(forgedParquet);
    const forged: Release = { ...manifest, files: { ...manifest.files, parquet: { ...manifest.files.parquet, ...data } } };
    const manifestBytes = Buffer.from(JSON.stringify(forged));
    const manifestSha256 = createHash('sha256').update(manifestBytes).digest('hex');
    await catalog.store.putBytes(manifestBytes, { sha256: manifestSha256, bytes: manifestBytes.length }, 'forged-manifest.json');
    let schema;
    if (target.schemaSha256 !== null) {
      const bytes = await readFile(stored(genuineHome, target.schemaSha256));
      schema = { sha256: target.schemaSha256, bytes: bytes.length };
      await catalog.store.putBytes(bytes, schema, 'schema.json');
    }
    const dataPath = await catalog.store.put(forgedParquet, data);
    expect(await importRelease(catalog, { release: forged, manifestSha256, manifestBytes: manifestBytes.length, schema, format: 'parquet', data, dataPath })).toBe(true);
    // The forgery is real: the catalog holds the target's rows with prices x 1.5.
    const [prices] = await catalog.query('SELECT sum(price)::DOUBLE AS p FROM market_events WHERE release_id = $id', { id: target.id });
    const [genuine] = await catalog.query(`SELECT sum(price)::DOUBLE AS p FROM read_parquet('${genuineParquet}')`);
    expect(Number(prices!.p)).toBeCloseTo(Number(genuine!.p) * 1.5, 3);
  });
  return home;
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, ...MOCK_OPTIONS });
  env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
  genuineHome = await newHome();
  const client = mockClient(mock, genuineHome);
  const ids = await latestIds(client, 2);
  await client.close();
  lockPath = path.join(genuineHome, 'study.lock.json');
  lock = await withPulled(mock, genuineHome, ids, (catalog) => writeLock(lockPath, catalog, ids));
  target = lock.releases[1]!;
  const parquet = target.files.parquet!;
  const parquetStorePath = ContentStore.relativePath(parquet.sha256);

  const writeEdited = async (name: string, edit: (copy: StudyLock) => void) => {
    const file = path.join(genuineHome, name);
    await writeFile(file, studyLockToJson(editedLock(lock, edit)));
    return file;
  };
  forgeries.set("the lock's manifestSha256 edited", {
    home: genuineHome,
    lockPath: await writeEdited('manifest-edited.lock.json', (copy) => void (copy.releases[1]!.manifestSha256 = otherSha(target.manifestSha256))),
    file: 'manifest',
  });
  forgeries.set("the lock's parquet sha256 edited", {
    home: genuineHome,
    lockPath: await writeEdited('parquet-edited.lock.json', (copy) => void (copy.releases[1]!.files.parquet = { ...parquet, sha256: otherSha(parquet.sha256) })),
    file: 'parquet',
  });
  forgeries.set('a consistently forged manifest and parquet (prices x 1.5) in catalog and store', {
    home: await consistentlyForgedHome(),
    lockPath,
    file: 'manifest',
  });

  const overwritten = await copyOfGenuine();
  const forgedBytes = Buffer.from(await readFile(stored(genuineHome, parquet.sha256)));
  forgedBytes[forgedBytes.length >> 1] ^= 0xff;
  await chmod(stored(overwritten, parquet.sha256), 0o644);
  await writeFile(stored(overwritten, parquet.sha256), forgedBytes);
  forgeries.set('the stored parquet bytes replaced under the recorded digest', { home: overwritten, lockPath, file: 'parquet', storePath: parquetStorePath });

  const deleted = await copyOfGenuine();
  await rm(stored(deleted, parquet.sha256));
  forgeries.set('the stored parquet file deleted', { home: deleted, lockPath, file: 'parquet', storePath: parquetStorePath });
}, 120_000);

afterAll(async () => {
  for (const home of homes) await home.remove();
  await mock?.close();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `rdw <argv> --home <home>` in-process (the real runner and commands), cwd = home, with the mock's URL and key. */
async function rdw(home: string, argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env,
    cwd: home,
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
  });
  return { code, stdout, stderr };
}

/** The one sentence of a refused run: exit 3, nothing on stdout, one stderr line naming release and file. */
function expectRefused(run: Run, forgery: Forgery): void {
  expect(run.code).toBe(3);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(target.id);
  expect(lines[0]).toContain(forgery.file);
  if (forgery.storePath !== undefined) expect(lines[0]).toContain(forgery.storePath);
  expect(lines[0]).not.toContain(forgery.home);
}

function expectMismatch(error: unknown, forgery: Forgery): void {
  expect(error).toBeInstanceOf(LockMismatchError);
  expect(error).toMatchObject({ code: 'RDW_LOCK_MISMATCH', exitCode: 3, releaseId: target.id, file: forgery.file, storePath: forgery.storePath });
  expect((error as Error).message).toContain(target.id);
  expect((error as Error).message).toContain(forgery.file);
}

const FORGERIES = [
  "the lock's manifestSha256 edited",
  "the lock's parquet sha256 edited",
  'a consistently forged manifest and parquet (prices x 1.5) in catalog and store',
  'the stored parquet bytes replaced under the recorded digest',
  'the stored parquet file deleted',
];

describe('one verification path for study locks', () => {
  it.each(FORGERIES)('rdw study event --lock: %s is exit 3 naming release and file, no numbers, no report', async (name) => {
    const forgery = forgeries.get(name)!;
    const out = path.join(forgery.home, `report-${FORGERIES.indexOf(name)}`);
    const run = await rdw(forgery.home, ['study', 'event', '--lock', forgery.lockPath, '--out', out]);
    expectRefused(run, forgery);
    expect(existsSync(out)).toBe(false);
    const json = await rdw(forgery.home, ['study', 'event', '--lock', forgery.lockPath, '--json']);
    expectRefused(json, forgery);
  });

  it.each(FORGERIES)('rdw reproduce: %s is exit 3 naming release and file', async (name) => {
    const forgery = forgeries.get(name)!;
    expectRefused(await rdw(forgery.home, ['reproduce', forgery.lockPath]), forgery);
  });

  it.each(FORGERIES)('Study.open (notebooks, scripts): %s is a LockMismatchError naming release and file', async (name) => {
    const forgery = forgeries.get(name)!;
    const error = await Study.open(forgery.lockPath, { env, home: forgery.home }).then(
      async (study) => {
        await study.close();
        return undefined;
      },
      (caught: unknown) => caught,
    );
    expectMismatch(error, forgery);
  });

  it.each(FORGERIES)('verifyStudyLock (the library): %s is a LockMismatchError naming release and file', async (name) => {
    const forgery = forgeries.get(name)!;
    const forged = await readLock(forgery.lockPath);
    const catalog = await openCatalog(forgery.home, { readOnly: true });
    try {
      expectMismatch(await verifyStudyLock(catalog, forged).catch((caught: unknown) => caught), forgery);
    } finally {
      await catalog.close();
    }
  });

  it('the untouched lock runs everywhere with exit 0 and the same numbers as a study of exactly its IDs', async () => {
    const ids = lock.releases.map((release) => release.id);
    const catalog = await openCatalog(genuineHome, { readOnly: true });
    let expected;
    let verification;
    try {
      verification = await verifyStudyLock(catalog, lock);
      expected = await eventStudy({ connection: catalog.connection }, { ...CLI_STUDY, releases: ids });
    } finally {
      await catalog.close();
    }
    expect(verification.releases.map((release) => release.id)).toEqual(ids);
    const expectedFiles = lock.releases.reduce((sum, release) => sum + 2 + (release.schemaSha256 === null ? 0 : 1), 0);
    expect(verification.filesChecked).toBe(expectedFiles);

    const out = path.join(genuineHome, 'report-genuine');
    const run = await rdw(genuineHome, ['study', 'event', '--lock', 'study.lock.json', '--json', '--out', out]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(expected.rows)));
    const report = JSON.parse(await readFile(path.join(out, 'event-study.json'), 'utf8'));
    expect([...report.metadata.releaseIds].sort()).toEqual([...ids].sort());

    const reproduce = await rdw(genuineHome, ['reproduce', 'study.lock.json']);
    expect(reproduce.code).toBe(0);
    expect(reproduce.stdout).toContain(`${expectedFiles} stored files`);

    const study = await Study.open(lockPath, { env, home: genuineHome });
    try {
      expect(study.report.pulled).toBe(0);
      expect((await study.eventStudy(CLI_STUDY)).rows).toEqual(expected.rows);
    } finally {
      await study.close();
    }
  });
});
