// Failures of the machine, through the real CLI: each ends with exit 1 and one sentence naming the cause
// (a file where the home must be, a corrupt catalog, a folder as a lock target, a read-only home for a pull
// and for a sync, a full disk), no stack trace, nothing half-written; "failed unexpectedly" is left for real bugs.

import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMessages } from '../../src/catalog/index.js';
import { environmentMessages } from '../../src/contract/index.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

let temp: Awaited<ReturnType<typeof createTempHome>>;
let pulledHome: string;
let releaseId: string;

beforeAll(async () => {
  temp = await createTempHome('rdw-env-');
  pulledHome = path.join(temp.home, 'pulled');
  const pulled = await runBuiltCli(['pull', '--latest', '1', '--json', '--home', pulledHome], { timeoutMs: 120_000 });
  expect(pulled.code, pulled.stderr).toBe(0);
  releaseId = (JSON.parse(pulled.stdout) as { pulled: { id: string }[] }).pulled[0]!.id;
}, 150_000);
afterAll(async () => {
  await temp.remove();
});

/**
 * One sentence on stderr (after the embedded mock's note and any "Still waiting for" / "No answer yet to" line a slow
 * start of the in-process mock earns on a busy machine), no stack trace, no "failed unexpectedly".
 */
function expectNamedFailure(stderr: string, sentence: string | RegExp): void {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((line) => !line.includes('the embedded mock at') && !line.includes('The embedded mock is building') && !/^(rdw: )?(Still waiting for|No answer yet to) /.test(line));
  expect(lines.every((line) => line.startsWith('rdw: ')), stderr).toBe(true);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toContain(environmentMessages.unexpectedFailure('').split(':')[0]!);
  if (typeof sentence === 'string') expect(lines).toContain(`rdw: ${sentence}`);
  else expect(lines.some((line) => sentence.test(line)), stderr).toBe(true);
}

