// openWorkbench / connectApi / Study against real catalogs: the embedded mock, an in-test mock over
// HTTP via RDW_BASE_URL + RDW_API_KEY, a lock reproduced in a second home with identical numbers, and a Study's
// computations refusing locked rows another process changed after Study.open.

import { execFile } from 'node:child_process';
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy, missingnessSummary, studyCatalog } from '../../src/analysis/index.js';
import { checkReleaseRows, openCatalog, pullReleases, type Catalog } from '../../src/catalog/index.js';
import { catalogSources, rowsFingerprintSql } from '../../src/catalog/rows-fingerprint.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { modelCatalog } from '../../src/modelling/index.js';
import { LockMismatchError, studyLockToJson, writeLock, writeLockFile } from '../../src/locks/index.js';
import { ApiKeyMissingError, connectApi, openWorkbench, resolveHome, Study, WorkbenchOptionError } from '../../src/workbench/index.js';
import { behindRdwsBack } from '../support/behind-rdws-back.js';
import { createTempHome, withTempHome } from '../support/temp-home.js';
import { flipByte } from '../support/lock-fixture.js';

let mock: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 12 });
  env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
});
afterAll(() => mock.close());

const STUDY = { windows: ['1h', '4h'], bootstrap: { samples: 200, seed: 7 } } as const;

describe('openWorkbench', () => {
  it('serves the embedded mock by default, with its options, and closes idempotently', async () => {
    await withTempHome(async (home) => {
      const workbench = await openWorkbench({ home, mock: { days: 3, seed: 5 } });
      try {
        expect(workbench.embedded).toBe(true);
        expect(workbench.home).toBe(path.resolve(home));
        expect(workbench.catalog.home).toBe(path.resolve(home));
        const listed = await workbench.client.releases({ limit: 10 });
        expect(listed).toHaveLength(3);
      } finally {
        await workbench.close();
        await workbench.close();
      }
      // closed for real: the catalog can be opened again in this process
      const again = await openCatalog(home);
      await again.close();
    });
  });

  it('uses RDW_BASE_URL with RDW_API_KEY, and refuses a base URL without a key (exit 4) leaving nothing open', async () => {
    await withTempHome(async (home) => {
      const workbench = await openWorkbench({ env: { ...env, RDW_HOME: home } });
      try {
        expect(workbench.embedded).toBe(false);
        expect(workbench.mock).toBeUndefined();
        expect(workbench.home).toBe(path.resolve(home));
        const listed = await workbench.client.releases({ limit: 2 });
        expect(listed).toHaveLength(2);
        expect(mock.requestLog.some((entry) => entry.path.includes('/releases') && entry.auth && entry.status === 200)).toBe(true);
      } finally {
        await workbench.close();
      }
      const error = await openWorkbench({ env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: '' }, home }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiKeyMissingError);
      expect(error).toMatchObject({ code: 'RDW_API_KEY_MISSING', exitCode: 4 });
      const again = await openCatalog(home);
      await again.close();
    });
  });

  it('resolves the home: option, then RDW_HOME, then ./datasets against the working directory', () => {
    expect(resolveHome({ flag: 'a', env: { RDW_HOME: 'b' }, cwd: '/w' })).toBe(path.resolve('/w/a'));
    expect(resolveHome({ env: { RDW_HOME: 'b' }, cwd: '/w' })).toBe(path.resolve('/w/b'));
    expect(resolveHome({ cwd: '/w' })).toBe(path.resolve('/w/datasets'));
    // An empty RDW_HOME (an unset shell variable) is refused, as on the command line (test/cli/home-resolution.test.ts).
    expect(() => resolveHome({ env: { RDW_HOME: '' }, cwd: '/w' })).toThrow(WorkbenchOptionError);
  });

  it('openWorkbench refuses an empty home or RDW_HOME (exit 2) before opening anything', async () => {
    for (const options of [{ home: '' }, { env: { RDW_HOME: ' ' } }]) {
      const error = await openWorkbench(options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WorkbenchOptionError);
      expect(error).toMatchObject({ code: 'RDW_WORKBENCH_OPTION', exitCode: 2, option: 'home' });
    }
  });

  it('connectApi announces the embedded mock and never passes the key to the callback', async () => {
    await withTempHome(async (home) => {
      const seen: string[] = [];
      const api = await connectApi({ env: {}, home, mock: { days: 2 }, onEmbedded: (url) => seen.push(url) });
      try {
        expect(api.embedded).toBe(true);
        expect(seen).toEqual([api.mock!.baseUrl]);
        expect(seen.join('')).not.toContain('rdw_sk_');
      } finally {
        await api.close();
        await api.close();
      }
    });
  });
});

