// Every command's output path when the reader goes early (`rdw … | head -1`, or a reader gone before the first
// write): the built CLI exits 0 with nothing on stderr (no EPIPE stack trace), against a real mock on 127.0.0.1
// and a real catalog.

import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { MockServer } from '../../src/mock/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { BUILT_CLI } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

interface PipedRun {
  /** rdw's exit code (bash's PIPESTATUS[0]). */
  code: number;
  /** What the reader printed. */
  head: string;
  /** rdw's stderr. */
  stderr: string;
}

let mock: MockServer;
let home: { home: string; remove(): Promise<void> };

/**
 * Runs `node dist/cli/main.js ...argv | <reader>` (a shell command) in bash with the mock's desk key and the test home. `true`
 * exits at once, so every write of rdw meets a closed pipe (EPIPE for sure, whatever the output's size).
 */
function rdwInto(reader: string, argv: readonly string[]): Promise<PipedRun> {
  return new Promise((resolve, reject) => {
    const script = `"${process.execPath}" "${BUILT_CLI}" "$@" 2>"$RDW_TEST_ERR" | ${reader}; echo "rdw-exit=\${PIPESTATUS[0]}"`;
    const errFile = `${home.home}/stderr.txt`;
    const env = { PATH: process.env.PATH ?? '', RDW_HOME: home.home, RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, RDW_TEST_ERR: errFile };
    const child = spawn('bash', ['-c', script, 'bash', ...argv], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', async () => {
      const { readFile } = await import('node:fs/promises');
      const match = /rdw-exit=(\d+)\n$/.exec(out);
      resolve({ code: match === null ? -1 : Number(match[1]), head: out.replace(/rdw-exit=\d+\n$/, ''), stderr: await readFile(errFile, 'utf8') });
    });
  });
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 6 });
  home = await createTempHome();
  const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, RDW_HOME: home.home };
  expect(await runCli(['pull', '--latest', '6'], { env })).toBe(0);
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await home?.remove();
});

/** Label, argv, how the first line starts (`rdw openapi | head` is test/cli/process-output.test.ts). */
const COMMANDS: [string, string[], string][] = [
  ['sql, a 1.5 MB table', ['sql', "SELECT range AS n, repeat('x', 40) AS pad FROM range(30000)"], 'n'],
  ['research catalog', ['research', 'catalog'], 'Current public research snapshots'],
  ['ls', ['ls'], 'id '],
  ['releases', ['releases'], 'id '],
];

describe('rdw … | head -1', () => {
  // The sql outputs are far larger than a pipe's 64 KiB buffer, so rdw writes after head has gone.
  it.each([...COMMANDS, ['sql --csv', ['sql', '--csv', 'SELECT * FROM market_events'], 'release_id,']] as const)('%s: the first line, exit 0, nothing on stderr', async (_label, argv, start) => {
    const run = await rdwInto('head -1', argv);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.head.split('\n')).toHaveLength(2); // one line and its newline
    // (A number column's header is right-aligned: `rdw sql`'s first line may start with its padding.)
    expect(run.head.trimStart().startsWith(start)).toBe(true);
  }, 60_000);
});

/** The other commands that print to stdout (with the arguments of a quick run), each into a reader already gone. */
const MORE: [string, string[]][] = [
  ['help', ['help']],
  ['help sql', ['help', 'sql']],
  ['--json ls', ['--json', 'ls']],
  ['verify', ['verify']],
  ['gc --dry-run', ['gc', '--dry-run']],
  ['pull (present)', ['pull', '--latest', '2']],
  ['research get', ['research', 'get', 'market-breadth']],
  ['research csv', ['research', 'csv', 'market-breadth']],
  ['live', ['live', 'market-breadth']],
  ['live --csv', ['live', 'market-breadth', '--csv']],
  ['study', ['study', 'event']],
  ['doctor', ['doctor']],
];

describe('rdw … into a reader already gone', () => {
  it.each(MORE)('%s: exit 0, nothing on stderr', async (_label, argv) => {
    const run = await rdwInto('true', argv);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);

  it("the README's rdw research catalog | rdw live …: the first ends quietly when the second has gone", async () => {
    const run = await rdwInto(`"${process.execPath}" "${BUILT_CLI}" live market-breadth >/dev/null`, ['research', 'catalog']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);

  it.each([...COMMANDS, ['sql --json', ['--json', 'sql', 'SELECT * FROM market_events'], '[{']] as const)('%s: exit 0, nothing on stderr', async (_label, argv) => {
    const run = await rdwInto('true', argv);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  }, 60_000);

  it('keeps a failure\'s exit code and sentence: an unknown table is exit 2 on stderr', async () => {
    const run = await rdwInto('true', ['sql', 'SELECT * FROM no_such_table']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^rdw: The query failed: .*no_such_table.*\n$/);
  }, 60_000);
});
