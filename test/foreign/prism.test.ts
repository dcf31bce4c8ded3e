// A foreign server rdw did not write: Stoplight Prism mocking the document the built `rdw openapi` prints,
// unmodified, as docs/cli.md says to run it (`rdw openapi > openapi.json`, `npx prism mock openapi.json -p
// PORT`, then RDW_BASE_URL=http://127.0.0.1:PORT/v1 and RDW_API_KEY only), in static mode (examples and
// schema samples) and dynamic mode (random data from the schemas). Every rdw command either works or fails
// with one sentence and a documented exit code, and nothing unverified is imported (Prism's bytes cannot
// match a manifest checksum). Imports no part of src/mock.

import { spawn, type ChildProcess } from 'node:child_process';
import { access, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument, openApiJson } from '../../src/contract/index.js';
import { OpenApiValidator } from '../support/openapi-validator.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { runBuiltCli } from '../support/run-built-cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const PRISM = path.join(path.dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist/index.js');
/** A key-shaped secret: the service prefix and 32 characters (Prism checks only that a bearer token is sent). */
const API_KEY = `rdw_sk_${'k3y'.repeat(10)}ab`;
/** Prism's first start compiles the document and can take a while on a busy machine. */
const START_TIMEOUT_MS = 180_000;
/** Fourteen runs of the built CLI (each a fresh Node process opening DuckDB, ~1-4 s on a shared machine). */
const COMMANDS_TIMEOUT_MS = 400_000;

type Json = Record<string, any>;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface PrismServer {
  child: ChildProcess;
  siteUrl: string;
  baseUrl: string;
  log: string[];
}

async function startPrism(documentPath: string, extra: string[]): Promise<PrismServer> {
  const port = await freePort();
  // The arguments docs/cli.md gives (`prism mock FILE -p PORT`; Prism listens on 127.0.0.1 by default).
  const child = spawn(process.execPath, [PRISM, 'mock', documentPath, '-p', String(port), ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  });
  const log: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within ${START_TIMEOUT_MS} ms:\n${log.join('')}`)), START_TIMEOUT_MS);
    const listen = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.join('').includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', listen);
    child.stderr!.on('data', listen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${log.join('')}`));
    });
  });
  // Keep draining its log so a chatty Prism never blocks on a full pipe.
  const siteUrl = `http://127.0.0.1:${port}`;
  return { child, siteUrl, baseUrl: `${siteUrl}/v1`, log };
}

async function stopPrism(server: PrismServer | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

interface CliRun {
  argv: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `rdw` against a Prism server in `home` (its own process, a clean environment): only the
 * documented RDW_BASE_URL and RDW_API_KEY (RDW_SITE_URL defaults to the base URL's origin, where Prism serves
 * the live pages). `--home` unless `homeFlag` is false (then ./datasets of `home`).
 */
function rdw(server: PrismServer, home: string, argv: string[], homeFlag = true): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...argv, ...(homeFlag ? ['--home', home] : [])], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        RDW_BASE_URL: server.baseUrl,
        RDW_API_KEY: API_KEY,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ argv, code, stdout, stderr });
    });
  });
}

/** The lines of stderr that report a failure or a notice of the CLI (`rdw: …`); client notices have no prefix. */
const rdwLines = (run: CliRun): string[] => run.stderr.split('\n').filter((line) => line.startsWith('rdw: '));

/**
 * The contract of DESIGN.md 2.3 for one run: exit 0, or a documented failure code (2-6, or 1 only for a named
 * network failure) ending in one `rdw:` sentence; never a stack trace or "failed unexpectedly". `rdw pull`
 * (and `lock`, which pulls) names each release that failed before its one-line summary.
 */
