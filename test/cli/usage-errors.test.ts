// Flags and operands the CLI itself refuses: exit 2, the same one sentence as before this layer had its own
// error, and `code` RDW_CLI_USAGE. Problems found by a lower layer (a malformed release ID, a study window)
// keep that layer's class and code.

import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { CliUsageError } from '../../src/cli/cli-errors.js';
import { GLOBAL_FLAGS } from '../../src/cli/flags.js';
import { checkFlags, parseCommandLine } from '../../src/cli/parse-flags.js';
import type { CliContext } from '../../src/cli/cli-context.js';
import { captureOutput } from '../support/capture-output.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

let cwd: string;
beforeAll(async () => {
  cwd = await makeTemporaryFolder('rdw-usage-');
});
afterAll(async () => {
  await removeTree(cwd);
});

const LOCK_USAGE = 'Usage: rdw lock <FILE> (<RELEASE_ID...> | --latest N): name a lock file and either release IDs or --latest N (not both).';

/** argv -> the sentence on stderr (after "rdw: "); every one is the CLI's own usage error. */
const CLI_REFUSALS: readonly (readonly [string[], string])[] = [
  [['releases', '--limit', '0'], '--limit must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  [['releases', '--limit', 'ten'], '--limit must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  [['pull', '--latest', '101'], '--latest must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  [['pull', '--latest', '2', '--concurrency', '17'], '--concurrency must be an integer from 1 to 16.'],
  [['pull'], 'Name release IDs to pull, or use --latest N (not both).'],
  [['pull', 'a'.repeat(64), '--latest', '1'], 'Name release IDs to pull, or use --latest N (not both).'],
  [['demo', '--latest=-1'], '--latest must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  // A value that starts with '-' after a space: an integer flag refuses it as it would --latest=-1, one sentence.
  [['pull', '--latest', '-1'], '--latest must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  // A flag none of whose values starts with '-' refuses the value itself (a new user's trial: the --embargo=-5
  // spelling it advised was then refused too); another keeps the spelling advice.
  [['study', 'model', '--embargo', '-5'], '--embargo "-5" is not valid: expected "auto" or a whole number of seconds, e.g. 3600.'],
  [['study', 'model', '--embargo=-5'], '--embargo "-5" is not valid: expected "auto" or a whole number of seconds, e.g. 3600.'],
  [['study', 'model', '--window', ''], '--window is empty; give one window for rdw study model: one of 15m, 1h, 4h, 24h, 7d.'],
  [['study', 'event', '--out', '-report'], "--out -report: a value that starts with '-' is read as a flag; write it --out=-report."],
  [['pull', '--latest'], '--latest needs a value (--latest VALUE). Run "rdw pull --help" for its usage.'],
  [['--home'], '--home needs a value (--home VALUE). Run "rdw --help" for its usage.'],
  [['lock', 'x.json', '--latest', '1.5'], '--latest must be an integer from 1 to 100: the API lists only the latest 100 releases (newest day first, no offset or paging).'],
  [['lock'], LOCK_USAGE],
  [['lock', 'x.json'], LOCK_USAGE],
  [['reproduce'], 'Usage: rdw reproduce <FILE>: name one study lock file.'],
  [['export'], 'Give the folder (or s3://bucket/prefix) to export to, e.g. rdw export ./export.'],
  [['sql'], 'Give exactly one SQL query in quotes, e.g. rdw sql "SELECT count(*) FROM market_events".'],
  [['sql', '  '], 'Give exactly one SQL query in quotes, e.g. rdw sql "SELECT count(*) FROM market_events".'],
  [['study', 'nope'], 'Unknown study "nope"; the studies are: event, model. Run "rdw study --help".'],
  [['research'], 'Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".'],
  [['research', 'catalog', 'extra'], 'Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".'],
  // A new user's trial: a typo of an action, and a get without its dataset, had said the usage alone (session 43).
  [['research', 'catalg'], 'Unknown research action "catalg"; did you mean "catalog"? Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".'],
  // A mistyped study names the nearest one; a study given an extra word names that word, not "Unknown study "event"".
  [['study', 'evnt'], 'Unknown study "evnt" (did you mean "event"?); the studies are: event, model. Run "rdw study --help".'],
  [['study', 'regression'], 'Unknown study "regression"; the studies are: event, model. Run "rdw study --help".'],
  [['study', 'event', '1h'], 'rdw study event takes no other argument, but "1h" was given; options start with -- (run "rdw study --help").'],
  [['research', 'list'], 'Unknown research action "list". Use "rdw research catalog", "rdw research get <DATASET_ID>" or "rdw research csv <DATASET_ID>".'],
  [['research', 'get'], 'rdw research get needs a dataset ID: rdw research get <DATASET_ID> (rdw research catalog lists them).'],
  [['research', 'csv'], 'rdw research csv needs a dataset ID: rdw research csv <DATASET_ID> (rdw research catalog lists them).'],
  [['live'], 'Give one page key: rdw live <PAGE_KEY>, where the live pages are market-breadth, funding-pressure (e.g. rdw live market-breadth; add --csv for CSV rows).'],
  [['kernel'], 'Use "rdw kernel install" to register the TypeScript kernel.'],
  [['mock', '--port', 'abc'], '--port "abc" is not valid: expected an integer 0-65535.'],
  [['mock', '--days', '0'], '--days "0" is not valid: expected an integer 1-3650.'],
  [['mock', '--seed=-3'], '--seed "-3" is not valid: expected an integer 0-2147483647.'],
  [['mock', '--now', 'yesterday'], '--now "yesterday" is not valid: expected an ISO time such as 2026-11-01T00:00:00Z, or UTC Unix seconds.'],
  [['mock', '--host', ''], '--host "" is not valid: expected a host name or address.'],
  [['mock', '--limits', 'missing.json'], 'Could not read --limits missing.json: '],
  [['ls', 'extra'], 'Unexpected argument \'extra\'. This command does not take positional arguments. Run "rdw ls --help" for its usage.'],
  // A new user's trial: `--window 1h --window 4h` studied 4h alone, and `pull --latest 3 --latest 4` pulled 4, saying
  // nothing (node:util parseArgs keeps the last). A value flag given twice with different values is refused.
  [['study', 'event', '--window', '1h', '--window', '4h'], '--window was given 2 times (1h, 4h), and only one value is read: give it once; for several, one comma-separated list: --window 1h,4h.'],
  [['pull', '--latest', '3', '--latest=4'], '--latest was given 2 times (3, 4), and only one value is read: give it once.'],
  [['--home', 'a', 'ls', '--home', 'b'], '--home was given 2 times (a, b), and only one value is read: give it once.'],
  [['releases', '--bogus'], "Unknown option '--bogus'."],
  [['nope'], 'Unknown command "nope". Run "rdw --help" to see the commands.'],
  [['help', 'nope'], 'Unknown command "nope". Run "rdw --help" to see the commands.'],
];

/** What the runner does for a known command, step by step, returning the error instead of printing it. */
async function errorOf(argv: readonly string[]): Promise<unknown> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) throw new Error(`not a command: ${name}`);
  try {
    const flags = [...GLOBAL_FLAGS, ...command.line.flags];
    const parsed = parseCommandLine(command.name, flags, command.line.operands !== '', rest);
    const context: CliContext = {
      env: {},
      stdout: captureOutput().output,
      stderr: captureOutput().output,
      json: false,
      home: path.join(cwd, 'home'),
      baseUrl: undefined,
      siteUrl: undefined,
      cwd,
      onExit: () => {},
    };
    await command.run(context, { values: checkFlags(command.line.flags, parsed.values), positionals: parsed.positionals });
    return undefined;
  } catch (error) {
    return error;
  }
}

async function rdw(argv: readonly string[], env: Record<string, string> = {}) {
  const err = captureOutput();
  const out = captureOutput();
  const code = await runCli([...argv], { stdout: out.output, stderr: err.output, cwd, env });
  return { code, stderr: err.text(), stdout: out.text() };
}

describe('usage errors the CLI finds', () => {
  it.each(CLI_REFUSALS.map(([argv, sentence]) => [argv.join(' '), argv, sentence] as const))('rdw %s: exit 2, one sentence, RDW_CLI_USAGE', async (_name, argv, sentence) => {
    const run = await rdw(argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(`rdw: ${sentence}`)).toBe(true);
    expect(run.stderr).toMatch(/^rdw: [^\n]+\n$/);
    // The class the runner caught, by its stack (RDW_DEBUG=1), and the error itself where a command threw it.
    expect((await rdw(argv, { RDW_DEBUG: '1' })).stderr).toContain('\nCliUsageError: ');
    if (argv[0] === 'nope' || argv[0] === 'help' || argv[0]!.startsWith('-')) return;
    const error = await errorOf(argv);
    expect(error).toBeInstanceOf(CliUsageError);
    expect(error).toMatchObject({ code: 'RDW_CLI_USAGE', exitCode: 2 });
  });

  // A new user's trial: `rdw study model --target foo` (no flag near it) printed Node's advice for positional
  // arguments, "To specify a positional argument starting with a '-', place it at the end of the command after
  // '--', as in '-- "--target"" (its quotes unbalanced): rdw has no such operand. Now one sentence of rdw's own.
  it.each([
    [['study', 'model', '--target', 'foo'], 'study', '--target'],
    [['releases', '--bogus'], 'releases', '--bogus'],
    [['ls', '-x'], 'ls', '-x'],
  ])('rdw %j: an unknown flag with no near name is named, then the command\'s help', async (argv, command, flag) => {
    const run = await rdw(argv);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`rdw: Unknown option '${flag}'. Run "rdw ${command} --help" for its usage.\n`);
    expect(await errorOf(argv)).toMatchObject({ code: 'RDW_CLI_USAGE', option: flag.replace(/^-+/, '') });
  });

  it('takes a value flag given twice with the same value, and a boolean given twice', async () => {
    const parse = (args: string[]) => parseCommandLine('pull', [...GLOBAL_FLAGS, ...COMMANDS.find((one) => one.name === 'pull')!.line.flags], true, args).values;
    expect(parse(['--latest', '3', '--latest', '3'])).toMatchObject({ latest: '3' });
    expect(parse(['--json', '--json'])).toMatchObject({ json: true });
    expect(await errorOf(['study', 'event', '--window', '1h', '--window', '4h'])).toMatchObject({ option: 'window' });
  });

  it('names the flag at fault', async () => {
    expect(await errorOf(['pull', '--latest', '0'])).toMatchObject({ option: 'latest' });
    expect(await errorOf(['mock', '--port=-1'])).toMatchObject({ option: 'port' });
  });

  it.each([
    [['pull', 'not-an-id'], 'RDW_CATALOG_OPTION'], // under 12 characters: no ID nor prefix of one
    [['lock', 'x.json', 'not-an-id'], 'RDW_CATALOG_OPTION'],
    [['study', 'event', '--window', '2h'], 'RDW_ANALYSIS_OPTION'],
    [['study', 'event', '--bootstrap', 'blocks'], 'RDW_ANALYSIS_OPTION'],
    [['study', 'event', '--interval', 'blocks'], 'RDW_ANALYSIS_OPTION'],
  ])('rdw %j: exit 2 with the lower layer\'s own error (%s)', async (argv, code) => {
    expect((await rdw(argv)).code).toBe(2);
    const error = await errorOf(argv);
    expect(error).not.toBeInstanceOf(CliUsageError);
    expect(error).toMatchObject({ code, exitCode: 2 });
  });
});
