// syncHome against the real mock over HTTP: what a run pulls and labels, what it records in sync_runs, the
// snapshot interval kept across runs, study locks against revisions, and the home's sync lock.

import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogDays, pullReleases, readSyncRuns, snapshotHistory } from '../../src/catalog/index.js';
import { acquireSyncLock, syncHome, SyncBusyError, SYNC_LOCK_FILE } from '../../src/workbench/index.js';
import { checkLockRevisions, writeLock } from '../../src/locks/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { mockClient, withCatalog } from '../support/with-catalog.js';
import { withTempHome } from '../support/temp-home.js';
import { lockCheckLines, syncReportText } from '../../src/cli/sync-report-text.js';

describe('syncHome', () => {
  it('pulls every listed ID once, labels revisions, and records each run in sync_runs', async () => {
    await withMockServer({ days: 5, seed: 3 }, async (mock) => {
      let time = Date.UTC(2026, 10, 1);
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const first = await syncHome(catalog, client);
        expect(first.new.map((release) => release.day)).toEqual(['2026-10-31', '2026-10-30', '2026-10-29', '2026-10-28', '2026-10-27']);
        expect([first.revised, first.failed, first.present]).toEqual([[], [], 0]);

        const old = (await client.releases({ limit: 100 }))[0]!;
        const lockPath = path.join(home, 'study.lock.json');
        const lock = await writeLock(lockPath, catalog, [old.id]);
        let published = mock.advance(3600);
        for (let hour = 1; hour < 48 && !published.some((release) => release.day === old.day); hour += 1) published = mock.advance(3600);
        const listing = await client.releases({ limit: 100 });
        const newer = listing.find((release) => release.day === old.day)!;
        expect(newer.id).not.toBe(old.id);

        const second = await syncHome(catalog, client, { locks: [{ file: 'study.lock.json', lock }] });
        const expected = listing.filter((release) => !first.new.some((pulled) => pulled.id === release.id));
        expect([...second.new, ...second.revised].map((release) => release.id).sort()).toEqual(expected.map((release) => release.id).sort());
        const revisedOld = second.revised.find((release) => release.day === old.day)!;
        expect(revisedOld).toMatchObject({ id: newer.id, replaces: [old.id], generatedAt: newer.generated_at });
        expect(second.locks).toEqual([
          { file: 'study.lock.json', pinned: 1, releases: [{ id: old.id, day: old.day, status: 'revised', newerId: newer.id, newerGeneratedAt: newer.generated_at, seenIn: 'listing' }] },
        ]);
        // The lock itself never changes.
        expect(JSON.parse(await readFile(lockPath, 'utf8')).releases[0].id).toBe(old.id);

        const runs = await readSyncRuns(catalog);
        expect(runs.map((run) => [run.id, run.outcome, run.exitCode, run.listed, run.newReleases, run.revised, run.failed])).toEqual([
          [2, 'ok', 0, listing.length, second.new.length, second.revised.length, 0],
          [1, 'ok', 0, 5, 5, 0, 0],
        ]);
        expect(runs[0]!.details).toEqual(JSON.parse(JSON.stringify(second)));
        expect(runs[0]!.budgetLeftBytes).toBe(second.budget!.remainingBytes);
      }, { now: () => new Date((time += 1000)) });
    });
  });

  it('a listed revision older than the imported one (by generated_at) is imported but said not to be current', async () => {
    // A second server's adversary (session 35): sync printed "revised … replaces <held>" while the catalog, by
    // generated_at, kept reading the held revision. Here the held one is made newer than anything the mock lists.
    await withMockServer({ days: 3, seed: 3 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        await syncHome(catalog, client);
        const held = (await client.releases({ limit: 100 }))[0]!;
        await catalog.transaction((connection) => connection.run(`UPDATE releases SET generated_at = generated_at + 1e9 WHERE id = '${held.id}'`));
        let published = mock.advance(3600);
        for (let hour = 1; hour < 48 && !published.some((release) => release.day === held.day); hour += 1) published = mock.advance(3600);
        const second = await syncHome(catalog, client);
        const revised = second.revised.find((release) => release.day === held.day)!;
        expect(revised.id).not.toBe(held.id);
        expect(revised).toMatchObject({ replaces: [held.id], currentStays: held.id });
        const text = syncReportText(second).split('\n');
        const at = text.findIndex((line) => line.includes(revised.id));
        expect(text[at + 1]).toMatch(new RegExp(`^ {9}older than ${held.id.slice(0, 12)}…, which stays current \\(newer generated_at\\)`));
        expect(text[at + 1]).not.toContain('replaces');
        // The catalog's rule, by plain SQL over the view: the held revision is what studies read.
        const [row] = await catalog.query(`SELECT DISTINCT release_id FROM market_events_current WHERE day = DATE '${held.day}'`);
        expect(row).toEqual({ release_id: held.id });
        // A lock pinning the held revision: the listing names the other one for that day, older by generated_at,
        // so it is not "revised"; its check names the listed ID rather than saying the day left the listing.
        const lock = { lockVersion: 1 as const, rdwVersion: '0', dataset: 'market-events-v1', calculationVersions: [], releases: [
          { id: held.id, day: held.day, version: held.version, manifestSha256: '0'.repeat(64), schemaSha256: null, files: {} },
        ] };
        const [check] = await checkLockRevisions(catalog, lock, await client.releases({ limit: 100 }));
        expect(check).toMatchObject({ status: 'unlisted', listedId: revised.id, newerId: null });
        expect(lockCheckLines('study.lock.json', [check!])).toEqual([
          `lock study.lock.json: ${held.day} is listed under another ID, not newer; the pinned one is served by ID`,
          `  pinned ${held.id}`,
          `  listed ${revised.id}`,
        ]);
      });
    });
  });

  it('an aborted signal stops between releases: whole releases only, the run recorded as interrupted, the next run pulls the rest', async () => {
    await withMockServer({ days: 6, seed: 3 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        // pullReleases itself: aborted before it starts, it starts nothing and names every ID.
        const listing = await client.releases({ limit: 100 });
        const ids = listing.map((release) => release.id);
        const aborted = new AbortController();
        aborted.abort('SIGINT');
        expect(await pullReleases(catalog, client, ids, { signal: aborted.signal })).toEqual({ pulled: [], failed: [], notStarted: ids });

        // A sync stopped at its first import (as the CLI's SIGTERM handler would).
        const controller = new AbortController();
        const requestsBefore = mock.requestLog.length;
        const report = await syncHome(catalog, client, {
          concurrency: 1,
          snapshots: ['market-breadth'],
          signal: controller.signal,
          onProgress: (event) => {
            if (event.kind === 'release' && event.status === 'imported') controller.abort('SIGTERM');
          },
        });
        expect(report).toMatchObject({ outcome: 'interrupted', exitCode: 143, snapshots: [], budget: null });
        expect(report.interrupted!.signal).toBe('SIGTERM');
        const imported = report.new.map((release) => release.id);
        expect(imported.length).toBeGreaterThanOrEqual(1);
        expect([...imported, ...report.interrupted!.notPulled].sort()).toEqual([...ids].sort());
        // No snapshot was fetched and the budget was not read once interrupted.
        expect(mock.requestLog.slice(requestsBefore).filter((entry) => !entry.path.includes('/download/') && !entry.path.startsWith('/v1/releases'))).toEqual([]);
        const counts = await catalog.query('SELECT r.id, r.rows::INTEGER AS rows, count(m.release_id)::INTEGER AS n FROM releases r LEFT JOIN market_events m ON m.release_id = r.id GROUP BY r.id, r.rows');
        expect(counts.map((row) => row.id).sort()).toEqual([...imported].sort());
        for (const row of counts) expect(row.n).toBe(row.rows);
        expect((await readSyncRuns(catalog)).map((run) => [run.outcome, run.exitCode, run.newReleases])).toEqual([['interrupted', 143, imported.length]]);

        const next = await syncHome(catalog, client);
        expect(next.outcome).toBe('ok');
        expect(next.new.map((release) => release.id).sort()).toEqual([...report.interrupted!.notPulled].sort());
        // The interrupted run's snapshot choice is remembered like any other run's.
        expect(next.snapshotDatasets).toEqual(['market-breadth']);
      });
    });
  });

  it('never fetches a chosen snapshot sooner than its refresh_seconds after the last one, and remembers the choice', async () => {
    await withMockServer({ days: 2 }, async (mock) => {
      let time = Date.UTC(2026, 10, 1);
      await withCatalog(async (catalog, home) => {
        // A client per sync, as each `rdw sync` process has; closed, so its pacing lease goes back.
        const sync = async (options: Parameters<typeof syncHome>[2] = {}) => {
          const client = mockClient(mock, home);
          try {
            return await syncHome(catalog, client, options);
          } finally {
            await client.close();
          }
        };
        const snapshotRequests = () => mock.requestLog.filter((entry) => entry.path.startsWith('/v1/research/market-breadth')).length;
        const first = await sync({ snapshots: ['market-breadth'] });
        expect(first.snapshots).toMatchObject([{ dataset: 'market-breadth', status: 'recorded', refreshSeconds: 300 }]);
        expect(snapshotRequests()).toBe(1);

        time += 299_000; // one second short of refresh_seconds (each catalog read adds a millisecond)
        const second = await sync(); // a plain sync: the last choice
        expect(second.snapshotDatasets).toEqual(['market-breadth']);
        expect(second.snapshots).toMatchObject([{ dataset: 'market-breadth', status: 'skipped' }]);
        expect(Date.parse(second.snapshots[0]!.nextAt!)).toBeGreaterThanOrEqual(Date.parse(first.snapshots[0]!.nextAt!));
        expect(snapshotRequests()).toBe(1);

        time += 2_000;
        const third = await sync();
        expect(third.snapshots[0]!.status).toMatch(/^(recorded|unchanged)$/);
        expect(snapshotRequests()).toBe(2);
        expect((await snapshotHistory(catalog, 'market-breadth')).length).toBeGreaterThanOrEqual(1);

        const cleared = await sync({ snapshots: [] });
        expect([cleared.snapshotDatasets, cleared.snapshots]).toEqual([[], []]);
      }, { now: () => new Date((time += 1)) });
    });
  });

  it('reports a pinned release the service no longer lists, without failing; names days without a release', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withCatalog(async (catalog, home) => {
        const client = mockClient(mock, home);
        const listing = await client.releases({ limit: 100 });
        const lock = { lockVersion: 1 as const, rdwVersion: '0', dataset: 'market-events-v1', calculationVersions: [], releases: [
          { id: 'f'.repeat(64), day: '2020-01-01', version: 'mev-calc-4', manifestSha256: '0'.repeat(64), schemaSha256: null, files: {} },
          { id: listing[0]!.id, day: listing[0]!.day, version: listing[0]!.version, manifestSha256: '0'.repeat(64), schemaSha256: null, files: {} },
        ] };
        expect((await checkLockRevisions(catalog, lock, listing)).map((check) => check.status)).toEqual(['unlisted', 'current']);

        // Days between the catalog's first and last day without a release are named.
        await pullReleases(catalog, client, [listing[0]!.id, listing[2]!.id]);
        expect(await catalogDays(catalog)).toEqual({ firstDay: listing[2]!.day, lastDay: listing[0]!.day, days: 2, missingDays: [listing[1]!.day] });
      });
    });
  });
});

