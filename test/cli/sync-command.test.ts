// `rdw sync` and `rdw lock check` against an in-test mock over HTTP: what a sync pulls, labels and records,
// the request count of a sync with one new day and two revisions, two syncs at once, a killed sync's stale
// lock, --watch (validation and a clean stop), and a study lock whose pinned day was revised.

import { spawn } from 'node:child_process';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, readSyncRuns, type SyncRunRecord } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { syncMessages } from '../../src/cli/messages.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import type { SyncReport } from '../../src/workbench/index.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

let mock: MockServer;
let home: string;
const homes: { remove(): Promise<void> }[] = [];

beforeAll(async () => {
  // Seed 3: 23 hours after the first sync, one more hour publishes one new day and exactly two revisions.
  mock = await startMockServer({ port: 0, days: 12, seed: 3 });
  home = await newHome();
});
afterAll(async () => {
  for (const temp of homes) await temp.remove();
  await mock.close();
});

async function newHome(): Promise<string> {
  const temp = await createTempHome();
  homes.push(temp);
  return temp.home;
}

const env = () => ({ RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk });

async function rdw(argv: string[], inHome = home): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', inHome], {
    env: env(),
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: inHome,
  });
  return { code, stdout, stderr };
}

async function syncJson(argv: string[] = []): Promise<SyncReport> {
  const run = await rdw(['sync', '--json', ...argv]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as SyncReport;
}

async function runs(inHome = home): Promise<SyncRunRecord[]> {
  const catalog = await openCatalog(inHome, { readOnly: true });
  try {
    return await readSyncRuns(catalog);
  } finally {
    await catalog.close();
  }
}

const listing = async () =>
  ((await (await fetch(`${mock.baseUrl}/releases?limit=100`, { headers: { authorization: `Bearer ${mock.keys.desk}` } })).json()) as { items: { id: string; day: string }[] }).items;

describe('rdw sync', () => {
  it('first pulls every listed release, then pulls nothing and says so; each run is a sync_runs row', async () => {
    const listed = await listing();
    const first = await syncJson();
    expect(first.new.map((release) => release.id)).toEqual(listed.map((release) => release.id));
    expect([first.revised.length, first.present, first.failed.length, first.exitCode]).toEqual([0, 0, 0, 0]);

    const second = await rdw(['sync']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(syncMessages.nothingNew(listed.length));
    expect(second.stdout).toMatch(/listed 12 \(2026-10-20\.\.2026-10-31\), 0 new, 0 revised, 12 present, 0 failed/);
    const recorded = await runs();
    expect(recorded.map((run) => [run.outcome, run.exitCode, run.listed, run.newReleases, run.revised, run.failed])).toEqual([
      ['ok', 0, 12, 0, 0, 0],
      ['ok', 0, 12, 12, 0, 0],
    ]);
    expect(recorded[1]!.details).toMatchObject({ new: first.new, listed: 12 });
  });

  it('prints for a 100-column terminal: ten new releases by day and whole ID, then how many more', async () => {
    const fresh = await newHome();
    const run = await rdw(['sync'], fresh);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    const listed = await listing();
    expect(lines.filter((line) => line.startsWith('new      2026-'))).toEqual(
      listed.slice(0, 10).map((release) => expect.stringMatching(new RegExp(`^new      ${release.day} ${release.id} \\d+ rows$`))),
    );
    expect(lines).toContain(`new      … and 2 more (${listed[11]!.day} .. ${listed[10]!.day}); every ID: rdw ls, or rdw sync --json`);
  });

  it('after the clock moves, pulls exactly the new IDs, labels revisions, and names a revised pinned day', async () => {
    const before = await listing();
    const lock = await rdw(['lock', 'study.lock.json', ...before.slice(0, 3).map((release) => release.id)]);
    expect(lock.code, lock.stderr).toBe(0);
    // Before any revision: the text says the lock was checked and none of its pins has a newer revision.
    const quiet = await rdw(['sync', '--locks', 'study.lock.json']);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain(`${syncMessages.lockNothingRevised('study.lock.json', 3)}\n`);
    mock.advance(23 * 3600);
    const after = await listing();
    const expected = after.filter((release) => !before.some((old) => old.id === release.id));
    const report = await syncJson(['--locks', 'study.lock.json']);
    expect(report.new).toEqual([]);
    expect(report.revised.map((release) => release.id).sort()).toEqual(expected.map((release) => release.id).sort());
    for (const release of report.revised) expect(release.replaces).toEqual([before.find((old) => old.day === release.day)!.id]);

    // The lock pins the three newest days as they were: each revised one is named, with its newer ID.
    const revisedPins = before.slice(0, 3).filter((pinned) => after.find((current) => current.day === pinned.day)!.id !== pinned.id);
    expect(revisedPins.length).toBeGreaterThan(0);
    const check = await rdw(['lock', 'check', 'study.lock.json']);
    expect(check.code).toBe(0);
    for (const pinned of revisedPins) {
      const newer = after.find((current) => current.day === pinned.day)!.id;
      expect(check.stdout).toMatch(new RegExp(`: ${pinned.day} has a newer revision, published 2026-11-01T\\S+\n  pinned ${pinned.id}\n  newer  ${newer} \\((listing|catalog)\\)\n`));
    }
    expect(check.stdout).toContain(syncMessages.lockUnchanged('study.lock.json'));
    for (const line of check.stdout.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const json = JSON.parse((await rdw(['lock', 'check', 'study.lock.json', '--json'])).stdout) as { revised: number };
    expect(json.revised).toBe(revisedPins.length);
    // The lock never changes by itself.
    const pinned = JSON.parse(await readFile(path.join(home, 'study.lock.json'), 'utf8')).releases.map((release: { id: string }) => release.id);
    expect(pinned.sort()).toEqual(before.slice(0, 3).map((release) => release.id).sort());
  });

  it('a sync with one new day and two revisions costs 1 listing + 2 requests per release (limits kept in the home)', async () => {
    mock.advance(3600);
    const start = mock.requestLog.length;
    const report = await syncJson();
    const requests = mock.requestLog.slice(start);
    expect([report.new.length, report.revised.length]).toEqual([1, 2]);
    expect(report.new[0]!.day).toBe('2026-11-01');
    const byKind = requests.map((entry) => entry.path.replace(/[0-9a-f]{64}/, '<id>'));
    // eslint-disable-next-line no-console
    console.log(`sync with 1 new day + 2 revisions: ${requests.length} requests: ${byKind.join(' ')}`);
    expect(byKind.filter((kind) => kind === '/v1/releases?limit=100')).toHaveLength(1);
    expect(byKind.filter((kind) => kind.startsWith('/v1/download/'))).toHaveLength(2 * 3);
    expect(requests.length).toBeLessThanOrEqual(1 + 2 * 3);
    expect(byKind).not.toContain('/v1/catalog');
    const [last] = await runs();
    expect(last).toMatchObject({ outcome: 'ok', newReleases: 1, revised: 2, listed: 13 });
  });

  it('refuses a bad --watch value (exit 2) before anything runs', async () => {
    const recorded = (await runs()).length;
    for (const value of ['5x', '10s', '25h', '0m', '']) {
      const run = await rdw(['sync', '--watch', value]);
      expect(run.code, value).toBe(2);
      expect(run.stderr).toContain(syncMessages.badInterval(value));
    }
    expect((await runs()).length).toBe(recorded);
  });

  // A new user's trial (session 43): `rdw sync --snapshots market-breath` (a typo) remembered the dataset, and every
  // later plain sync failed on it (exit 6) with "check the dataset ID", never saying the ID came from a remembered
  // choice nor how to drop it.
  it('a chosen snapshot dataset the service lacks: exit 6, and stderr says how to choose again without it', async () => {
    const fresh = await newHome();
    const first = await rdw(['sync', '--snapshots', 'market-breath,funding-pressure'], fresh);
    expect(first.code, first.stderr).toBe(6);
    expect(first.stdout).toMatch(/^snapshot market-breath failed: /m);
    expect(first.stderr).toContain(`rdw: ${syncMessages.snapshotDatasetUnknown('market-breath', ['funding-pressure'])}\n`);
    // Remembered: a plain sync asks again, and says it again.
    const again = await rdw(['sync'], fresh);
    expect(again.code).toBe(6);
    expect(again.stderr).toContain(syncMessages.snapshotDatasetUnknown('market-breath', ['funding-pressure']));
    // The advice, followed: the next syncs no longer ask for it.
    const chosen = await rdw(['sync', '--snapshots', 'funding-pressure'], fresh);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stderr).not.toContain('market-breath');
    const alone = await rdw(['sync', '--snapshots', 'market-breath'], fresh);
    expect(alone.stderr).toContain(syncMessages.snapshotDatasetUnknown('market-breath', []));
    expect(syncMessages.snapshotDatasetUnknown('market-breath', [])).toContain("rdw sync --snapshots ''");
  });
});

describe('rdw sync as processes', () => {
  it('a second sync exits 1 naming the PID that holds the home; after a kill -9 the stale lock is taken over', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const lockFile = path.join(home, 'sync.lock');
      await writeFile(lockFile, JSON.stringify({ pid: holder.pid, hostname: hostname(), startedAt: '2026-11-24T10:00:00.000Z' }));
      const recorded = (await runs()).length;
      const busy = await runBuiltCli(['sync', '--home', home], { env: env() });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`PID ${holder.pid}`);
      expect((await runs()).length).toBe(recorded);
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
      const after = await runBuiltCli(['sync', '--home', home], { env: env() });
      expect(after.code, after.stderr).toBe(0);
      expect(after.stderr).toContain(`took over the sync lock of PID ${holder.pid}`);
      await expect(stat(lockFile)).rejects.toThrow();
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a sync.lock with PID -1 is taken over with one line naming it; a folder there is refused naming it (exit 1, --json code)', async () => {
    const fresh = await newHome();
    const lockFile = path.join(fresh, 'sync.lock');
    await writeFile(lockFile, JSON.stringify({ pid: -1, hostname: 'h\u001b[2Jost\nx', startedAt: '' }));
    const run = await runBuiltCli(['sync', '--home', fresh], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`rdw: took over ${lockFile}, which held no lock a live sync wrote: its PID -1 is not a process ID of 1 or more.\n`);
    expect(run.stderr).not.toMatch(/stop PID|\u001b/);
    await expect(stat(lockFile)).rejects.toThrow();

    await mkdir(lockFile);
    const refused = await runBuiltCli(['sync', '--home', fresh, '--json'], { env: env() });
    expect(refused.code).toBe(1);
    const error = (JSON.parse(refused.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('RDW_SYNC_LOCK_UNUSABLE');
    expect(error.message).toContain(`${lockFile} is a folder, not a sync lock rdw wrote`);
    expect(error.message).toContain(`(rmdir '${lockFile}')`);
    expect((await stat(lockFile)).isDirectory()).toBe(true);
  });

  it('--watch --json: a run that cannot start is one JSON line with its error (busy: skipped), and the loop goes on', async () => {
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const fresh = await newHome();
    await writeFile(path.join(fresh, 'sync.lock'), JSON.stringify({ pid: holder.pid, hostname: hostname(), startedAt: '2026-11-24T10:00:00.000Z' }));
    const child = spawn(process.execPath, [BUILT_CLI, 'sync', '--watch', '1h', '--json', '--home', fresh], {
      env: { PATH: process.env.PATH ?? '', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
      for (let i = 0; i < 1200 && !stdout.includes('\n'); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      const line = JSON.parse(stdout.trim()) as { at: string; skipped: boolean; error: { code: string; exitCode: number; message: string } };
      expect(line.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      expect(line.skipped).toBe(true);
      expect(line.error.code).toBe('RDW_SYNC_BUSY');
      expect(line.error.exitCode).toBe(1);
      expect(line.error.message).toContain(`PID ${holder.pid}`);
      child.kill('SIGTERM');
      expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0); // the loop went on until stopped
    } finally {
      child.kill('SIGKILL');
      holder.kill('SIGKILL');
    }
  });

  it('a sync killed with kill -9 mid-run leaves a lock the next sync takes over; that one completes', async () => {
    const fresh = await newHome();
    const child = spawn(process.execPath, [BUILT_CLI, 'sync', '--home', fresh], { env: { PATH: process.env.PATH ?? '', ...env() }, stdio: 'ignore' });
    const lockFile = path.join(fresh, 'sync.lock');
    for (let i = 0; i < 400 && !(await stat(lockFile).then(() => true, () => false)); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const next = await runBuiltCli(['sync', '--home', fresh, '--json'], { env: env() });
    expect(next.code, next.stderr).toBe(0);
    const report = JSON.parse(next.stdout) as SyncReport;
    expect(report.new.length + report.present).toBe(report.listed);
    const catalog = await openCatalog(fresh, { readOnly: true });
    try {
      const [row] = await catalog.query('SELECT count(*)::INTEGER AS n, count(DISTINCT day)::INTEGER AS days FROM releases');
      expect(row).toEqual({ n: report.listed, days: report.listed });
    } finally {
      await catalog.close();
    }
  });

  it('--watch syncs once per interval, a line per run, and stops cleanly on SIGTERM between runs (exit 0)', async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'sync', '--watch', '1h', '--home', home], {
      env: { PATH: process.env.PATH ?? '', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    for (let i = 0; i < 1200 && !stdout.includes('\n'); i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ: listed 13 .*0 new, 0 revised, 13 present, 0 failed\n$/);
    child.kill('SIGTERM');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).toContain(syncMessages.watchStopped('SIGTERM'));
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });
});
