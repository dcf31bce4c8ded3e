// Rows of different calculation_version are not pooled in one event study unless the user opts in (issue 14):
// releases pulled from an in-test mock, one release's rows re-labelled with another version by an UPDATE.

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MixedCalculationVersionsError, analysisMessages, eventStudy } from '../../src/analysis/index.js';
import { openCatalog, pullReleases } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { UsageError } from '../../src/contract/index.js';
import { writeLock } from '../../src/locks/index.js';
import { Study, openWorkbench } from '../../src/workbench/index.js';
import { createTempHome } from '../support/temp-home.js';
import { writeTransaction } from '../../src/catalog/catalog.js';
import { recordRowsFingerprints } from '../../src/catalog/rows-fingerprint.js';

const OTHER_VERSION = 'mev-calc-5';
const QUICK = { windows: ['1h'], bootstrap: { samples: 50 } } as const;

let mock: MockServer;
let temp: { home: string; remove(): Promise<void> };
let ids: string[];
/** The version the mock's rows carry. */
let version: string;
/** Rows per release, in `ids` order. */
let rowsOf: number[];
let lockPath: string;

const env = () => ({ RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk });

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 3 });
  temp = await createTempHome();
  const workbench = await openWorkbench({ env: env(), home: temp.home });
  try {
    ids = (await workbench.client.releases({ limit: 3 })).map((release) => release.id);
    const pulled = await pullReleases(workbench.catalog, workbench.client, ids);
    expect(pulled.failed).toEqual([]);
    rowsOf = pulled.pulled.map((release) => release.rows);
    [{ v: version }] = (await workbench.catalog.query('SELECT DISTINCT calculation_version AS v FROM market_events')) as [{ v: string }];
    // The fixture: the newest release's rows become another formula version, as if imported so (its rows
    // fingerprint recorded again: the workbench's own catalog refuses the write, and a lock check would refuse rows
    // that differ from the fingerprint the lock pins).
    const newest = pulled.pulled.find((release) => release.id === ids[0])!;
    await writeTransaction(workbench.catalog, async (connection) => {
      await connection.run('UPDATE market_events SET calculation_version = $v WHERE release_id = $id', { v: OTHER_VERSION, id: ids[0]! });
      await recordRowsFingerprints(connection, [{ id: newest.id }]);
    });
    lockPath = path.join(temp.home, 'mixed.lock.json');
    // Pinned as recorded: rdw lock would otherwise hold these rows to their stored file (the other version) and refuse.
    await writeLock(lockPath, workbench.catalog, ids, { rowsJustVerified: true });
  } finally {
    await workbench.close();
  }
}, 120_000);
afterAll(async () => {
  await temp?.remove();
  await mock?.close();
});

async function withConnection<T>(fn: (catalog: Awaited<ReturnType<typeof openCatalog>>) => Promise<T>): Promise<T> {
  const catalog = await openCatalog(temp.home, { readOnly: true });
  try {
    return await fn(catalog);
  } finally {
    await catalog.close();
  }
}

/** The mix the study must report: sorted by version, with rows and releases. */
const expectedMix = () =>
  [
    { calculation_version: version, rows: rowsOf[1]! + rowsOf[2]!, releases: 2 },
    { calculation_version: OTHER_VERSION, rows: rowsOf[0]!, releases: 1 },
  ].sort((a, b) => (a.calculation_version < b.calculation_version ? -1 : 1));

describe('event study over rows of more than one calculation_version', () => {
  it('refuses to pool them by default, for exact IDs and for the current view, naming the versions (exit 2)', async () => {
    expect(version).not.toBe(OTHER_VERSION);
    await withConnection(async (catalog) => {
      for (const options of [{ ...QUICK, releases: ids }, QUICK]) {
        const error = await eventStudy(catalog, options).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(MixedCalculationVersionsError);
        expect(error).toBeInstanceOf(UsageError);
        expect(error).toMatchObject({ code: 'RDW_MIXED_CALCULATION_VERSIONS', exitCode: 2, option: 'allowMixedCalculationVersions' });
        expect((error as MixedCalculationVersionsError).calculationVersions).toEqual(expectedMix().map((entry) => entry.calculation_version));
      }
    });
  });

  it('pools them when asked and reports the mix; releases of one version need no opt-in', async () => {
    await withConnection(async (catalog) => {
      const pooled = await eventStudy(catalog, { ...QUICK, releases: ids, allowMixedCalculationVersions: true });
      expect(pooled.metadata.calculationVersionMix).toEqual(expectedMix());
      expect(pooled.metadata.calculationVersions).toEqual(expectedMix().map((entry) => entry.calculation_version));
      expect(pooled.metadata.rows).toBe(rowsOf[0]! + rowsOf[1]! + rowsOf[2]!);

      const single = await eventStudy(catalog, { ...QUICK, releases: ids.slice(1) });
      expect(single.metadata.calculationVersionMix).toEqual([{ calculation_version: version, rows: rowsOf[1]! + rowsOf[2]!, releases: 2 }]);
      // The pooled study read one more release's rows than the single-version one.
      expect(pooled.rows.reduce((sum, row) => sum + row.n, 0)).toBeGreaterThan(single.rows.reduce((sum, row) => sum + row.n, 0));
      await expect(eventStudy(catalog, { ...QUICK, allowMixedCalculationVersions: 'yes' as never })).rejects.toMatchObject({ code: 'RDW_ANALYSIS_OPTION' });
    });
  });

  it('Study (workbench) passes the opt-in through: a lock of mixed versions is refused, then studied when asked', async () => {
    const study = await Study.open(lockPath, { env: env(), home: temp.home });
    try {
      expect(study.lock.calculationVersions).toEqual(expectedMix().map((entry) => entry.calculation_version));
      await expect(study.eventStudy(QUICK)).rejects.toBeInstanceOf(MixedCalculationVersionsError);
      const result = await study.eventStudy({ ...QUICK, allowMixedCalculationVersions: true });
      expect(result.metadata.calculationVersionMix).toEqual(expectedMix());
    } finally {
      await study.close();
    }
  });

  it('rdw study event: exit 2 with one sentence naming the flag; --allow-mixed-versions prints the mix', async () => {
    const run = async (...argv: string[]) => {
      let stdout = '';
      let stderr = '';
      const code = await runCli([...argv, '--home', temp.home], {
        env: {},
        stdout: { write: (text) => void (stdout += text), isTTY: false },
        stderr: { write: (text) => void (stderr += text), isTTY: false },
        cwd: temp.home,
      });
      return { code, stdout, stderr };
    };
    const refused = await run('study', 'event', '--bootstrap', 'row');
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(`rdw: ${analysisMessages.mixedCalculationVersions(expectedMix())}\n`);
    expect(refused.stderr).toContain('--allow-mixed-versions');

    const locked = await run('study', 'event', '--lock', 'mixed.lock.json', '--bootstrap', 'row');
    expect(locked.code).toBe(2);

    const allowed = await run('study', 'event', '--allow-mixed-versions', '--bootstrap', 'row');
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    const mixLine = allowed.stdout.split('\n').find((line) => line.startsWith('Calculation versions pooled'));
    for (const entry of expectedMix()) expect(mixLine).toContain(`${entry.calculation_version} ${entry.rows} rows in ${entry.releases} release(s)`);

    const json = await run('study', 'event', '--allow-mixed-versions', '--bootstrap', 'row', '--json');
    expect(json.code).toBe(0);
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);
    expect(json.stderr).toContain('Calculation versions pooled');
  });
});
