// One home, never created by a reader (issue 29): on the built CLI, every command that only reads the
// catalog refuses a home without one (exit 1, RDW_NO_CATALOG, one sentence) and leaves no folder behind; the
// demo's "Try next" lines repeat the --home it was given, so they read the catalog it just filled.

import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandMessages } from '../../src/cli/messages.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { jsonError } from '../support/json-stderr.js';

let cwd: string;
beforeAll(async () => {
  cwd = await makeTemporaryFolder('rdw-missing-home-');
  // A well-formed lock, so `lock check` and `study --lock` get past reading it to the catalog.
  const sha = 'b'.repeat(64);
  await writeFile(path.join(cwd, 'study.lock.json'), JSON.stringify({
    lockVersion: 1, rdwVersion: '0.1.0', dataset: 'market-events-v1', calculationVersions: [],
    releases: [{ id: 'c'.repeat(64), day: '2026-01-01', version: 'v', manifestSha256: sha, schemaSha256: null, files: { parquet: { sha256: sha, bytes: 1 } } }],
  }));
});
afterAll(async () => {
  await removeTree(cwd);
});

/** Every command that only reads the catalog, as a user types it (the home is added by the test). */
const READERS: readonly (readonly string[])[] = [
  ['ls'],
  ['sql', 'SELECT count(*) FROM market_events'],
  ['verify'],
  ['verify', '--repair'],
  ['export', 'out'],
  ['study', 'event'],
  ['study', 'model'],
  ['study', 'event', '--lock', 'study.lock.json'],
  ['lock', 'check', 'study.lock.json'],
  ['gc', '--dry-run'],
];

describe('a reader on a home that does not exist', () => {
  it.each(READERS.map((argv) => [argv.join(' '), argv] as const))('rdw %s: exit 1, "No catalog at <home>", nothing created', async (_name, argv) => {
    const home = path.join(cwd, 'absent', 'home');
    const before = await readdir(cwd);
    const run = await runBuiltCli([...argv, '--home', home], { cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`rdw: ${commandMessages.noCatalog(home)}\n`);
    // Through RDW_HOME too, and under --json the one error object with its code.
    const json = await runBuiltCli([...argv, '--json'], { cwd, env: { RDW_HOME: home } });
    expect(jsonError({ code: json.code!, stderr: json.stderr })).toEqual({ code: 'RDW_NO_CATALOG', exitCode: 1, message: commandMessages.noCatalog(home) });
    expect(existsSync(path.join(cwd, 'absent'))).toBe(false);
    expect(await readdir(cwd)).toEqual(before);
  });

  it('with no --home and no RDW_HOME, does not create ./datasets in the working folder', async () => {
    const run = await runBuiltCli(['ls'], { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`rdw: ${commandMessages.noCatalog(path.join(cwd, 'datasets'))}\n`);
    expect(existsSync(path.join(cwd, 'datasets'))).toBe(false);
  });
});

describe('rdw demo --home X', () => {
  it('prints Try next lines that carry --home X, and the first of them reads the demo\'s catalog', async () => {
    const run = await runBuiltCli(['demo', '--latest', '2', '--home', 'demo home'], { cwd, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(0);
    // A line that would pass 100 columns continues with ` \` on the next (as a shell reads it): joined here.
    const tryNext = run.stdout
      .slice(run.stdout.indexOf('Try next:'))
      .replace(/ \\\n +/g, ' ')
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('  npx rdw '));
    expect(run.stdout.split('\n').filter((line) => line.length > 100)).toEqual([]);
    const readers = tryNext.filter((line) => !line.includes('reproduce'));
    expect(readers.length).toBe(2);
    for (const line of readers) expect(line.endsWith(" --home 'demo home'"), line).toBe(true);
    // The reproduce line names another home on purpose: reproducing elsewhere is its point.
    expect(tryNext.find((line) => line.includes('reproduce'))).toContain('--home "$(mktemp -d)"');
    // The sql line as printed (its query, then --home) counts the rows the demo imported.
    const query = /npx rdw sql "([^"]+)"/.exec(readers[0]!)![1]!;
    const rows = await runBuiltCli(['sql', '--json', query, '--home', 'demo home'], { cwd });
    expect(rows.code, rows.stderr).toBe(0);
    expect((JSON.parse(rows.stdout) as unknown[]).length).toBeGreaterThan(0);
  }, 240_000);

  it('without --home, the Try next lines name none but the reproduce line\'s', async () => {
    const run = await runBuiltCli(['demo', '--latest', '1'], { cwd, env: { RDW_HOME: path.join(cwd, 'env-home') }, timeoutMs: 180_000 });
    expect(run.code, run.stderr).toBe(0);
    const tryNext = run.stdout.slice(run.stdout.indexOf('Try next:')).split('\n').filter((line) => line.startsWith('  npx rdw '));
    expect(tryNext.filter((line) => line.includes('--home'))).toEqual([expect.stringContaining('reproduce')]);
  }, 240_000);
});
