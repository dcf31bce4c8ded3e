// `rdw sync` on a full daily byte budget: exit 5 naming the day it clears, releases pulled before the budget
// ran out stay whole, none is partial, the run is recorded as limited; the next sync with budget completes.

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCatalog, readSyncRuns } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { MockServer } from '../../src/mock/index.js';
import type { SyncReport } from '../../src/workbench/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

async function sync(mock: MockServer, home: string, key = mock.keys.desk): Promise<{ code: number; report: SyncReport; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['sync', '--json', '--home', home], {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: key },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: home,
  });
  return { code, report: JSON.parse(stdout) as SyncReport, stderr };
}

/** Per release in the catalog: its manifest's row count and the rows it holds. */
async function releaseRows(home: string): Promise<{ id: string; expected: number; actual: number }[]> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    return (await catalog.query(`
      SELECT r.id, r.rows::INTEGER AS expected, (SELECT count(*) FROM market_events m WHERE m.release_id = r.id)::INTEGER AS actual
      FROM releases r ORDER BY r.id`)) as { id: string; expected: number; actual: number }[];
  } finally {
    await catalog.close();
  }
}

const listedIds = async (mock: MockServer) =>
  ((await (await fetch(`${mock.baseUrl}/releases?limit=100`, { headers: { authorization: `Bearer ${mock.keys.desk}` } })).json()) as { items: { id: string }[] }).items
    .map((item) => item.id)
    .sort();

describe('rdw sync on a full byte budget', () => {
  it('exits 5 naming the day it clears, keeps only whole releases, records the run; with budget the next sync completes', async () => {
    await withTempHome(async (home) => {
      // About three days' files fit in 400 kB; the mock lists six.
      await withMockServer({ days: 6, seed: 5, limits: { desk: { daily_bytes: 400_000 } } }, async (tight) => {
        const run = await sync(tight, home);
        expect(run.code, run.stderr).toBe(5);
        const clearsOn = run.report.budget!.clearsOn;
        expect(clearsOn).toMatch(/^\d{4}-\d\d-\d\d$/);
        expect(run.report.outcome).toBe('limited');
        expect(run.report.failed.length).toBeGreaterThan(0);
        expect(run.stderr).toContain(`try again after ${run.report.budget!.clearsOn}T00:00:00Z`);
        expect(run.stderr).not.toContain('needs 0 bytes');
        for (const failure of run.report.failed) {
          expect([failure.code, failure.exitCode]).toEqual(['RDW_BYTE_BUDGET', 5]);
          expect(failure.message).toContain(clearsOn);
        }
        expect(run.report.budget!.remainingBytes).toBe(0);
        expect(run.stderr).not.toMatch(/\n\s+at /);
        const held = await releaseRows(home);
        expect(held.length).toBe(run.report.new.length);
        expect(held.length).toBeGreaterThan(0);
        expect(held.length).toBeLessThan(6);
        for (const release of held) expect(release.actual, release.id).toBe(release.expected);
        expect(await readdir(path.join(home, 'store', 'tmp'))).toEqual([]);
      });
      const catalog = await openCatalog(home, { readOnly: true });
      const [limited] = await readSyncRuns(catalog);
      await catalog.close();
      expect([limited!.outcome, limited!.exitCode]).toEqual(['limited', 5]);

      // The same releases (same seed and days) for a key with budget left (another Research Desk account; the
      // first key's day stays used up until the next UTC day): only what the catalog lacks is fetched.
      await withMockServer({ days: 6, seed: 5 }, async (open) => {
        const key = open.admin.createKey(open.admin.createAccount('desk'), 'second');
        const run = await sync(open, home, key);
        expect(run.code, run.stderr).toBe(0);
        expect(run.report.new.length + run.report.present).toBe(6);
        expect(open.requestLog.filter((entry) => entry.path.endsWith('/parquet'))).toHaveLength(run.report.new.length);
        const held = await releaseRows(home);
        expect(held.map((release) => release.id)).toEqual(await listedIds(open));
        for (const release of held) expect(release.actual, release.id).toBe(release.expected);
      });
    });
  }, 120_000);
});
