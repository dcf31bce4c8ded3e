// Small manners of the CLI (issue 29), on the built CLI: the nearest flag or command for a typo, the list of
// studies for a bare `rdw study`, `-` refused as an output path (nothing named `-` is made), and help and
// usage errors answered without loading DuckDB, the embedded mock or the analysis.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/cli/closest-name.js';
import { COMMAND_LINES } from '../../src/cli/flags.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { jsonError } from '../support/json-stderr.js';

let cwd: string;
beforeAll(async () => {
  cwd = await makeTemporaryFolder('rdw-manners-');
});
afterAll(async () => {
  await removeTree(cwd);
});

describe('did you mean', () => {
  it.each([
    [['demo', '--latst', '3'], '--latest', 'latst'],
    [['pull', '--lates=3'], '--latest', 'lates'],
    [['sql', '--cvs', 'SELECT 1'], '--csv', 'cvs'],
    [['ls', '--jsno'], '--json', 'jsno'],
    [['study', 'event', '--windwo', '1h'], '--window', 'windwo'],
  ])('rdw %j: exit 2 naming %s', async (argv, near, typed) => {
    const run = await runBuiltCli(argv, { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: Unknown option '--${typed}'; did you mean ${near}? Run "rdw ${argv[0]} --help" for its usage.\n`);
  });

  it.each([
    ['lss', 'ls'],
    ['stduy', 'study'],
    ['relases', 'releases'],
    ['doctr', 'doctor'],
  ])('rdw %s: exit 2, did you mean "%s"', async (typed, near) => {
    const run = await runBuiltCli([typed], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: Unknown command "${typed}"; did you mean "${near}"? Run "rdw --help" to see the commands.\n`);
  });

  it('suggests nothing when nothing is near', async () => {
    expect((await runBuiltCli(['xyzzy'], { cwd })).stderr).toBe('rdw: Unknown command "xyzzy". Run "rdw --help" to see the commands.\n');
    const far = await runBuiltCli(['releases', '--bogus'], { cwd });
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/^rdw: Unknown option '--bogus'\. /);
    expect(far.stderr).not.toContain('did you mean');
  });

  it.each([
    ['latst', ['latest', 'limit'], 'latest'],
    ['ls', ['ls', 'gc'], 'ls'],
    ['xy', ['ls', 'gc'], undefined],
    ['sutdy', ['study'], 'study'],
    ['stdy', ['study', 'sync'], 'study'],
    ['concurency', ['concurrency'], 'concurrency'],
    ['reproduced', ['reproduce'], 'reproduce'],
    ['export', ['openapi', 'demo'], undefined],
    // A new user's trial (session 43): `rdw gc --dry` (4 edits from --dry-run) was named with no suggestion.
    ['--dry', ['--dry-run', '--json'], '--dry-run'],
    ['--full', ['--full-ids', '--json'], '--full-ids'],
    ['rep', ['releases', 'reproduce'], 'reproduce'],
    ['re', ['releases', 'reproduce', 'research'], undefined],
    ['res', ['research', 'reproduce'], 'research'],
    ['--s', ['--split', '--seed'], undefined],
  ] as const)('closestName(%s, %j) = %s', (typed, known, expected) => {
    expect(closestName(typed, known)).toBe(expected);
  });

  it('counts an insertion, a deletion, a substitution and a swap of neighbours as one edit each', () => {
    expect([editDistance('latest', 'latst'), editDistance('ls', 'lss'), editDistance('csv', 'cvs'), editDistance('gc', 'gx'), editDistance('', 'abc'), editDistance('kitten', 'sitting')]).toEqual([1, 1, 1, 1, 3, 3]);
  });
});

describe('rdw study alone', () => {
  it('lists its studies, one line each, and exits 2', async () => {
    const run = await runBuiltCli(['study'], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => /^ {2}(event|model) {2}\S/.test(line)).map((line) => line.trim().split(' ')[0])).toEqual(['event', 'model']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(run.stdout).not.toContain('Unknown study');
  });

  it('under --json is one usage error object naming both studies (stdout stays JSON-only)', async () => {
    const run = await runBuiltCli(['study', '--json'], { cwd });
    expect(run.stdout).toBe('');
    const error = jsonError({ code: run.code!, stderr: run.stderr });
    expect(error).toMatchObject({ code: 'RDW_CLI_USAGE', exitCode: 2 });
    expect(error.message).toMatch(/rdw study event .* rdw study model /);
  });
});