describe('snapshot history', () => {
  it('fetches through the client and records in the catalog; a cached re-fetch records nothing; reads back oldest first', async () => {
    await withTempHome(async (home) => {
      const workbench = await openWorkbench({ env: { ...env, RDW_HOME: home } });
      try {
        const first = await workbench.fetchSnapshot('market-breadth');
        expect(first.recorded).toBe(true);
        expect(first.snapshot.key).toBe('market-breadth');
        // Within refresh_seconds the client serves its cached snapshot: same generated_at, nothing new.
        const again = await workbench.fetchSnapshot('market-breadth');
        expect(again.snapshot.generated_at).toBe(first.snapshot.generated_at);
        expect(again.recorded).toBe(false);
        expect(await workbench.recordSnapshot(again.snapshot)).toBe(false);
        const history = await workbench.snapshotHistory('market-breadth');
        expect(history.map((entry) => entry.generated_at)).toEqual([first.snapshot.generated_at]);
        expect(history[0]!.snapshot).toEqual(first.snapshot);
        expect(await workbench.snapshotHistory('funding-pressure')).toEqual([]);
      } finally {
        await workbench.close();
      }
    });
  });
});

describe('Study', () => {
  it('reproduces a lock in a second home and gives the same event-study numbers', async () => {
    const first = await createTempHome();
    const second = await createTempHome();
    try {
      const lockPath = path.join(first.home, 'study.lock.json');
      const source = await openWorkbench({ env, home: first.home });
      let expected;
      try {
        const ids = (await source.client.releases({ limit: 3 })).map((release) => release.id);
        const pulled = await pullReleases(source.catalog, source.client, ids);
        expect(pulled.failed).toEqual([]);
        await writeLock(lockPath, source.catalog, ids);
        expected = await eventStudy({ connection: source.catalog.connection }, { ...STUDY, releases: ids });
      } finally {
        await source.close();
      }

      const study = await Study.open(lockPath, { env, home: second.home });
      try {
        expect(study.report.pulled).toBe(3);
        expect(study.lockPath).toBe(path.resolve(lockPath));
        expect(study.releaseIds).toEqual(study.lock.releases.map((release) => release.id));
        expect(studyLockToJson(study.lock)).toBe(await readFile(lockPath, 'utf8'));
        const result = await study.eventStudy(STUDY);
        expect(result.rows.length).toBeGreaterThan(0);
        expect(result.rows).toEqual(expected.rows);
        expect(result.coverage).toEqual(expected.coverage);
        await expect(study.eventStudy({ ...STUDY, releases: [] } as never)).rejects.toBeInstanceOf(WorkbenchOptionError);
      } finally {
        await study.close();
      }

      // A study on a given workbench leaves it open; a tampered store fails Study.open with exit 3.
      const workbench = await openWorkbench({ env, home: second.home });
      try {
        const reopened = await Study.open(lockPath, { workbench });
        expect(reopened.report.pulled).toBe(0);
        await reopened.close();
        expect((await workbench.catalog.query('SELECT count(*)::INTEGER AS n FROM releases'))[0]!.n).toBe(3);
        const parquet = reopened.lock.releases[2]!.files.parquet!.sha256;
        await flipByte(workbench.catalog.store.pathOf(parquet), 64);
        const error = await Study.open(lockPath, { workbench }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(LockMismatchError);
        expect(error).toMatchObject({ exitCode: 3, file: 'parquet', releaseId: reopened.lock.releases[2]!.id });
      } finally {
        await workbench.close();
      }
    } finally {
      await first.remove();
      await second.remove();
    }
  });
});

/** Runs `statements` on `<home>/catalog.duckdb` from a second node process with a DuckDB instance of its own. */
async function writeFromAnotherProcess(home: string, ...statements: string[]): Promise<void> {
  const code = `import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(process.env.WRITE_FILE);
const connection = await instance.connect();
for (const statement of JSON.parse(process.env.WRITE_STATEMENTS)) await connection.run(statement);
connection.closeSync();
instance.closeSync();`;
  await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, WRITE_FILE: path.join(home, 'catalog.duckdb'), WRITE_STATEMENTS: JSON.stringify(statements) },
  });
}

