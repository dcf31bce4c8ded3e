// One home-folder resolution for the CLI and the workbench (src/workbench/resolve-home.ts): the same folder
// for the same flag/option, RDW_HOME and working directory, and the same refusal (exit 2) for an empty value.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { Command } from '../../src/cli/command.js';
import { openWorkbench, resolveHome, WorkbenchOptionError } from '../../src/workbench/index.js';
import { captureOutput } from '../support/capture-output.js';
import { withTempHome } from '../support/temp-home.js';

/** Prints the home the CLI resolved. */
const whereCommand: Command = {
  name: 'where',
  line: { summary: 'Prints the home folder.', operands: '', flags: [] },
  async run(context) {
    context.stdout.write(context.home);
  },
};

async function cliHome(flag: string | undefined, env: Record<string, string>, cwd: string) {
  const out = captureOutput();
  const err = captureOutput();
  const code = await runCli(['where', ...(flag === undefined ? [] : ['--home', flag])], { commands: [whereCommand], stdout: out.output, stderr: err.output, env, cwd });
  return { code, home: out.text(), stderr: err.text() };
}

function workbenchHome(flag: string | undefined, env: Record<string, string>, cwd: string): { home?: string; error?: unknown } {
  try {
    return { home: resolveHome({ flag, env, cwd }) };
  } catch (error) {
    return { error };
  }
}

describe('the home folder, resolved one way', () => {
  it.each([
    ['flag over RDW_HOME', 'h', { RDW_HOME: '/e' }, '/w/h'],
    ['absolute flag', '/abs/h', {}, '/abs/h'],
    ['RDW_HOME', undefined, { RDW_HOME: 'e' }, '/w/e'],
    ['absolute RDW_HOME', undefined, { RDW_HOME: '/e' }, '/e'],
    ['./datasets by default', undefined, {}, '/w/datasets'],
    ['flag over an empty RDW_HOME', 'h', { RDW_HOME: '' }, '/w/h'],
    // No shell expands the ~ of --home=~/data or of a crontab's RDW_HOME=~/data: it went to /w/~/data.
    ['a flag under ~ (--home=~/data)', '~/data', { HOME: '/u' }, '/u/data'],
    ['a flag of ~ alone', '~', { HOME: '/u' }, '/u'],
    ['RDW_HOME under ~ (a crontab line)', undefined, { RDW_HOME: '~/rdw-data', HOME: '/u' }, '/u/rdw-data'],
    ['./~ names a folder named ~', './~/data', { HOME: '/u' }, '/w/~/data'],
    ['~user is a name, not expanded', '~user/data', { HOME: '/u' }, '/w/~user/data'],
  ] as const)('%s: the CLI and the workbench agree', async (_case, flag, env, expected) => {
    const cli = await cliHome(flag, env, '/w');
    expect(cli.code).toBe(0);
    expect(cli.home).toBe(path.resolve(expected));
    expect(workbenchHome(flag, env, '/w').home).toBe(cli.home);
  });

  it.each([
    ['an empty flag', '', {}, '--home', 'home'],
    ['a blank flag', '  ', { RDW_HOME: '/e' }, '--home', 'home'],
    ['an empty RDW_HOME', undefined, { RDW_HOME: '' }, 'RDW_HOME', 'RDW_HOME'],
    ['a blank RDW_HOME', undefined, { RDW_HOME: ' ' }, 'RDW_HOME', 'RDW_HOME'],
  ] as const)('%s: both refuse with exit 2, naming the setting', async (_case, flag, env, cliSetting, workbenchSetting) => {
    const cli = await cliHome(flag, env, '/w');
    expect(cli.code).toBe(2);
    expect(cli.home).toBe('');
    expect(cli.stderr).toMatch(new RegExp(`^rdw: ${cliSetting} is empty; give the folder that holds catalog.duckdb and store/ [^\\n]+, or leave it out for ./datasets.\\n$`));
    const { error } = workbenchHome(flag, env, '/w');
    expect(error).toBeInstanceOf(WorkbenchOptionError);
    expect(error).toMatchObject({ code: 'RDW_WORKBENCH_OPTION', exitCode: 2, option: 'home' });
    expect((error as Error).message.startsWith(`${workbenchSetting} is empty; `)).toBe(true);
    // The sentence for RDW_HOME is word for word the CLI's.
    if (flag === undefined) expect(cli.stderr).toBe(`rdw: ${(error as Error).message}\n`);
  });

  it('openWorkbench opens the folder the CLI resolves for the same RDW_HOME', async () => {
    await withTempHome(async (home) => {
      const env = { RDW_HOME: home };
      const workbench = await openWorkbench({ env });
      try {
        expect(workbench.home).toBe((await cliHome(undefined, env, process.cwd())).home);
      } finally {
        await workbench.close();
      }
    });
  });
});
