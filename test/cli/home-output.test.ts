// rdw sql --parquet FILE and rdw lock FILE replace an existing FILE whole, as a shell's > does, but never what rdw keeps
// in its home: run on the home's own catalog.duckdb they left a Parquet file or a lock in its place (every later
// command: "… is not a readable DuckDB catalog"), and on a stored file they broke the store's written-once promise.

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalog } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { captureOutput } from '../support/capture-output.js';
import { createTempHome } from '../support/temp-home.js';

let temp: Awaited<ReturnType<typeof createTempHome>>;
let catalogHash: string;
const stored = () => path.join(temp.home, 'store', 'sha256', 'ab', 'ab'.repeat(32));
const hashOf = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

beforeAll(async () => {
  temp = await createTempHome('rdw-home-output-');
  await (await openCatalog(temp.home)).close();
  await mkdir(path.dirname(stored()), { recursive: true });
  await writeFile(stored(), 'verified bytes');
  await symlink(path.join(temp.home, 'catalog.duckdb'), path.join(temp.home, 'catalog-link'));
  catalogHash = await hashOf(path.join(temp.home, 'catalog.duckdb'));
});
afterAll(async () => {
  await temp.remove();
});

async function run(argv: string[], cwd: string) {
  const out = captureOutput();
  const err = captureOutput();
  const code = await runCli([...argv, '--home', temp.home], { env: {}, cwd, stdout: out.output, stderr: err.output });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('an output file that is part of the home', () => {
  it.each([
    ['the catalog, by its path', () => ['sql', 'SELECT 1 AS a', '--parquet', path.join(temp.home, 'catalog.duckdb')], 'the catalog'],
    ['the catalog, relative to the home', () => ['sql', 'SELECT 1 AS a', '--parquet', 'catalog.duckdb'], 'the catalog'],
    ['the catalog, through a symbolic link', () => ['sql', 'SELECT 1 AS a', '--parquet', 'catalog-link'], 'the catalog'],
    ['DuckDB\'s write-ahead log', () => ['sql', 'SELECT 1 AS a', '--parquet', 'catalog.duckdb.wal'], 'the catalog'],
    ['a stored file', () => ['sql', 'SELECT 1 AS a', '--parquet', stored()], 'a verified stored file'],
    ['the catalog, as a lock', () => ['lock', 'catalog.duckdb', '--latest', '1'], 'the catalog'],
    ['a stored file, as a lock', () => ['lock', stored(), 'a'.repeat(64)], 'a verified stored file'],
  ])('refuses %s (exit 2) and leaves it as it was', async (_name, argv, kept) => {
    const result = await run(argv(), temp.home);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^rdw: (--parquet|rdw lock) \\S+ would write over ${kept}[^\\n]*, which rdw keeps in its home[^\\n]+\\n$`));
    expect(await hashOf(path.join(temp.home, 'catalog.duckdb'))).toBe(catalogHash);
    expect(await readFile(stored(), 'utf8')).toBe('verified bytes');
  });

  // A name that begins with '..' inside the home is inside it (it once read as "outside", so not checked).
  it.each(['mine.parquet', '..mine.parquet'])('still writes a Parquet file elsewhere in the home folder (%s)', async (name) => {
    const result = await run(['sql', 'SELECT 1 AS a', '--parquet', name], temp.home);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`Wrote 1 row (1 column) to ${name}.\n`);
  });

  it('refuses a file of state/ whose name begins with ..', async () => {
    await mkdir(path.join(temp.home, 'state'), { recursive: true });
    const result = await run(['sql', 'SELECT 1 AS a', '--parquet', path.join('state', '..pacing.json')], temp.home);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/would write over the home's own state/);
  });
});

// rdw gc empties store/tmp and store/ holds verified files only: an export or a report written there would be lost
// (or mixed with what rdw verified), so a folder output under store/ or state/ is refused too.
describe('an output folder inside what the home keeps', () => {
  it.each([
    ['rdw export into store/tmp', () => ['export', path.join('store', 'tmp', 'out')], /^rdw: rdw export store\/tmp\/out would write into the store of verified files \(store\/\), which rdw keeps in its home and nothing else may add to; name a folder outside the home's catalog\.duckdb, store\/ and state\/, e.g\. rdw export \.\/export\.\n$/],
    ['rdw export into state/', () => ['export', path.join(temp.home, 'state', 'exported')], /^rdw: rdw export \S+ would write into the home's own state\/exported, /],
    ['a study report into store/', () => ['study', 'event', '--out', 'store'], /^rdw: --out store would write into the store of verified files \(store\/\), [^\n]+e\.g\. --out \.\/report\.\n$/],
    ['the demo report into state/', () => ['demo', '--out', path.join('state', 'demo')], /^rdw: --out state\/demo would write into the home's own state\/demo, [^\n]+e\.g\. --out \.\/demo-60\.\n$/],
  ])('refuses %s (exit 2) before anything is written', async (_name, argv, sentence) => {
    const result = await run(argv(), temp.home);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(sentence);
    expect((await readdir(path.join(temp.home, 'store'))).sort()).toEqual(['sha256', 'tmp']);
    expect(await readdir(path.join(temp.home, 'store', 'tmp'))).toEqual([]);
    const state = await readdir(path.join(temp.home, 'state')).catch(() => []);
    expect(state.filter((name) => name === 'exported' || name === 'demo')).toEqual([]);
  });

  it('still exports into another folder of the home', async () => {
    const result = await run(['export', 'exported'], temp.home);
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(path.join(temp.home, 'exported'))).toEqual([]);
  });
});
