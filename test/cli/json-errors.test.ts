// Every kind of failure under --json, through the built CLI against a real mock on 127.0.0.1: every stderr line
// is a JSON object, the last the one {"error":{"code","exitCode","message"}} (no `rdw:` line, no stack trace; a
// wait or retry before it is a {"notice"} line), and its exitCode is the process's exit code. Also the reports
// that fail (pull, verify, doctor).

import { appendFile, chmod, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';
import { jsonError, jsonNotices } from '../support/json-stderr.js';

let mock: MockServer;
let limited: MockServer;
let home: { home: string; remove(): Promise<void> };
let empty: { home: string; remove(): Promise<void> };
let ids: string[];

const env = (server: MockServer, key = server.keys.desk, at = home.home) => ({ RDW_BASE_URL: server.baseUrl, RDW_API_KEY: key, RDW_HOME: at });

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 4 });
  limited = await startMockServer({ port: 0, days: 2, limits: { desk: { daily_bytes: 20_000 } } });
  home = await createTempHome();
  empty = await createTempHome();
  const pulled = await runBuiltCli(['--json', 'pull', '--latest', '2'], { env: env(mock) });
  expect(pulled.code).toBe(0);
  ids = (JSON.parse(pulled.stdout) as { pulled: { id: string }[] }).pulled.map((release) => release.id);
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await limited?.close();
  await home?.remove();
  await empty?.remove();
});

describe('rdw --json: a failure is one JSON object, the last line on stderr; notices before it are objects too', () => {
  const UNKNOWN_ID = 'f'.repeat(64);
  it.each([
    ['a usage error', () => ({ argv: ['ls', '--bogus', '--json'], env: env(mock) }), 'RDW_CLI_USAGE', 2],
    ['an unknown command', () => ({ argv: ['--json', 'nope'], env: env(mock) }), 'RDW_CLI_USAGE', 2],
    ['a command flag before the command', () => ({ argv: ['--json', '--limit', '1', 'releases'], env: env(mock) }), 'RDW_CLI_USAGE', 2],
    ['--latest beyond the listing', () => ({ argv: ['pull', '--latest', '300', '--json'], env: env(mock) }), 'RDW_CLI_USAGE', 2],
    ['rdw mock on a port in use', () => ({ argv: ['--json', 'mock', '--port', new URL(mock.baseUrl).port], env: env(mock) }), 'RDW_CLI_USAGE', 2],
    ['a missing catalog', () => ({ argv: ['--json', 'study', 'event'], env: env(mock, mock.keys.desk, path.join(empty.home, 'none')) }), 'RDW_NO_CATALOG', 1],
    ['a refused key', () => ({ argv: ['--json', 'releases'], env: env(mock, 'rdw_sk_' + 'x'.repeat(32)) }), 'RDW_UNAUTHORIZED', 4],
    ['a key without a plan', () => ({ argv: ['releases', '--json'], env: env(mock, mock.keys.free) }), 'RDW_FORBIDDEN', 4],
    ['an unknown dataset', () => ({ argv: ['--json', 'research', 'get', 'no-such-dataset'], env: env(mock) }), 'RDW_API_NOT_FOUND', 6],
    ['the daily byte budget', () => ({ argv: ['--json', 'pull', '--latest', '1'], env: env(limited, limited.keys.desk, empty.home) }), 'RDW_BYTE_BUDGET', 5],
    ['a release that is not there, beside one that is (pull reports both on stdout)', () => ({ argv: ['--json', 'pull', ids[0]!, UNKNOWN_ID], env: env(mock) }), 'RDW_API_NOT_FOUND', 6],
    ['a failed doctor check (the report on stdout)', () => ({ argv: ['--json', 'doctor'], env: env(mock, 'rdw_sk_' + 'x'.repeat(32)) }), 'RDW_DOCTOR_KEY', 4],
  ] as const)('%s', async (_label, setUp, code, exitCode) => {
    const { argv, env: runEnv } = setUp();
    const run = await runBuiltCli(argv, { env: runEnv });
    expect(run.code).toBe(exitCode);
    expect(jsonError(run).code).toBe(code);
    if (argv.includes(UNKNOWN_ID)) {
      expect(jsonError(run).message).toMatch(/^1 of 2 releases could not be pulled; the other 1 is complete\. /);
      expect((JSON.parse(run.stdout) as { failed: { id: string }[] }).failed.map((failure) => failure.id)).toEqual([UNKNOWN_ID]);
    } else if (argv.includes('pull') && exitCode === 5) {
      // The pull's report on stdout names the same failure.
      expect((JSON.parse(run.stdout) as { failed: { code: string }[] }).failed.map((failure) => failure.code)).toEqual([code]);
    } else if (argv.includes('doctor')) expect((JSON.parse(run.stdout) as { ok: boolean }).ok).toBe(false);
    else expect(run.stdout).toBe('');
  }, 60_000);

  it('a network failure: each retry wait is a notice object, then the final error (exit 1)', async () => {
    const run = await runBuiltCli(['--json', 'releases'], { env: { RDW_BASE_URL: 'http://127.0.0.1:1/v1', RDW_API_KEY: mock.keys.desk, RDW_HOME: empty.home } });
    expect(jsonError(run, 'some')).toMatchObject({ code: 'RDW_NETWORK', exitCode: 1 });
    const notices = jsonNotices(run);
    expect(notices.length).toBeGreaterThan(0);
    for (const notice of notices) expect(notice).toMatch(/retrying in /);
    const plain = await runBuiltCli(['releases'], { env: { RDW_BASE_URL: 'http://127.0.0.1:1/v1', RDW_API_KEY: mock.keys.desk, RDW_HOME: empty.home } });
    // Without --json the waits are said, one line each, then the error.
    expect(plain.stderr).toMatch(/retrying in .*\n(.*\n)*rdw: The connection failed/);
  }, 60_000);

  it('an altered stored file: verify --json prints its report on stdout and the one error object (exit 3)', async () => {
    const store = path.join(home.home, 'store', 'sha256');
    const [prefix] = await readdir(store);
    const [name] = await readdir(path.join(store, prefix!));
    const file = path.join(store, prefix!, name!);
    await chmod(file, 0o644);
    await appendFile(file, 'x');
    const run = await runBuiltCli(['verify', '--json'], { env: env(mock) });
    expect(jsonError(run)).toMatchObject({ code: 'RDW_STORE_MISMATCH', exitCode: 3 });
    expect(jsonError(run).message).toContain(name);
    expect((JSON.parse(run.stdout) as { ok: boolean }).ok).toBe(false);
    const repaired = await runBuiltCli(['--json', 'verify', '--repair'], { env: env(mock) });
    expect(repaired).toMatchObject({ code: 0, stderr: '' });
  }, 60_000);

  it('an environment failure is said the same way: a home that is a file (exit 1)', async () => {
    const file = path.join(empty.home, 'a-file');
    await writeFile(file, 'x');
    const run = await runBuiltCli(['--json', 'ls'], { env: env(mock, mock.keys.desk, file) });
    expect(jsonError(run)).toMatchObject({ code: 'RDW_NOT_A_FOLDER', exitCode: 1 });
  }, 60_000);
});