describe('"-" as an output path', () => {
  // Each is refused before anything is opened or written: the home named does not exist and stays so.
  it.each([
    [['export', '-'], 'dir'],
    [['study', 'event', '--out', '-'], 'out'],
    [['study', 'model', '--out', '-'], 'out'],
    [['lock', '-', '--latest', '3'], 'file'],
    [['sql', '--parquet', '-', 'SELECT 1'], 'parquet'],
    [['demo', '--out', '-', '--latest', '1'], 'out'],
  ])('rdw %j: exit 2 (RDW_CLI_USAGE), nothing named "-" made', async (argv) => {
    const home = path.join(cwd, 'no-home');
    const run = await runBuiltCli([...argv, '--home', home, '--json'], { cwd });
    const error = jsonError({ code: run.code!, stderr: run.stderr });
    expect(error).toMatchObject({ code: 'RDW_CLI_USAGE', exitCode: 2 });
    expect(error.message).toMatch(/^(rdw \w+|--\w+) "-" is not standard output: .*; give a name instead, e\.g\. /);
    expect(existsSync(path.join(cwd, '-'))).toBe(false);
    expect(existsSync(home)).toBe(false);
  });

  it('leaves a path that merely starts with "-" alone (./- is a folder named -)', async () => {
    const run = await runBuiltCli(['export', './-', '--home', path.join(cwd, 'no-home')], { cwd });
    // Refused for the missing catalog, not for the name.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No catalog at');
  });
});

describe('help and usage errors stay light', () => {
  /** The files the built CLI imports for `argv`, recorded by a resolve hook. */
  async function loadedFiles(argv: readonly string[]): Promise<{ code: number | null; files: string[] }> {
    const hooks = path.join(cwd, 'hooks.mjs');
    const register = path.join(cwd, 'register.mjs');
    await writeFile(hooks, "export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) process.stderr.write(`LOADED ${r.url}\\n`); return r; }\n");
    await writeFile(register, `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, BUILT_CLI, ...argv], { cwd, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, files: [...stderr.matchAll(/^LOADED (.+)$/gm)].map((match) => match[1]!) }));
    });
  }

  it.each([
    [['--help'], 0],
    [['help', 'study'], 0],
    [['sync', '--help'], 0],
    [['doctor', '-h'], 0],
    [['demo', '--latst', '3'], 2],
    [['pull', '--latest', '0'], 2],
    [['stduy'], 2],
    [['openapi'], 0],
  ])('rdw %j (exit %i) imports no other command module, no DuckDB, mock, analysis, catalog or workbench', async (argv, exit) => {
    const { code, files } = await loadedFiles(argv);
    expect(code).toBe(exit);
    expect(files.some((file) => file.endsWith('/dist/cli/run-cli.js'))).toBe(true);
    // Allowed: the workbench's home resolution (its sentences and errors only), and rdw openapi's own module with
    // the client's refusal of a key in a URL through workbench/url-refusal.js (it writes the URLs into its
    // document): sentences and errors only.
    const openapi = '|/dist/cli/commands/openapi\\.js$|/dist/workbench/url-refusal\\.js$|/dist/client/(refuse-secrets-in-urls|url-secret|client-errors|messages)\\.js$';
    const light = new RegExp(`/dist/workbench/(resolve-home|messages|workbench-errors)\\.js$${argv[0] === 'openapi' ? openapi : ''}`);
    const heavy = files.filter((file) => !light.test(file) && /\/dist\/(analysis|modelling|mock|catalog|store|workbench|client|report|locks|study)\/|\/dist\/cli\/commands\/(?!index\.js)|node_modules/.test(file));
    expect(heavy).toEqual([]);
  });

  it('the flags that take the analysis\'s and the mock\'s words still show them', () => {
    const study = COMMAND_LINES.study.flags;
    expect(study.find((flag) => flag.name === 'split')?.description).toContain('purged-k-fold, walk-forward, row-k-fold');
    expect(COMMAND_LINES.mock.flags.find((flag) => flag.name === 'now')).toMatchObject({ default: '2026-11-01T00:00:00Z' });
  });
});

it('makes no file in the working folder but the hooks the tests wrote', async () => {
  expect((await readdir(cwd)).filter((name) => !['hooks.mjs', 'register.mjs'].includes(name))).toEqual([]);
});