/** Every file under `dir`, relative, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) found.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return found.sort();
}

/** Runs the built CLI in a private mount namespace after `setup` (shell commands: a read-only bind, a tiny tmpfs), then lists `listDir`. */
function runInNamespace(setup: string, argv: readonly string[], listDir: string): { code: number; stderr: string; files: string[] } {
  const script = `${setup} && { "${process.execPath}" "${BUILT_CLI}" ${argv.map((arg) => `'${arg}'`).join(' ')} >/dev/null 2>"$1"; echo "rc=$?"; cd '${listDir}' && find . -type f | sort; }`;
  const errFile = path.join(temp.home, `stderr-${Date.now()}.txt`);
  const run = spawnSync('unshare', ['-m', 'sh', '-c', script, 'sh', errFile], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    timeout: 120_000,
  });
  expect(run.status, `unshare/mount is needed for this case (root in a mount namespace): ${run.stderr}`).toBe(0);
  const [rc, ...files] = run.stdout.trim().split('\n');
  const stderr = execFileSync('cat', [errFile], { encoding: 'utf8' });
  return { code: Number(rc!.replace('rc=', '')), stderr, files: files.map((file) => file.replace(/^\.\//, '')) };
}

describe('environment failures through the CLI', () => {
  it('names a --home that is a file (exit 1) and writes nothing', async () => {
    const file = path.join(temp.home, 'a-file');
    await writeFile(file, 'not a folder\n');
    const run = await runBuiltCli(['ls', '--home', file]);
    expect(run.code).toBe(1);
    expectNamedFailure(run.stderr, environmentMessages.notAFolder(file));
    expect(await readFile(file, 'utf8')).toBe('not a folder\n');
  });

  it('names a --home below a file (exit 1)', async () => {
    const file = path.join(temp.home, 'b-file');
    await writeFile(file, 'x');
    const run = await runBuiltCli(['ls', '--home', path.join(file, 'sub')]);
    expect(run.code).toBe(1);
    expectNamedFailure(run.stderr, environmentMessages.notAFolder(path.join(file, 'sub')));
  });

  it('names a --home the file system cannot follow (exit 1): a link to nothing, a loop of links, a name too long', async () => {
    const dangling = path.join(temp.home, 'dangling-home');
    await symlink(path.join(temp.home, 'nowhere'), dangling);
    const loop = path.join(temp.home, 'loop-home');
    await symlink(loop, loop);
    const long = path.join(temp.home, 'x'.repeat(300), 'home');
    for (const [home, sentence] of [
      [dangling, environmentMessages.danglingLink(dangling)],
      [loop, environmentMessages.symbolicLinkLoop(loop)],
      [long, environmentMessages.pathTooLong(long)],
    ] as const) {
      const run = await runBuiltCli(['pull', '--latest', '1', '--home', home]);
      expect(run.code, home).toBe(1);
      expectNamedFailure(run.stderr, sentence);
    }
    expect(await readdir(temp.home)).not.toContain('nowhere');
  });

  // A folder renamed onto a link to nothing fails as ENOTDIR, which once called the link "a file".
  it('names an export folder that is a symbolic link to nothing (exit 1), and makes nothing where it points', async () => {
    const dangling = path.join(temp.home, 'dangling-export');
    await symlink(path.join(temp.home, 'export-nowhere'), dangling);
    const run = await runBuiltCli(['export', dangling, '--home', pulledHome]);
    expect(run.code, run.stderr).toBe(1);
    expectNamedFailure(run.stderr, environmentMessages.danglingLink(dangling));
    const left = await readdir(temp.home);
    expect(left).not.toContain('export-nowhere');
    expect(left.filter((name) => name.startsWith('.dangling-export'))).toEqual([]);
  });

  it.each([
    ['random bytes', () => randomBytes(64 * 1024)],
    ['a valid header cut short', async () => (await readFile(path.join(pulledHome, 'catalog.duckdb'))).subarray(0, 4096)],
  ])('names a corrupt catalog.duckdb (%s) with what to do (exit 1) and leaves it as it was', async (_name, bytes) => {
    const home = path.join(temp.home, `corrupt-${Math.random().toString(16).slice(2)}`);
    await mkdir(home);
    const content = await bytes();
    await writeFile(path.join(home, 'catalog.duckdb'), content);
    for (const argv of [['ls'], ['pull', releaseId]]) {
      const run = await runBuiltCli([...argv, '--home', home]);
      expect(run.code, run.stderr).toBe(1);
      const file = path.join(home, 'catalog.duckdb');
      expectNamedFailure(run.stderr, new RegExp(`^rdw: ${escape(catalogMessages.catalogCorrupt(file, 'X').split(' (')[0]!)} \\(.+reproduce <LOCK>`));
      expect((await readFile(file)).equals(content)).toBe(true);
      expect(await filesUnder(home)).toEqual(['catalog.duckdb']);
    }
  });

  it('names a lock target that is a folder (exit 1), leaving the folder and its parent as they were', async () => {
    const parent = path.join(temp.home, 'locks');
    const folder = path.join(parent, 'study.lock.json');
    await mkdir(folder, { recursive: true });
    const run = await runBuiltCli(['lock', folder, releaseId, '--home', pulledHome]);
    expect(run.code).toBe(1);
    expectNamedFailure(run.stderr, environmentMessages.isAFolder(folder));
    expect(await readdir(parent)).toEqual(['study.lock.json']);
    expect(await readdir(folder)).toEqual([]);
    expect((await stat(folder)).isDirectory()).toBe(true);
  });

  it('names a read-only home (EROFS, a read-only bind) for a new home and for a pull into an existing one (exit 1)', async () => {
    const empty = path.join(temp.home, 'ro-empty');
    await mkdir(empty);
    // A writer (gc): a reader such as ls makes nothing in a home without a catalog, so it never meets EROFS.
    const fresh = runInNamespace(`mount --bind -o ro '${empty}' '${empty}'`, ['gc', '--home', empty], empty);
    expect(fresh.code).toBe(1);
    // The first folder rdw makes there is named: the home exists, its store/ cannot be made.
    expectNamedFailure(fresh.stderr, environmentMessages.readOnly(path.join(empty, 'store')));
    expect(fresh.files).toEqual([]);

    const before = await filesUnder(pulledHome);
    const pull = runInNamespace(`mount --bind -o ro '${pulledHome}' '${pulledHome}'`, ['pull', '--latest', '2', '--home', pulledHome], pulledHome);
    expect(pull.code).toBe(1);
    expectNamedFailure(pull.stderr, environmentMessages.readOnly(path.join(pulledHome, 'catalog.duckdb')));
    expect(pull.files).toEqual(before);
  });

  it('names a read-only home for rdw sync (exit 1), leaving no sync lock and nothing changed', async () => {
    const before = await filesUnder(pulledHome);
    const sync = runInNamespace(`mount --bind -o ro '${pulledHome}' '${pulledHome}'`, ['sync', '--home', pulledHome], pulledHome);
    expect(sync.code).toBe(1);
    expectNamedFailure(sync.stderr, /^rdw: .*read-only/i);
    expect(sync.files).toEqual(before);
    expect(sync.files).not.toContain('sync.lock');
  });

  it.each([
    // A new catalog is built whole before it is used (≈ 1 MiB after its first checkpoint): 100k and 300k fill
    // during that build, 1200k while the pull downloads and imports into it.
    ['while the new catalog is built', '100k'],
    ['while the new catalog is built, with room for its first blocks', '300k'],
    ['while pulling into the new catalog', '1200k'],
  ])('names a full disk %s (ENOSPC on a tiny tmpfs, exit 1) and imports nothing', (_name, size) => {
    const home = path.join(temp.home, `full-${size}`);
    execFileSync('mkdir', ['-p', home]);
    const run = runInNamespace(`mount -t tmpfs -o size=${size} tmpfs '${home}'`, ['pull', '--latest', '1', '--home', home], home);
    expect(run.code).toBe(1);
    expectNamedFailure(run.stderr, /^rdw: No space left on the disk holding .+\. Free some space/);
    expect(run.stderr).not.toMatch(/connection|network/i);
    expect(run.files.filter((file) => file.startsWith('store/sha256/') || file.startsWith('store/tmp/'))).toEqual([]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
