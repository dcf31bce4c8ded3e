// rdw as someone else's dependency (issue 19): pack it as `npm publish` would (prepack: a clean build), install
// the tarball into a temporary project from the local npm cache only, type-check a consumer's script under
// `strict` with `skipLibCheck: false`, and run it (mock fixture from rdw/mock, pull by ID, study, leakage guard,
// toDataFrame): once without danfojs (one sentence naming the package), once with it (a frame).
//
// The registry is never asked: the consumer's lock is cut from this repository's (test/support/consumer-lock.ts)
// and `npm ci --offline` takes every tarball from the cache this repository's `npm ci` filled.
// 74 s on 2 cores at load ≈ 4 (174 s at load ≈ 8): pack with its build 15 s, installs 6 s and 17 s, and per
// project a tsc over every dependency's declarations (skipLibCheck false) and the run.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisMessages } from '../../src/analysis/index.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { consumerLock } from '../support/consumer-lock.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURE = path.join(ROOT, 'test/package/fixtures/consumer');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];
const MINUTES = 60_000;

let temp: string;
let tarball: { file: string; path: string; integrity: string; manifest: Record<string, unknown> & { name: string; version: string } };
let packedFiles: string[];

/** `npm test`'s environment without what names this checkout (npm's local prefix, package and lifecycle). */
const ENV = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config_local_prefix|package_|lifecycle_)/i.test(name))), NO_COLOR: '1' };

/** Runs a command, returning its output; on failure, the error carries stdout and stderr for the report. */
async function sh(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: ENV });
}