function expectDocumentedOutcome(run: CliRun, releasesRequested = 0): void {
  const label = `rdw ${run.argv.join(' ')} (exit ${run.code})\n${run.stderr}`;
  expect(run.stderr, label).not.toMatch(/^\s+at .+\(?.+:\d+:\d+\)?$/m);
  expect(run.stderr, label).not.toMatch(/failed unexpectedly|SyntaxError|TypeError|RangeError/);
  if (run.code === 0) return;
  const documented = (run.code !== null && run.code >= 2 && run.code <= 6) || (run.code === 1 && /connection failed|network|ECONN|timed out/i.test(run.stderr));
  expect(documented, label).toBe(true);
  const last = run.stderr.trimEnd().split('\n').pop() ?? '';
  expect(last, label).toMatch(/^rdw: \S.*[.!?)]$/);
  expect(rdwLines(run).length, label).toBeLessThanOrEqual(releasesRequested > 0 ? releasesRequested + 1 : 1);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function catalogCounts(home: string): Promise<Record<string, number>> {
  const db = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'), { access_mode: 'READ_ONLY' });
  const connection = await db.connect();
  try {
    const counts: Record<string, number> = {};
    for (const table of ['releases', 'release_files', 'market_events']) {
      const rows = (await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${table}`)).getRowObjectsJson();
      counts[table] = Number(rows[0]!.n);
    }
    return counts;
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

let workDir: string;
const servers: Partial<Record<'static' | 'dynamic', PrismServer>> = {};

beforeAll(async () => {
  workDir = await makeTemporaryFolder('rdw-prism-');
  // `rdw openapi > openapi.json`, with the built CLI and no RDW_* variable: the file Prism mocks, unmodified.
  const documentPath = path.join(workDir, 'openapi.json');
  const printed = await runBuiltCli(['openapi'], { cwd: workDir, env: { HOME: workDir } });
  if (printed.code !== 0) throw new Error(`rdw openapi exited ${printed.code}: ${printed.stderr}`);
  await writeFile(documentPath, printed.stdout);
  expect(await readFile(documentPath, 'utf8')).toBe(openApiJson());
  const [staticServer, dynamicServer] = await Promise.all([startPrism(documentPath, []), startPrism(documentPath, ['--dynamic', '--seed', 'rdw'])]);
  servers.static = staticServer;
  servers.dynamic = dynamicServer;
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await Promise.all([stopPrism(servers.static), stopPrism(servers.dynamic)]);
  if (workDir) await removeTree(workDir);
});

describe.each(['static', 'dynamic'] as const)('Prism (%s) mocking the generated document', (mode) => {
  it('answers every documented path with a response that conforms to the document (Prism\'s check and Ajv)', async () => {
    const server = servers[mode]!;
    // The document's servers set to Prism's address: {service_url} and {site_url} are both its root.
    const document = openApiDocument({ baseUrl: server.baseUrl, siteUrl: server.siteUrl }) as Json;
    const validator = new OpenApiValidator(document);
    const id = 'A'.repeat(64);
    for (const template of Object.keys(document.paths)) {
      const filled = template.replace('{release_id}', id).replace('{dataset_id}', 'market-breadth').replace('{page_key}', 'market-breadth');
      const url = `${server.siteUrl}${filled}`;
      const response = await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } });
      const text = await response.text();
      expect(response.status, url).toBe(200);
      expect(response.headers.get('sl-violations'), url).toBeNull();
      expect(validator.check(url, { status: response.status, headers: response.headers, text }).problems, url).toEqual([]);
    }
  });

  it('refuses a request without the key with the documented 401', async () => {
    const server = servers[mode]!;
    const response = await fetch(`${server.baseUrl}/releases`);
    expect(response.status).toBe(401);
    await response.arrayBuffer();
  });

  it('every rdw command works or fails with one sentence and a documented exit code; nothing unverified is imported', async () => {
    const server = servers[mode]!;
    const home = path.join(workDir, `home-${mode}`);
    const lockFile = path.join(home, 'study.lock.json');
    await mkdir(home, { recursive: true });
    const runs: CliRun[] = [];
    const step = async (argv: string[], releasesRequested = 0): Promise<CliRun> => {
      const run = await rdw(server, home, argv);
      runs.push(run);
      expectDocumentedOutcome(run, releasesRequested);
      return run;
    };

    const listing = await step(['releases', '--json']);
    await step(['releases']);
    const listed = listing.code === 0 ? (JSON.parse(listing.stdout) as { id: string }[]) : [];
    await step(['pull', '--latest', '1'], 1);
    if (listed[0]) await step(['pull', listed[0].id], 1);
    await step(['ls']);
    await step(['verify']);
    const count = await step(['sql', 'SELECT count(*)::INTEGER AS n FROM releases', '--json']);
    await step(['research', 'catalog']);
    await step(['research', 'get', 'market-breadth']);
    await step(['research', 'csv', 'market-breadth']);
    await step(['live', 'market-breadth']);
    await step(['live', 'market-breadth', '--csv']);
    const lock = await step(['lock', lockFile, '--latest', '1'], 1);
    await step(['study', 'event']);

    // What a conforming server must give: listings, research and live pages work whatever their content;
    // a pull (and a lock, which pulls) is refused as an integrity failure (3), or as over a byte budget Prism
    // made up (5); a study over an empty catalog finds nothing (6).
    const outcomes = Object.fromEntries(runs.map((run) => [run.argv.join(' ').replace(home, '<home>').replace(/pull \S{64}$/, 'pull <id>'), run.code]));
    const integrity = (code: unknown) => code === 3 || code === 5;
    expect(outcomes).toEqual({
      'releases --json': 0,
      releases: 0,
      'pull --latest 1': expect.toSatisfy(integrity),
      ...(listed[0] ? { 'pull <id>': expect.toSatisfy(integrity) } : {}),
      ls: 0,
      verify: 0,
      'sql SELECT count(*)::INTEGER AS n FROM releases --json': 0,
      'research catalog': 0,
      'research get market-breadth': 0,
      'research csv market-breadth': 0,
      'live market-breadth': 0,
      'live market-breadth --csv': 0,
      'lock <home>/study.lock.json --latest 1': expect.toSatisfy(integrity),
      'study event': 6,
    });
    // Nothing unverified is imported: Prism's bytes cannot match the manifest's checksums.
    expect(count.code).toBe(0);
    expect(JSON.parse(count.stdout)).toEqual([{ n: 0 }]);
    expect(await catalogCounts(home)).toEqual({ releases: 0, release_files: 0, market_events: 0 });
    expect(await filesUnder(path.join(home, 'store'))).toEqual([]);
    // A failed lock leaves no lock file behind.
    if (lock.code !== 0) await expect(access(lockFile)).rejects.toThrow();
    // The key never shows in any output.
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
  }, COMMANDS_TIMEOUT_MS);
});

describe('Prism as a user runs it, on the unmodified rdw openapi output', () => {
  it('rdw doctor passes the service checks and rdw pull refuses what it cannot verify, with only RDW_BASE_URL and RDW_API_KEY', async () => {
    const server = servers.static!;
    const folder = path.join(workDir, 'user');
    await mkdir(folder, { recursive: true });

    // doctor: base URL, key and plan answered under /v1 (exit 0; only the Jupyter kernel may warn).
    const doctor = await rdw(server, folder, ['doctor'], false);
    expect(doctor.code, `${doctor.stdout}${doctor.stderr}`).toBe(0);
    const line = (check: string) => doctor.stdout.split('\n').find((text) => text.includes(`  ${check}  `)) ?? '';
    expect(line('base URL')).toMatch(new RegExp(`^ok +base URL +${server.baseUrl.replace(/[./]/g, '\\$&')} answered \\(HTTP 401 to a request without a key\\)`));
    expect(line('key')).toMatch(/^ok +key +RDW_API_KEY was accepted/);
    expect(line('plan and limits')).toMatch(/^ok +plan and limits +.+paid scope open, latest release /);
    expect(doctor.stdout).not.toMatch(/404|not found/i);

    // releases: Prism's example listing, whole IDs under --json.
    const listing = await rdw(server, folder, ['releases', '--json'], false);
    expect(listing.code).toBe(0);
    const listed = JSON.parse(listing.stdout) as { id: string }[];
    expect(listed.length).toBeGreaterThan(0);

    // pull: every file is found under /v1, but Prism's bytes are no release's: refused as an integrity
    // failure (exit 3), one sentence per release and the summary; nothing imported, nothing stored.
    const pull = await rdw(server, folder, ['pull', '--latest', '1'], false);
    expect(pull.code, pull.stderr).toBe(3);
    expect(pull.stdout).toBe('');
    expect(rdwLines(pull)).toEqual([expect.stringMatching(/^rdw: The \w+ file of release \S+ has \d+ bytes but \d+ were expected; nothing was kept/), 'rdw: The release could not be pulled; nothing was imported.']);
    expect(pull.stderr).not.toMatch(/404|not found/i);
    const home = path.join(folder, 'datasets');
    expect(await catalogCounts(home)).toEqual({ releases: 0, release_files: 0, market_events: 0 });
    expect(await filesUnder(path.join(home, 'store'))).toEqual([]);
    for (const run of [doctor, listing, pull]) expect(`${run.stdout}${run.stderr}`).not.toContain(API_KEY);
  }, COMMANDS_TIMEOUT_MS);
});
