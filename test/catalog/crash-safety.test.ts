// kill -9 at seeded-random points of `rdw pull` (a child process against an in-test mock): every time the
// catalog must open, verify, and hold each release wholly or not at all; temp files go on the next run.

import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogCorruptError, openCatalog, verifyStore } from '../../src/catalog/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';
import { EVIDENCE_DIR_ENV } from '../support/test-temp-dir.js';
import { removeTree } from '../../src/base/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const KILLS_PER_HOME = 13; // two homes in parallel: 26 runs, at least 20 of them killed
const RELEASES = 4;

/** A seeded generator of delays (no Math.random in tests: runs are reproducible). */
function seededDelays(seed: number, min: number, max: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return min + (state / 2 ** 32) * (max - min);
  };
}

/** Starts `rdw pull --latest N` in a child; kills it with SIGKILL after `killAfterMs` (unless it ended). */
function pullInChild(mock: MockServer, home: string, killAfterMs: number | undefined): Promise<{ code: number | null; killed: boolean }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'pull', '--latest', String(RELEASES), '--home', home], {
    cwd: ROOT,
    env: { ...process.env, RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, RDW_HOME: home },
    stdio: 'ignore',
  });
  let killed = false;
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => {
    killed = child.kill('SIGKILL');
  }, killAfterMs);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed });
    }),
  );
}

/** Removes everything inside `folder` (the folder itself stays). */
async function emptyFolder(folder: string): Promise<void> {
  for (const entry of await readdir(folder)) await removeTree(path.join(folder, entry));
}

/**
 * Opens the catalog after a crash and checks it: verifies, and every release has exactly its manifest rows.
 * A catalog DuckDB cannot read is kept (file and WAL) in a folder the failure names, with the kill's delay.
 */
async function checkCatalog(home: string, killAfterMs?: number): Promise<number> {
  const catalog = await openCatalog(home).catch(async (error: unknown) => {
    if (!(error instanceof CatalogCorruptError)) throw error;
    const evidence = await mkdtemp(path.join(process.env[EVIDENCE_DIR_ENV] ?? tmpdir(), 'rdw-crash-evidence-'));
    for (const name of await readdir(home)) if (name.startsWith('catalog.duckdb')) await cp(path.join(home, name), path.join(evidence, name));
    throw new Error(`after a kill at ${killAfterMs?.toFixed(0)} ms: ${error.message} (the catalog and its WAL are kept in ${evidence})`);
  });
  try {
    const report = await verifyStore(catalog);
    expect(report.bad).toEqual([]);
    const releases = await catalog.query(`
      SELECT r.id, r.rows::DOUBLE AS expected, (SELECT count(*) FROM market_events m WHERE m.release_id = r.id)::DOUBLE AS actual,
        (SELECT count(*) FROM release_files f WHERE f.release_id = r.id)::INTEGER AS files
      FROM releases r`);
    for (const release of releases) {
      expect(release.actual, String(release.id)).toBe(release.expected);
      expect(release.files).toBeGreaterThanOrEqual(2);
    }
    const orphans = await catalog.query('SELECT count(*)::INTEGER AS n FROM market_events WHERE release_id NOT IN (SELECT id FROM releases)');
    expect(orphans).toEqual([{ n: 0 }]);
    return releases.length;
  } finally {
    await catalog.close();
  }
}

describe('crash safety of rdw pull', () => {
  it(`survives ${2 * KILLS_PER_HOME} kill -9 at random points; the next run completes and cleans up`, async () => {
    await withMockServer({ days: 8 }, async (mock) => {
      const trial = (seed: number) =>
        withTempHome(async (home) => {
          const delay = seededDelays(seed, 300, 5_000);
          let killedRuns = 0;
          // A run that finishes before its kill leaves nothing to interrupt, so start the next one from an
          // empty home; keep going until enough kills landed (bounded, so a fast machine cannot loop forever).
          for (let attempt = 0; killedRuns < KILLS_PER_HOME && attempt < 4 * KILLS_PER_HOME; attempt += 1) {
            const killAfterMs = delay();
            const run = await pullInChild(mock, home, killAfterMs);
            if (run.killed) killedRuns += 1;
            await checkCatalog(home, killAfterMs);
            if (!run.killed) await emptyFolder(home);
          }
          const final = await pullInChild(mock, home, undefined);
          expect(final.code).toBe(0);
          expect(await checkCatalog(home)).toBe(RELEASES);
          expect(await readdir(path.join(home, 'store', 'tmp'))).toEqual([]);
          return killedRuns;
        });
      const killed = await Promise.all([trial(7), trial(11)]);
      expect(killed[0]! + killed[1]!).toBeGreaterThanOrEqual(20);
    });
  }, 400_000);
});