beforeAll(async () => {
  temp = await makeTemporaryFolder('rdw-package-');
  // 1. A copy of what the build reads, so prepack's clean build never touches this checkout's dist/ (other
  //    test files import it while this one runs).
  const source = path.join(temp, 'source');
  for (const entry of ['package.json', 'README.md', 'tsconfig.json', 'src', 'docs']) cpSync(path.join(ROOT, entry), path.join(source, entry), { recursive: true });
  if (existsSync(path.join(ROOT, 'LICENSE'))) cpSync(path.join(ROOT, 'LICENSE'), path.join(source, 'LICENSE'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(source, 'node_modules'), 'dir');
  // 2. npm pack runs prepack (remove dist/, build) and writes the tarball.
  const started = performance.now();
  const { stdout } = await sh('npm', ['pack', '--pack-destination', temp, ...NPM_QUIET], source);
  console.log(`npm pack (prepack's clean build included): ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const file = stdout.trim().split('\n').at(-1)!;
  const bytes = readFileSync(path.join(temp, file));
  const listing = (await sh('tar', ['tzf', file], temp)).stdout;
  packedFiles = listing.trim().split('\n').map((entry) => entry.replace(/^package\//, ''));
  const manifest = JSON.parse((await sh('tar', ['xzf', file, 'package/package.json', '-O'], temp)).stdout);
  tarball = { file, path: path.join(temp, file), integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`, manifest };
}, 5 * MINUTES);

afterAll(async () => {
  if (temp) await removeTree(temp);
});

/** A consumer project: package.json, a lock from this repository's, the tarball; installed with `npm ci --offline`. */
async function installConsumer(name: string, extra: { dependencies?: Record<string, string>; overrides?: Record<string, string> } = {}) {
  const dir = path.join(temp, name);
  cpSync(FIXTURE, dir, { recursive: true });
  cpSync(tarball.path, path.join(dir, tarball.file));
  const consumer = {
    name,
    version: '1.0.0',
    dependencies: { rdw: `file:${tarball.file}`, ...extra.dependencies },
    devDependencies: { '@types/node': '^20.19.0' },
  };
  const pkg = { ...consumer, private: true, type: 'module', ...(extra.overrides ? { overrides: extra.overrides } : {}) };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  const repositoryLock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const lock = consumerLock({ repositoryLock, packedManifest: tarball.manifest, tarball: { file: tarball.file, integrity: tarball.integrity }, consumer });
  writeFileSync(path.join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  const started = performance.now();
  // loglevel warn: npm 11 warns there about a dependency's install-time scripts (a `prepare` counts).
  const install = await sh('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=warn'], dir);
  const seconds = (performance.now() - started) / 1000;
  const megabytes = Number((await sh('du', ['-sm', 'node_modules'], dir)).stdout.split('\t')[0]);
  console.log(`${name}: npm ci --offline ${seconds.toFixed(1)} s, node_modules ${megabytes} MiB`);
  return { dir, install };
}

/** Type-checks the consumer's script (strict, skipLibCheck false), emits it, runs it; its one JSON line. */
async function typeCheckAndRun(dir: string): Promise<Record<string, any>> {
  const compiled = await sh(process.execPath, [TSC, '-p', 'tsconfig.json'], dir).catch((error: { stdout: string }) => error);
  expect(compiled.stdout).toBe('');
  const { stdout } = await sh(process.execPath, ['out/consumer.js'], dir);
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('npm pack', () => {
  it('ships exactly package.json, README, docs/*.md and the built JS with its .d.ts: no maps, no sources, no scripts folder', () => {
    const other = packedFiles.filter((file) => !/^dist\/.+\.(js|d\.ts)$/.test(file) && !/^docs\/[\w.-]+\.md$/.test(file) && !['package.json', 'README.md', 'LICENSE'].includes(file));
    expect(other).toEqual([]);
    const js = packedFiles.filter((file) => file.endsWith('.js'));
    expect(packedFiles.filter((file) => file.endsWith('.d.ts')).sort()).toEqual(js.map((file) => file.replace(/\.js$/, '.d.ts')).sort());
    for (const entry of ['dist/index.js', 'dist/mock/index.js', 'dist/cli/main.js', 'docs/analysis.md']) expect(packedFiles).toContain(entry);
  });

  it('packs a manifest without danfojs among its dependencies and with no install-time script', () => {
    const { dependencies, peerDependenciesMeta, scripts } = tarball.manifest as Record<string, Record<string, any>>;
    expect(Object.keys(dependencies!)).not.toContain('danfojs');
    expect(peerDependenciesMeta!.danfojs.optional).toBe(true);
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts![script]).toBeUndefined();
  });
});

describe('a consumer project without danfojs', () => {
  it('installs from the cache alone, type-checks, runs a pull, a study and the leakage guard; toDataFrame names danfojs', async () => {
    const { dir, install } = await installConsumer('without-frames');
    expect(install.stderr).not.toMatch(/rdw@/); // npm names no install-time script of rdw's
    expect(existsSync(path.join(dir, 'node_modules/danfojs'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules/@tensorflow'))).toBe(false);

    const seen = await typeCheckAndRun(dir);
    expect(seen.ids).toHaveLength(3);
    expect(seen.listed).toEqual(seen.ids);
    expect(seen.pulled).toEqual(['imported', 'imported', 'imported']);
    expect(seen.failed).toBe(0);
    expect(seen.studied).toEqual([...seen.ids].sort());
    expect(seen.studyRows).toBeGreaterThan(0);
    expect(seen.leakage).toBe('RDW_LABEL_LEAKAGE return_pct_1h');
    expect(seen.frame).toEqual({ code: 'RDW_OPTIONAL_PACKAGE_MISSING', exitCode: 1, packageName: 'danfojs', message: analysisMessages.danfojsMissing() });

    // Under the older resolution (node10: `types` and `typesVersions`, no `exports`) both entry points keep their types.
    cpSync(path.join(FIXTURE, '..', 'consumer-node10'), path.join(dir, 'node10'), { recursive: true });
    const node10 = await sh(process.execPath, [TSC, '-p', 'node10/tsconfig.json'], dir).catch((error: { stdout: string }) => error);
    expect(node10.stdout).toBe('');

    // The bin works from the consumer's node_modules/.bin.
    const version = await sh(path.join(dir, 'node_modules/.bin/rdw'), ['--version'], dir);
    expect(version.stdout.trim()).toContain(tarball.manifest.version);
    // doctor does not send a package's user to "npm run kernel": the kernel comes with a checkout.
    const doctor = await sh(path.join(dir, 'node_modules/.bin/rdw'), ['doctor', '--json'], dir).catch((error: { stdout: string }) => error);
    const kernel = (JSON.parse(doctor.stdout) as { checks: { name: string; status: string; message: string }[] }).checks.find((check) => check.name === 'kernel')!;
    expect(kernel.status).toBe('ok');
    expect(kernel.message).toMatch(/^not checked: rdw at .+node_modules\/rdw is an installed package/);
  }, 5 * MINUTES);
});

describe('a consumer project with danfojs (and the xlsx override its message names)', () => {
  it('installs from the cache alone, type-checks under skipLibCheck false, and toDataFrame gives a frame', async () => {
    const { dir } = await installConsumer('with-frames', { dependencies: { danfojs: '1.2.0' }, overrides: { xlsx: '0.18.5' } });
    expect(existsSync(path.join(dir, 'node_modules/danfojs'))).toBe(true);

    const seen = await typeCheckAndRun(dir);
    expect(seen.pulled).toEqual(['imported', 'imported', 'imported']);
    expect(seen.leakage).toBe('RDW_LABEL_LEAKAGE return_pct_1h');
    expect(seen.frame).toEqual({ shape: [seen.studyRows, seen.studyColumns.length], columns: seen.studyColumns });
  }, 5 * MINUTES);
});