/** Resolves once the workbench's catalog has let its DuckDB file go ('while-busy': 250 ms after the last operation). */
async function fileLetGo(catalog: Catalog): Promise<void> {
  for (const started = Date.now(); catalog.fileOpen; ) {
    if (Date.now() - started > 10_000) throw new Error('the catalog kept its file open');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a Study's computations re-check the locked rows in their own hold", () => {
  // Two homes of the same 5 pulled releases and their lock, one for each test's change.
  let temp: Awaited<ReturnType<typeof createTempHome>>;
  let copy: Awaited<ReturnType<typeof createTempHome>>;
  let ids: string[];
  let lockPath: string;
  beforeAll(async () => {
    temp = await createTempHome();
    copy = await createTempHome();
    lockPath = path.join(temp.home, 'study.lock.json');
    const workbench = await openWorkbench({ env, home: temp.home });
    try {
      ids = (await workbench.client.releases({ limit: 5 })).map((release) => release.id);
      expect((await pullReleases(workbench.catalog, workbench.client, ids)).failed).toEqual([]);
      await writeLock(lockPath, workbench.catalog, ids);
    } finally {
      await workbench.close();
    }
    await cp(temp.home, copy.home, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await temp.remove();
    await copy.remove();
  });

  it('gives the library functions\' numbers; after another process changed a locked row, each throws LockMismatchError (rows) naming the release', async () => {
    const study = await Study.open(lockPath, { env, home: temp.home });
    try {
      const { catalog } = study.workbench;
      const releases = study.releaseIds;
      // 1. Unchanged rows: the same numbers as the library functions over exactly the locked IDs.
      expect(await study.eventStudy(STUDY)).toEqual(await studyCatalog(catalog, { ...STUDY, releases }));
      expect(await study.missingnessSummary({ windows: ['1h', '4h'] })).toEqual(
        await catalog.exclusive((connection) => missingnessSummary({ connection }, { releases, windows: ['1h', '4h'] })),
      );
      const model = await study.modelStudy();
      expect(model.evaluation.pooled).toEqual((await modelCatalog(catalog, { releases })).evaluation.pooled);
      await expect(study.missingnessSummary({ releases: [] } as never)).rejects.toBeInstanceOf(WorkbenchOptionError);
      await expect(study.modelStudy({ releases: [] } as never)).rejects.toBeInstanceOf(WorkbenchOptionError);

      // 2. The check and the computation share one hold: one opening of the file once the workbench let it go.
      await fileLetGo(catalog);
      const opens = catalog.fileOpens;
      await study.eventStudy(STUDY);
      expect(catalog.fileOpens).toBe(opens + 1);

      // 3. Another process writes to the file the workbench let go: one outcome of one locked release.
      await fileLetGo(catalog);
      const changed = releases[2]!;
      await writeFromAnotherProcess(temp.home, `UPDATE market_events SET return_pct_1h = return_pct_1h + 5 WHERE release_id = '${changed}'`);
      for (const compute of [() => study.eventStudy(STUDY), () => study.missingnessSummary(), () => study.modelStudy()]) {
        const error = await compute().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(LockMismatchError);
        expect(error).toMatchObject({ code: 'RDW_LOCK_MISMATCH', exitCode: 3, file: 'rows', releaseId: changed });
      }
    } finally {
      await study.close();
    }
  }, 120_000);

  it('holds a lock without rowsFingerprint to the fingerprints verified at open, even when the writer also rewrote the recorded one', async () => {
    // A lock written before rdw recorded fingerprints: its rows are held to those verified by Study.open.
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { releases: Record<string, unknown>[] };
    for (const release of lock.releases) delete release.rowsFingerprint;
    const oldLockPath = path.join(copy.home, 'old.lock.json');
    await writeLockFile(oldLockPath, lock as never);
    expect(await readFile(oldLockPath, 'utf8')).not.toContain('rowsFingerprint');

    const study = await Study.open(oldLockPath, { env, home: copy.home });
    try {
      await study.eventStudy(STUDY);
      // A price changed and releases.rows_fingerprint set to the changed rows' fingerprint, so the catalog agrees with itself.
      const changed = study.lock.releases[0]!;
      await fileLetGo(study.workbench.catalog);
      const wanted = `SELECT id FROM releases WHERE id = '${changed.id}'`;
      await behindRdwsBack(
        copy.home,
        `UPDATE market_events SET price = price * 1.5 WHERE release_id = '${changed.id}'`,
        `UPDATE releases SET rows_fingerprint = f.fingerprint FROM (${rowsFingerprintSql(wanted, catalogSources([changed]))}) f WHERE releases.id = f.release_id`,
      );
      expect((await checkReleaseRows(study.workbench.catalog, { releaseIds: [changed.id] }))[0]).toMatchObject({ ok: true });
      const error = await study.eventStudy(STUDY).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(LockMismatchError);
      expect(error).toMatchObject({ exitCode: 3, file: 'rows', releaseId: changed.id });
    } finally {
      await study.close();
    }
  }, 120_000);
});
