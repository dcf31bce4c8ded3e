// `rdw mock`: the one JSON ready line, a clean exit 0 on SIGTERM, usage errors (exit 2) for bad flags.

import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEEDED_KEY_NAMES } from '../../src/mock/index.js';
import { createMockCommand } from '../../src/cli/commands/mock.js';
import { runCli } from '../../src/cli/run-cli.js';
import { errorOf, get } from '../mock/server/http.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function output() {
  let text = '';
  return { stream: { write: (chunk: string) => void (text += chunk), isTTY: false }, text: () => text };
}

/** Runs `rdw mock ...` in-process; the server stops when `stop` resolves. */
async function runMock(args: string[], cwd = root) {
  let stop!: (signal: string) => void;
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const stdout = output();
  const stderr = output();
  const command = createMockCommand({
    waitForStop: () => {
      started();
      return stopped;
    },
  });
  const exit = runCli(['mock', ...args], { commands: [command], stdout: stdout.stream, stderr: stderr.stream, cwd });
  await Promise.race([ready, exit]);
  return { exit, stop, stdout: stdout.text, stderr: stderr.text };
}

describe('rdw mock (spawned)', () => {
  it('prints exactly one parseable JSON line once listening, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'mock', '--json', '--port', '0', '--days', '120'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = performance.now();
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const startup = performance.now() - started;
    const ready = JSON.parse(first) as { baseUrl: string; siteUrl: string; keys: Record<string, string> };
    expect(Object.keys(ready)).toEqual(['baseUrl', 'siteUrl', 'keys']);
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(ready.baseUrl).toBe(`${ready.siteUrl}/v1`);
    expect(Object.keys(ready.keys).sort()).toEqual([...SEEDED_KEY_NAMES].sort());
    const releases = await get(`${ready.baseUrl}/releases?limit=2`, ready.keys.researcher);
    expect(releases.status).toBe(200);
    expect((releases.json as { items: unknown[] }).items).toHaveLength(2);
    expect(errorOf(await get(`${ready.baseUrl}/catalog`, ready.keys.free)).status).toBe(403);
    const more: string[] = [];
    lines.on('line', (line) => more.push(line));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(more).toEqual([]);
    // node + tsx start-up included; the server itself generates nothing before the first request
    expect(startup).toBeLessThan(10_000);
  }, 30_000);
});

describe('rdw mock (in-process)', () => {
  it('prints a human summary without any key, and stops cleanly', async () => {
    const run = await runMock(['--port', '0', '--days', '2', '--seed', '7', '--now', '2026-06-01T00:00:00Z']);
    const text = run.stdout();
    expect(text).toContain('rdw mock: serving');
    expect(text).not.toMatch(/rdw_sk_[A-Za-z0-9]{32}/);
    const baseUrl = /at (http:\/\/\S+\/v1)/.exec(text)![1]!;
    expect((await get(`${baseUrl}/research/catalog`)).status).toBe(401);
    run.stop('SIGINT');
    expect(await run.exit).toBe(0);
    await expect(fetch(`${baseUrl}/research/catalog`)).rejects.toThrow();
  });

  it('reads --limits and --faults files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rdw-mock-'));
    await writeFile(path.join(dir, 'limits.json'), JSON.stringify({ researcher: { daily_bytes: 0 } }));
    await writeFile(path.join(dir, 'faults.json'), JSON.stringify([{ format: 'csv', kind: 'status503' }]));
    const run = await runMock(['--json', '--port', '0', '--days', '2', '--limits', 'limits.json', '--faults', 'faults.json'], dir);
    const ready = JSON.parse(run.stdout()) as { baseUrl: string; keys: Record<string, string> };
    const [release] = ((await get(`${ready.baseUrl}/releases?limit=1`, ready.keys.desk)).json as { items: [{ id: string }] }).items;
    expect((await get(`${ready.baseUrl}/download/${release.id}/csv`, ready.keys.desk)).status).toBe(503);
    expect(errorOf(await get(`${ready.baseUrl}/download/${release.id}/json`, ready.keys.researcher)).code).toBe('daily_byte_limit');
    run.stop('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it.each([
    ['--port', 'abc'],
    ['--port', '70000'],
    ['--days', '0'],
    ['--days', '1.5'],
    ['--seed', '-3'],
    ['--now', 'yesterday'],
    ['--limits', 'missing-file.json'],
    ['--faults', 'missing-file.json'],
    ['--bogus', 'x'],
  ])('%s %s is a usage error (exit 2)', async (flag, value) => {
    const stderr = output();
    const code = await runCli(['mock', flag, value], { commands: [createMockCommand({ waitForStop: () => Promise.resolve('test') })], stderr: stderr.stream, cwd: root });
    expect(code).toBe(2);
    expect(stderr.text()).toMatch(/^rdw: /);
  });

  it.each([['a name no resolver knows', 'no-such-host.invalid'], ['an address with a port', '127.0.0.1:80'], ['a name with a space', 'bad host']])(
    'refuses --host of %s with exit 2 in one sentence, not as a bug to report',
    async (_name, host) => {
      // It said "rdw failed unexpectedly: getaddrinfo ENOTFOUND bad host. Run again with RDW_DEBUG=1 …, and report it." (exit 1).
      const never = createMockCommand({ waitForStop: () => Promise.resolve('test') });
      const stderr = output();
      expect(await runCli(['mock', '--port', '0', '--host', host, '--json'], { commands: [never], stderr: stderr.stream, cwd: root })).toBe(2);
      expect(JSON.parse(stderr.text()).error).toMatchObject({ code: 'RDW_CLI_USAGE', exitCode: 2, message: expect.stringMatching(new RegExp(`^--host ${host.replace(/\./g, '\\.')} is not an address nor a host name this machine can resolve;`)) });
    },
  );

  it('refuses invalid limits and fault rules in files (exit 2)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'rdw-mock-'));
    await writeFile(path.join(dir, 'limits.json'), JSON.stringify({ researcher: { rpm: -1 } }));
    await writeFile(path.join(dir, 'faults.json'), JSON.stringify([{ kind: 'explode' }]));
    await writeFile(path.join(dir, 'object.json'), JSON.stringify({ kind: 'corrupt' }));
    const never = createMockCommand({ waitForStop: () => Promise.resolve('test') });
    for (const args of [['--limits', 'limits.json'], ['--faults', 'faults.json'], ['--faults', 'object.json']]) {
      expect(await runCli(['mock', '--port', '0', ...args], { commands: [never], cwd: dir }), args.join(' ')).toBe(2);
    }
  });
});
