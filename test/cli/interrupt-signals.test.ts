// Ctrl-C and SIGTERM on the BUILT CLI (`npm run build` first), with real signals, against an in-test mock
// whose Parquet downloads are slowed: `rdw pull` stops between releases, prints what it imported and what
// it did not, exits 130/143 and leaves only whole releases; `rdw sync` also releases sync.lock and
// records the run as interrupted, so the next sync takes over nothing; one SIGTERM to `sync --watch` ends
// the run in progress the same way (exit 143).

import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog, readSyncRuns } from '../../src/catalog/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

const DAYS = 20;
let mock: MockServer;
const homes: { remove(): Promise<void> }[] = [];

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: DAYS, seed: 3 });
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
const parquetDownloads = () => mock.requestLog.filter((entry) => entry.path.endsWith('/parquet') && entry.status === 200).length;

interface Interrupted {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI with every Parquet download slowed (~1 s a release), sends `signal` once two
 * releases were downloaded (the first is then imported: an import takes milliseconds), and collects it.
 */
async function interruptAfterTwoReleases(argv: string[], signal: NodeJS.Signals, times = 1): Promise<Interrupted> {
  mock.faults.clear();
  mock.faults.add({ format: 'parquet', kind: 'slow', delayMs: 100 });
  const before = parquetDownloads();
  const child = spawn(process.execPath, [BUILT_CLI, ...argv], { env: { PATH: process.env.PATH ?? '', ...env() }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    for (let i = 0; i < 2400 && parquetDownloads() - before < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(parquetDownloads() - before).toBeGreaterThanOrEqual(2);
    child.kill(signal);
    // A second signal once the first was acknowledged.
    for (let sent = 1; sent < times; sent += 1) {
      for (let i = 0; i < 400 && !stderr.includes('stopping after the releases in flight'); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      child.kill(signal);
    }
    const code = await exited;
    // Let the pipes drain.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { code, stdout, stderr };
  } finally {
    child.kill('SIGKILL');
    mock.faults.clear();
  }
}

/** Every imported release holds exactly its manifest's rows; no row belongs to a release not imported. */
/** The release IDs the home's catalog holds (read-only). */
async function heldReleaseIds(home: string): Promise<string[]> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    return (await catalog.query('SELECT id FROM releases')).map((row) => String(row.id));
  } finally {
    await catalog.close();
  }
}

async function expectWholeReleases(home: string, imported: readonly string[]): Promise<void> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    const releases = await catalog.query('SELECT id, rows::INTEGER AS rows FROM releases ORDER BY id');
    expect(releases.map((row) => row.id)).toEqual([...imported].sort());
    const counts = await catalog.query('SELECT release_id, count(*)::INTEGER AS n FROM market_events GROUP BY release_id ORDER BY release_id');
    expect(counts.map((row) => row.release_id)).toEqual([...imported].sort());
    for (const { release_id: id, n } of counts) {
      const response = await fetch(`${mock.baseUrl}/download/${String(id)}/manifest`, { headers: { Authorization: `Bearer ${mock.keys.desk}` } });
      const manifest = (await response.json()) as { rows: number };
      expect(n, String(id)).toBe(manifest.rows);
    }
    const [orphans] = await catalog.query('SELECT count(*)::INTEGER AS n FROM release_files WHERE release_id NOT IN (SELECT id FROM releases)');
    expect(orphans).toEqual({ n: 0 });
  } finally {
    await catalog.close();
  }
}

const importedIds = (stdout: string) => [...stdout.matchAll(/^imported ([0-9a-f]{12,64}) /gm)].map((match) => match[1]!);
const notPulledIds = (stdout: string) => [...stdout.matchAll(/^not pulled ([0-9a-f]{12,64}) \(interrupted\)$/gm)].map((match) => match[1]!);
/** The mock's whole release ID a printed (short) one begins. */
const wholeId = (shown: string) => {
  const matches = mock.releaseIds(DAYS).filter((id) => id.startsWith(shown));
  expect(matches, shown).toHaveLength(1);
  return matches[0]!;
};