describe('the sync lock', () => {
  it('refuses a second holder while the first lives, and takes over the lock of a dead PID', async () => {
    await withTempHome(async (home) => {
      const first = await acquireSyncLock(home);
      await expect(acquireSyncLock(home)).rejects.toBeInstanceOf(SyncBusyError);
      await expect(acquireSyncLock(home)).rejects.toThrow(String(process.pid));
      await first.release();

      // A PID that surely ran and is gone: a child that exited.
      const child = spawn(process.execPath, ['-e', '']);
      const pid = child.pid!;
      await new Promise((resolve) => child.once('exit', resolve));
      await writeFile(path.join(home, SYNC_LOCK_FILE), JSON.stringify({ pid, hostname: hostname(), startedAt: '2026-11-01T00:00:00.000Z' }));
      const second = await acquireSyncLock(home);
      expect(second.tookOver).toEqual({ pid, hostname: hostname(), startedAt: '2026-11-01T00:00:00.000Z' });
      await second.release();

      // A lock cut short by a kill (not JSON) is stale too.
      await writeFile(path.join(home, SYNC_LOCK_FILE), '{"pid":');
      const third = await acquireSyncLock(home);
      expect(third.tookOver).toBeUndefined();
      expect(third.notice).toContain('not a JSON lock');
      await third.release();
    });
  });
});
