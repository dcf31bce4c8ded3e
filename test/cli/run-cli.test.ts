import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { Command } from '../../src/cli/command.js';
import { IntegrityError } from '../../src/contract/index.js';
import { captureOutput } from '../support/capture-output.js';

const echo: Command = {
  name: 'echo',
  line: { summary: 'Echoes its arguments.', operands: '<WORD...>', flags: [{ name: 'upper', kind: 'boolean', description: 'Upper-case the words' }], examples: ['rdw echo --upper a b'] },
  async run(context, args) {
    const words = args.positionals.join(' ');
    context.stdout.write(`${args.values.upper ? words.toUpperCase() : words} home=${context.home} json=${context.json}\n`);
  },
};
const failing: Command = {
  name: 'fail',
  line: { summary: 'Fails with an integrity error.', operands: '', flags: [], examples: ['rdw fail'] },
  async run() {
    throw new IntegrityError('Release abc failed its checksum. Nothing was imported.');
  },
};
const crashing: Command = { ...failing, name: 'crash', async run() { throw new TypeError('boom'); } };

describe('runCli', () => {
  it('dispatches with global flags and RDW_HOME', async () => {
    const out = captureOutput();
    const code = await runCli(['echo', '--upper', '--json', 'a', 'b'], {
      commands: [echo],
      stdout: out.output,
      env: { RDW_HOME: '/tmp/rdw-home' },
      cwd: '/work',
    });
    expect(code).toBe(0);
    expect(out.text()).toBe('A B home=/tmp/rdw-home json=true\n');
  });

  it('prefers --home over RDW_HOME and defaults to ./datasets', async () => {
    const flag = captureOutput();
    await runCli(['echo', '--home', 'h', 'x'], { commands: [echo], stdout: flag.output, env: { RDW_HOME: '/e' }, cwd: '/w' });
    expect(flag.text()).toContain('home=/w/h');
    const fallback = captureOutput();
    await runCli(['echo', 'x'], { commands: [echo], stdout: fallback.output, env: {}, cwd: '/w' });
    expect(fallback.text()).toContain('home=/w/datasets');
  });

  it.each([
    ['an empty --home', ['echo', '--home', '', 'x'], {}],
    ['a blank --home', ['echo', '--home', '  ', 'x'], { RDW_HOME: '/e' }],
    ['an empty RDW_HOME', ['echo', 'x'], { RDW_HOME: '' }],
  ])('refuses %s with exit 2 instead of falling back to ./datasets', async (_name, argv, env) => {
    const out = captureOutput();
    const err = captureOutput();
    expect(await runCli(argv, { commands: [echo], stdout: out.output, stderr: err.output, env, cwd: '/w' })).toBe(2);
    expect(out.text()).toBe('');
    expect(err.text()).toMatch(/^rdw: (--home|RDW_HOME) is empty; [^\n]+\n$/);
  });

  it('takes --home over an empty RDW_HOME', async () => {
    const out = captureOutput();
    expect(await runCli(['echo', '--home', 'h', 'x'], { commands: [echo], stdout: out.output, env: { RDW_HOME: '' }, cwd: '/w' })).toBe(0);
    expect(out.text()).toContain('home=/w/h');
  });

  it.each([
    [['nope'], 2],
    [['echo', '--bogus'], 2],
    [['fail', 'extra'], 2],
    [[], 2],
  ])('exits %o -> %i with one sentence on stderr', async (argv, exitCode) => {
    const err = captureOutput();
    expect(await runCli(argv, { commands: [echo, failing], stderr: err.output })).toBe(exitCode);
    if (argv.length > 0) expect(err.text()).toMatch(/^rdw: [^\n]+\n$/);
  });

  it('maps a typed failure to its exit code without a stack trace', async () => {
    const err = captureOutput();
    expect(await runCli(['fail'], { commands: [failing], stderr: err.output })).toBe(3);
    expect(err.text()).toBe('rdw: Release abc failed its checksum. Nothing was imported.\n');
  });

  it('writes the control characters a failure quotes (a study lock field, a file name) escaped, on one line', async () => {
    // A lock's "dataset": "\u001b]0;pwned\u0007\u001b[2J…" reached stderr raw: it retitled the window and cleared the screen.
    const quoting: Command = { ...failing, name: 'quote', async run() { throw new IntegrityError('The lock says \u001b]0;pwned\u0007\u001b[2Jx\nnext; stop.'); } };
    const err = captureOutput();
    expect(await runCli(['quote'], { commands: [quoting], stderr: err.output })).toBe(3);
    expect(err.text()).toBe('rdw: The lock says \\u001b]0;pwned\\u0007\\u001b[2Jx\\nnext; stop.\n');
    const json = captureOutput();
    await runCli(['quote', '--json'], { commands: [quoting], stderr: json.output });
    expect(JSON.parse(json.text()).error.message).toBe('The lock says \u001b]0;pwned\u0007\u001b[2Jx\nnext; stop.');
  });

  it('reports an unexpected error as exit 1 in one line, with the stack only under RDW_DEBUG=1', async () => {
    const quiet = captureOutput();
    expect(await runCli(['crash'], { commands: [crashing], stderr: quiet.output })).toBe(1);
    expect(quiet.text().trim().split('\n')).toHaveLength(1);
    const debug = captureOutput();
    await runCli(['crash'], { commands: [crashing], stderr: debug.output, env: { RDW_DEBUG: '1' } });
    expect(debug.text()).toContain('at ');
  });

  it('prints help for --help and for a command', async () => {
    const out = captureOutput();
    expect(await runCli(['--help'], { commands: [echo], stdout: out.output })).toBe(0);
    expect(out.text()).toContain('echo  Echoes its arguments.');
    const commandHelp = captureOutput();
    expect(await runCli(['echo', '--help'], { commands: [echo], stdout: commandHelp.output })).toBe(0);
    expect(commandHelp.text()).toContain('Usage: rdw echo <WORD...> [flags]');
    expect(commandHelp.text()).toMatch(/^  --upper +Upper-case the words$/m);
  });
});