describe('rdw lock --latest N, interrupted while it pulls', () => {
  it('SIGINT: stops between releases as rdw pull does, writes no lock, says so, exit 130; the same command then writes it', async () => {
    // It had kept Node's default: killed mid-pull, the bar left as drawn, nothing said, downloaded files left for
    // rdw gc (a new user's trial: 21 files in store/ and store/tmp after one Ctrl-C).
    const home = await newHome();
    const lockFile = path.join(home, 'study.lock.json');
    const run = await interruptAfterTwoReleases(['lock', lockFile, '--latest', String(DAYS), '--home', home], 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('rdw: SIGINT: stopping after the releases in flight');
    const said = /rdw: Interrupted \(SIGINT\): (\d+) imported, (\d+) not pulled, no lock written; run the same rdw lock again/.exec(run.stderr);
    expect(said, run.stderr).not.toBeNull();
    const [imported, notPulled] = [Number(said![1]), Number(said![2])];
    expect(imported).toBeGreaterThanOrEqual(1);
    expect(imported + notPulled).toBe(DAYS);
    await expect(stat(lockFile)).rejects.toThrow();
    const held = await heldReleaseIds(home);
    expect(held).toHaveLength(imported);
    await expectWholeReleases(home, held);
    const gc = await runBuiltCli(['gc', '--dry-run', '--home', home], { env: env(), timeoutMs: 60_000 });
    expect(gc.stdout).toContain('Nothing to remove');

    const again = await runBuiltCli(['lock', lockFile, '--latest', String(DAYS), '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`wrote ${lockFile}: ${DAYS} releases`);
  }, 120_000);
});

describe('rdw demo (npm start), interrupted while it pulls', () => {
  it('SIGINT: stops between releases, writes no report or lock, says what was done and how to continue, exit 130', async () => {
    // It had kept Node's default: killed mid-pull, nothing said (a new user's trial of `npm start`).
    const home = await newHome();
    const out = path.join(home, 'demo-out');
    const run = await interruptAfterTwoReleases(['demo', '--latest', String(DAYS), '--out', out, '--home', home], 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('rdw: SIGINT: stopping after the releases in flight');
    const said = /rdw: Interrupted \(SIGINT\): (\d+) imported, (\d+) not pulled, no study lock written; run npm start \(rdw demo\) again/.exec(run.stderr);
    expect(said, run.stderr).not.toBeNull();
    const [imported, notPulled] = [Number(said![1]), Number(said![2])];
    expect(imported).toBeGreaterThanOrEqual(1);
    expect(imported + notPulled).toBe(DAYS);
    expect(run.stdout).not.toContain('2/5 pulled');
    await expect(stat(out)).rejects.toThrow();
    const held = await heldReleaseIds(home);
    expect(held).toHaveLength(imported);
    await expectWholeReleases(home, held);

    const again = await runBuiltCli(['demo', '--latest', String(DAYS), '--out', out, '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`2/5 pulled ${DAYS} releases (${notPulled} new, ${imported} already present)`);
    expect((await stat(path.join(out, 'study.lock.json'))).isFile()).toBe(true);
  }, 120_000);
});

describe('rdw reproduce, interrupted while it pulls', () => {
  it('SIGINT: stops between releases, says what was pulled and what is missing, exit 130; the same command then reproduces it', async () => {
    // It had kept Node's default: killed mid-pull, nothing said, downloaded files left for rdw gc.
    const source = await newHome();
    const lockFile = path.join(source, 'study.lock.json');
    const locked = await runBuiltCli(['lock', lockFile, '--latest', String(DAYS), '--home', source], { env: env(), timeoutMs: 90_000 });
    expect(locked.code, locked.stderr).toBe(0);
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['reproduce', lockFile, '--home', home], 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('rdw: SIGINT: stopping after the releases in flight');
    const said = /rdw: Interrupted \(SIGINT\): (\d+) pulled, (\d+) still missing, nothing verified; run the same rdw reproduce again/.exec(run.stderr);
    expect(said, run.stderr).not.toBeNull();
    const [pulled, missing] = [Number(said![1]), Number(said![2])];
    expect(pulled).toBeGreaterThanOrEqual(1);
    expect(pulled + missing).toBe(DAYS);
    expect(run.stdout).toBe('');
    const gc = await runBuiltCli(['gc', '--dry-run', '--home', home], { env: env(), timeoutMs: 60_000 });
    expect(gc.stdout).toContain('Nothing to remove');

    const again = await runBuiltCli(['reproduce', lockFile, '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`reproduced study.lock.json: ${DAYS} releases, ${missing} pulled`);
  }, 120_000);
});

describe('rdw pull, interrupted', () => {
  it('SIGINT: stops between releases, names what was imported and what was not, exit 130, whole releases only', async () => {
    const home = await newHome();
    // The "imported" and "not pulled" lines name IDs by their first 12 characters (a new user's trial: 26 lines of
    // 64-character IDs); the mock's list gives the whole ones to compare with the catalog.
    const run = await interruptAfterTwoReleases(['pull', '--latest', String(DAYS), '--concurrency', '1', '--home', home], 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    const shownIds = [...importedIds(run.stdout), ...notPulledIds(run.stdout)];
    for (const id of shownIds) expect(id).toHaveLength(12);
    const imported = importedIds(run.stdout).map(wholeId);
    const notPulled = notPulledIds(run.stdout).map(wholeId);
    expect(imported.length).toBeGreaterThanOrEqual(1);
    expect(notPulled.length).toBeGreaterThanOrEqual(1);
    expect(imported.length + notPulled.length).toBe(DAYS);
    expect(run.stderr).toContain('rdw: SIGINT: stopping after the releases in flight');
    expect(run.stderr).toContain(`rdw: Interrupted (SIGINT): ${imported.length} imported, ${notPulled.length} not pulled; rerun to continue`);
    // The lines this change adds fit 100 columns (the "imported" lines' width is issue 29 item 6).
    const added = [...run.stderr.split('\n'), ...run.stdout.split('\n').filter((line) => line.startsWith('not pulled'))];
    for (const line of added) expect(line.length, line).toBeLessThanOrEqual(100);
    await expectWholeReleases(home, imported);

    // The same command continues where it stopped: the imported ones are present, the rest imported now.
    const again = await runBuiltCli(['pull', '--latest', String(DAYS), '--full-ids', '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(importedIds(again.stdout).sort()).toEqual([...notPulled].sort());
    await expectWholeReleases(home, [...imported, ...notPulled]);
  }, 120_000);

  it('SIGTERM under --json: one document with interrupted and notPulled, the error object last, exit 143', async () => {
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['pull', '--latest', String(DAYS), '--concurrency', '1', '--json', '--home', home], 'SIGTERM');
    expect(run.code, run.stderr).toBe(143);
    const document = JSON.parse(run.stdout) as { pulled: { id: string; status: string }[]; interrupted: string; notPulled: string[] };
    expect(document.interrupted).toBe('SIGTERM');
    expect(document.pulled.length).toBeGreaterThanOrEqual(1);
    expect(document.pulled.length + document.notPulled.length).toBe(DAYS);
    const error = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: { code: string; exitCode: number } };
    expect(error.error).toMatchObject({ code: 'RDW_INTERRUPTED', exitCode: 143 });
    await expectWholeReleases(home, document.pulled.map((release) => release.id));
  }, 120_000);

  it('a second SIGINT stops at once, says so, exit 130; the catalog still holds only whole releases', async () => {
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['pull', '--latest', String(DAYS), '--concurrency', '1', '--home', home], 'SIGINT', 2);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('rdw: SIGINT again: stopped at once; committed releases stay');
    const held = await heldReleaseIds(home);
    expect(held.length).toBeGreaterThanOrEqual(1);
    await expectWholeReleases(home, held);
  }, 120_000);
});

describe('rdw sync, interrupted', () => {
  it('SIGINT: exit 130, sync.lock released, the run recorded as interrupted; the next sync takes over nothing', async () => {
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['sync', '--concurrency', '1', '--home', home], 'SIGINT');
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/^rdw: Interrupted \(SIGINT\): \d+ imported, \d+ not pulled; run recorded, sync\.lock released\.$/m);
    for (const line of run.stderr.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    await expect(stat(path.join(home, 'sync.lock'))).rejects.toThrow();
    const catalog = await openCatalog(home, { readOnly: true });
    let importedCount: number;
    try {
      const runs = await readSyncRuns(catalog);
      expect(runs.length).toBe(1);
      expect(runs[0]).toMatchObject({ outcome: 'interrupted', exitCode: 130 });
      const details = runs[0]!.details as { interrupted: { signal: string; notPulled: string[] } };
      expect(details.interrupted.signal).toBe('SIGINT');
      importedCount = runs[0]!.newReleases;
      expect(importedCount).toBeGreaterThanOrEqual(1);
      expect(importedCount + details.interrupted.notPulled.length).toBe(DAYS);
      const [held] = await catalog.query('SELECT count(*)::INTEGER AS n FROM releases');
      expect(held).toEqual({ n: importedCount });
    } finally {
      await catalog.close();
    }

    const next = await runBuiltCli(['sync', '--json', '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('took over');
    const report = JSON.parse(next.stdout) as { new: unknown[]; present: number; outcome: string };
    expect(report).toMatchObject({ outcome: 'ok', present: importedCount });
    expect(report.new.length).toBe(DAYS - importedCount);
  }, 120_000);

  it('a second SIGINT stops at once (exit 130) and still removes sync.lock; the next sync takes over nothing', async () => {
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['sync', '--concurrency', '1', '--home', home], 'SIGINT', 2);
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain('rdw: SIGINT again: stopped at once');
    await expect(stat(path.join(home, 'sync.lock'))).rejects.toThrow();
    const next = await runBuiltCli(['sync', '--json', '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('took over');
    const catalog = await openCatalog(home, { readOnly: true });
    try {
      const [held] = await catalog.query('SELECT count(*)::INTEGER AS n FROM releases');
      expect(held).toEqual({ n: DAYS });
    } finally {
      await catalog.close();
    }
  }, 120_000);
});

describe('rdw sync --watch, interrupted during a run', () => {
  it('one SIGTERM ends the run in progress cleanly: run recorded as interrupted, sync.lock released, exit 143', async () => {
    const home = await newHome();
    const run = await interruptAfterTwoReleases(['sync', '--watch', '1h', '--concurrency', '1', '--home', home], 'SIGTERM');
    expect(run.code, run.stderr).toBe(143);
    expect(run.stderr).toContain('rdw: SIGTERM: stopping after the releases in flight');
    expect(run.stderr).toMatch(/^rdw: Interrupted \(SIGTERM\): \d+ imported, \d+ not pulled; run recorded, sync\.lock released\.$/m);
    expect(run.stderr).toContain('rdw: stopped (SIGTERM).');
    expect(run.stdout.trim().split('\n')).toHaveLength(1); // the run's summary line; no second run
    await expect(stat(path.join(home, 'sync.lock'))).rejects.toThrow();
    const catalog = await openCatalog(home, { readOnly: true });
    try {
      const runs = await readSyncRuns(catalog);
      expect(runs.length).toBe(1);
      expect(runs[0]).toMatchObject({ outcome: 'interrupted', exitCode: 143 });
      const details = runs[0]!.details as { interrupted: { signal: string; notPulled: string[] } };
      expect(details.interrupted.signal).toBe('SIGTERM');
      expect(details.interrupted.notPulled.length).toBeGreaterThanOrEqual(1);
      expect(runs[0]!.newReleases + details.interrupted.notPulled.length).toBe(DAYS);
      const [held] = await catalog.query('SELECT count(*)::INTEGER AS n FROM releases');
      expect(held).toEqual({ n: runs[0]!.newReleases });
    } finally {
      await catalog.close();
    }
    const next = await runBuiltCli(['sync', '--home', home], { env: env(), timeoutMs: 90_000 });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).not.toContain('took over');
  }, 120_000);
});

/**
 * Runs `rdw pull --latest 100` on the embedded mock (no RDW_BASE_URL: in this process it builds 100 days' files for
 * the listing, ~3 s here, saying after 1 s how many days it built), sends `signals` SIGINTs 50 ms apart once it said
 * its pace, and returns the exit code, stderr, how long the exit took after the first signal, and how much of the
 * build was left then at the pace it said (a loaded machine builds slower and has longer left).
 */
async function interruptListingBuild(
  home: string,
  signals: number,
  argv: readonly string[] = ['pull', '--latest', '100'],
): Promise<{ code: number | null; stdout: string; stderr: string; exitMs: number; leftMs: number }> {
  const child = spawn(process.execPath, [BUILT_CLI, ...argv, '--home', home], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const pace = /is building its releases' files: (\d+) of 100 days after 1 s/;
  try {
    for (let i = 0; i < 1200 && !pace.test(stderr); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const built = Number(pace.exec(stderr)?.[1]);
    expect(built, stderr).toBeGreaterThan(0);
    const leftMs = ((100 - built) / built) * 1000;
    const signalled = performance.now();
    for (let sent = 0; sent < signals; sent += 1) {
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      child.kill('SIGINT');
    }
    const code = await exited;
    return { code, stdout, stderr, exitMs: performance.now() - signalled, leftMs };
  } finally {
    child.kill('SIGKILL');
  }
}

describe('rdw demo on the embedded mock, interrupted while it builds its listing', () => {
  it('one Ctrl-C: exit 130 long before the build ends, "0 imported, 0 not pulled", no "listed 0 releases: undefined" line', async () => {
    const home = await newHome();
    const run = await interruptListingBuild(home, 1, ['demo', '--latest', '100', '--out', path.join(home, 'demo-out')]);
    expect(run.code, run.stderr).toBe(130);
    expect(run.exitMs, `${run.stderr}\n${run.leftMs.toFixed(0)} ms of build left`).toBeLessThan(run.leftMs / 2);
    expect(run.stderr).toContain('rdw: Interrupted (SIGINT): 0 imported, 0 not pulled, no study lock written;');
    expect(run.stdout).not.toContain('1/5');
    expect(run.stdout).not.toContain('undefined');
    await expect(stat(path.join(home, 'demo-out'))).rejects.toThrow();
  }, 60_000);
});

describe('rdw pull on the embedded mock, interrupted while it builds its listing', () => {
  it('hears Ctrl-C while it builds (the build hands the event loop back): two stop it long before the build ends, exit 130', async () => {
    // A build that kept the event loop heard both signals only once it was done (measured before the change: exit
    // 3.0 s after the second signal).
    const run = await interruptListingBuild(await newHome(), 2);
    expect(run.code, run.stderr).toBe(130);
    expect(run.exitMs, `${run.stderr}\n${run.leftMs.toFixed(0)} ms of build left`).toBeLessThan(run.leftMs / 2);
    expect(run.stderr).toContain('rdw: SIGINT again: stopped at once');
  }, 60_000);

  it('one Ctrl-C cuts the listing request: exit 130 long before the build ends, "0 imported, 0 not pulled", no listing kept', async () => {
    // Before the change the listing had no abort signal: one SIGINT waited for the whole build (and then stopped
    // before the first release). Now the request is cut, and the mock stops building for a client that has gone.
    const home = await newHome();
    const run = await interruptListingBuild(home, 1);
    expect(run.code, run.stderr).toBe(130);
    expect(run.exitMs, `${run.stderr}\n${run.leftMs.toFixed(0)} ms of build left`).toBeLessThan(run.leftMs / 2);
    // Nothing was planned (the listing was cut), so a rerun is still what to do: never "nothing is left to pull".
    expect(run.stderr).toContain('rdw: Interrupted (SIGINT): 0 imported, 0 not pulled; rerun to continue where it stopped.');
    expect(run.stderr).not.toContain('again: stopped at once');
    expect(run.stderr).not.toContain('lists no release rdw can use');
    const catalog = await openCatalog(home, { readOnly: true });
    try {
      expect(await catalog.query('SELECT count(*)::INTEGER AS n FROM listed_releases')).toEqual([{ n: 0 }]);
    } finally {
      await catalog.close();
    }
  }, 60_000);
});
