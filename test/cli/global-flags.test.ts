// Global flags before or after the command (`rdw --json ls` = `rdw ls --json`, `--home X` either side), a
// failure under --json as one JSON object on stderr, and the refusals that explain the 100-release listing.

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { Command } from '../../src/cli/command.js';
import { COMMAND_LINES } from '../../src/cli/flags.js';
import type { MockServer } from '../../src/mock/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { createTempHome } from '../support/temp-home.js';
import { jsonError } from '../support/json-stderr.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let mock: MockServer;
let home: { home: string; remove(): Promise<void> };
let ids: string[];

/** `rdw <argv>` in-process against the mock with the desk key; no RDW_HOME, so the home is only what argv says. */
async function rdw(argv: string[], commands?: readonly Command[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: path.dirname(home.home),
    ...(commands === undefined ? {} : { commands }),
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, days: 3 });
  home = await createTempHome();
  const pulled = await rdw(['pull', '--latest', '2', '--home', home.home, '--json']);
  expect(pulled.code).toBe(0);
  ids = (JSON.parse(pulled.stdout) as { pulled: { id: string }[] }).pulled.map((release) => release.id);
}, 60_000);

afterAll(async () => {
  await mock?.close();
  await home?.remove();
});

describe('global flags before or after the command', () => {
  it('rdw --json ls, rdw ls --json, --home either side and as --home=DIR: the same JSON of the same home', async () => {
    const forms = [
      ['--json', 'ls', '--home', home.home],
      ['ls', '--json', '--home', home.home],
      ['--home', home.home, '--json', 'ls'],
      ['--json', `--home=${home.home}`, 'ls'],
      ['--home', home.home, 'ls', '--json'],
    ];
    const runs = await Promise.all(forms.map((argv) => rdw(argv)));
    for (const run of runs) {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toBe(runs[0]!.stdout);
    }
    expect((JSON.parse(runs[0]!.stdout) as { id: string }[]).map((release) => release.id).sort()).toEqual([...ids].sort());
  });

  it('takes --base-url first too, and a command flag after the command only', async () => {
    const first = await rdw(['--base-url', mock.baseUrl, '--json', 'releases', '--limit', '1', '--home', home.home]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toHaveLength(1);
    const misplaced = await rdw(['--limit', '1', 'releases', '--home', home.home]);
    expect(misplaced.code).toBe(2);
    expect(misplaced.stderr).toBe(
      'rdw: Unknown flag "--limit" before the command: only the global flags (--base-url, --home, --json, --help) may come first. Run "rdw --help" to see the commands.\n',
    );
  });

  it('keeps `rdw --json help ls` and `rdw --json ls --help` as the help page of ls', async () => {
    const page = (await rdw(['ls', '--help'])).stdout;
    expect(page.startsWith('Usage: rdw ls [flags]\n')).toBe(true);
    expect((await rdw(['--json', 'help', 'ls'])).stdout).toBe(page);
    expect((await rdw(['--json', 'ls', '--help'])).stdout).toBe(page);
  });
});

describe('global flags with every command', () => {
  // Each command's own command line, with a run that only records what the runner made of the global flags.
  it.each(Object.keys(COMMAND_LINES))('rdw %s: --json, --home and --base-url before, after, or as --flag=VALUE', async (name) => {
    const seen: { json: boolean; home: string; baseUrl: string | undefined }[] = [];
    const spy: Command = {
      name,
      line: COMMAND_LINES[name as keyof typeof COMMAND_LINES],
      run: (context) => Promise.resolve(void seen.push({ json: context.json, home: context.home, baseUrl: context.baseUrl })),
    };
    const globals = ['--json', '--home', home.home, '--base-url', 'http://127.0.0.1:9/v1'];
    for (const argv of [
      [...globals, name],
      [name, ...globals],
      ['--json', name, `--home=${home.home}`, '--base-url=http://127.0.0.1:9/v1'],
      ['--home', home.home, name, '--base-url', 'http://127.0.0.1:9/v1', '--json'],
    ]) {
      expect(await rdw(argv, [spy]), argv.join(' ')).toEqual({ code: 0, stdout: '', stderr: '' });
    }
    expect(seen).toEqual(Array.from({ length: 4 }, () => ({ json: true, home: home.home, baseUrl: 'http://127.0.0.1:9/v1' })));
  });
});

describe('errors under --json', () => {
  it('a usage error is one JSON object on stderr, nothing on stdout; without --json the same sentence as one line', async () => {
    const json = await rdw(['--json', 'ls', '--bogus', '--home', home.home]);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    const error = jsonError(json);
    expect(error.code).toBe('RDW_CLI_USAGE');
    const text = await rdw(['ls', '--bogus', '--home', home.home]);
    expect(text.stderr).toBe(`rdw: ${error.message}\n`);
  });

  it('says the code of the typed error: a failed query (2), an unknown dataset (6), an unknown command (2)', async () => {
    const query = await rdw(['sql', 'SELECT * FROM no_such_table', '--json', '--home', home.home]);
    expect(jsonError(query)).toMatchObject({ code: 'RDW_CLI_USAGE', exitCode: 2 });
    expect(jsonError(query).message).toMatch(/^The query failed: .*no_such_table/);
    const dataset = await rdw(['--json', 'research', 'get', 'no-such-dataset', '--home', home.home]);
    expect(jsonError(dataset)).toMatchObject({ code: 'RDW_API_NOT_FOUND', exitCode: 6 });
    expect((await rdw(['--json', 'nope'])).stderr).toBe(
      `${JSON.stringify({ error: { code: 'RDW_CLI_USAGE', exitCode: 2, message: 'Unknown command "nope". Run "rdw --help" to see the commands.' } })}\n`,
    );
  });

  it.runIf(process.platform === 'linux')('says a home or output folder the file system refuses (/proc), where Node would spin forever', async () => {
    const refusedHome = await rdw(['--json', 'pull', '--latest', '1', '--home', '/proc/rdw-no-home']);
    expect(jsonError(refusedHome)).toMatchObject({ code: 'RDW_PERMISSION_DENIED', exitCode: 1 });
    expect(jsonError(refusedHome).message).toMatch(/^The file system refused to create the folder \/proc\/rdw-no-home /);
    const refusedExport = await rdw(['export', '/proc/rdw-no-export', '--home', home.home]);
    expect(refusedExport.code).toBe(1);
    expect(refusedExport.stderr).toMatch(/^rdw: The file system refused to create the folder \/proc\/rdw-no-export /);
  });

  it('says an environment failure and a bug the same way (a file where the home must be; RDW_UNEXPECTED)', async () => {
    const file = path.join(home.home, 'not-a-folder');
    await writeFile(file, 'x');
    const environment = await rdw(['--json', 'ls', '--home', file]);
    expect(jsonError(environment)).toMatchObject({ code: 'RDW_NOT_A_FOLDER', exitCode: 1 });
    expect(jsonError(environment).message).toContain(file);
    const broken: Command = { name: 'broken', line: COMMAND_LINES.ls, run: () => Promise.reject(new TypeError('x is undefined')) };
    const bug = await rdw(['--json', 'broken'], [broken]);
    expect(jsonError(bug)).toMatchObject({ code: 'RDW_UNEXPECTED', exitCode: 1 });
    expect(jsonError(bug).message).toContain('x is undefined');
  });
});

describe('refusals that explain the 100-release listing', () => {
  it.each([
    [['pull', '--latest', '300'], 'latest'],
    [['releases', '--limit', '300'], 'limit'],
    [['lock', 'study.lock.json', '--latest', '101'], 'latest'],
  ])('rdw %j: exit 2 before any request, saying why and how to get older releases', async (argv, flag) => {
    const before = mock.requestLog.length;
    const run = await rdw([...argv, '--home', home.home]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `rdw: --${flag} must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging). ` +
        'An older release can only be pulled by its ID: rdw pull <RELEASE_ID...> (e.g. from an earlier listing or a study lock).\n',
    );
    expect(mock.requestLog.length).toBe(before);
  });
});
