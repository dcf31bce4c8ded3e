// Output on a 100-column terminal: doctor's lines, help pages, errors and the embedded-mock note wrap between
// words under their own indent (never inside a word, never past the edge); pipes get the text unwrapped.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { wrapText } from '../../src/cli/wrap-text.js';
import { wrappingOutput } from '../../src/cli/wrapping-output.js';
import type { CliOutput } from '../../src/cli/cli-context.js';
import { withTempHome } from '../support/temp-home.js';

const COLUMNS = 100;

function capture(columns?: number): { output: CliOutput; text: () => string } {
  let text = '';
  return { output: { write: (chunk: string) => void (text += chunk), isTTY: columns !== undefined, columns }, text: () => text };
}

const tooWide = (text: string) => text.split('\n').filter((line) => line.length > COLUMNS);

describe('wrapText', () => {
  it.each([
    ['no width: unchanged', 'a b c', undefined, 0, 'a b c'],
    ['fits: unchanged', 'alpha beta', 30, 0, 'alpha beta'],
    ['breaks between words under the indent', 'alpha beta gamma delta epsilon zeta', 30, 4, 'alpha beta gamma delta\n    epsilon zeta'],
    ['a word longer than the room stays whole', `go ${'x'.repeat(40)} on`, 30, 0, `go\n${'x'.repeat(40)}\non`],
    ['too narrow to wrap: unchanged', 'alpha beta gamma', 24, 10, 'alpha beta gamma'],
  ])('%s', (_case, text, columns, indent, expected) => {
    expect(wrapText(text, columns, indent)).toBe(expected);
  });
});

describe('wrappingOutput (stderr on a terminal)', () => {
  const sentence = `rdw: ${'word '.repeat(45)}end.`;
  it('wraps an rdw: line wider than the terminal under its message, and any other long line at column 0', () => {
    const out = capture(COLUMNS);
    wrappingOutput(out.output).write(`${sentence}\nshort\n${'note '.repeat(30)}end\n`);
    const lines = out.text().split('\n');
    expect(tooWide(out.text())).toEqual([]);
    expect(lines[0]!.startsWith('rdw: word')).toBe(true);
    expect(lines[1]).toMatch(/^ {5}word/);
    expect(lines).toContain('short');
    expect(lines.find((line) => line.startsWith('note'))!.length).toBeGreaterThan(80); // the long line, from column 0
    // The same words in the same order: only line breaks were added.
    expect(out.text().split(/\s+/)).toEqual(`${sentence}\nshort\n${'note '.repeat(30)}end\n`.split(/\s+/));
  });

  it('leaves pipes, and a line redrawn with \\r (a progress bar), as written', () => {
    const piped = capture();
    wrappingOutput(piped.output).write(`${sentence}\n`);
    expect(piped.text()).toBe(`${sentence}\n`);
    const bar = capture(COLUMNS);
    wrappingOutput(bar.output).write(`\r${'#'.repeat(120)}`);
    expect(bar.text()).toBe(`\r${'#'.repeat(120)}`);
  });
});

describe('rdw on a 100-column terminal', () => {
  it('wraps every doctor line between words under the message column, and not when piped', async () => {
    await withTempHome(async (home) => {
      const run = async (columns?: number) => {
        const out = capture(columns);
        const err = capture(columns);
        const code = await runCli(['doctor', '--home', home], { env: {}, stdout: out.output, stderr: err.output });
        return { code, out: out.text(), err: err.text() };
      };
      const wrapped = await run(COLUMNS);
      expect(tooWide(wrapped.out)).toEqual([]);
      expect(tooWide(wrapped.err)).toEqual([]); // the embedded-mock note fits too
      const continuation = wrapped.out.split('\n').filter((line) => line.startsWith(' '));
      expect(continuation.length).toBeGreaterThan(0);
      const indent = 'warn  plan and limits  '.length;
      for (const line of continuation) expect(line).toMatch(new RegExp(`^ {${indent}}\\S`));
      const piped = await run(undefined);
      expect(piped.code).toBe(wrapped.code);
      // The same words either way (the port of the embedded mock differs between runs).
      const words = (text: string) => text.replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/in \d+ ms/g, 'in N ms').split(/\s+/);
      expect(words(wrapped.out)).toEqual(words(piped.out));
      expect(piped.out.split('\n').some((line) => line.length > COLUMNS)).toBe(true);
    });
  }, 60_000);

  it.each([['--help'], ...COMMANDS.map((command) => [command.name, '--help'])].map((argv) => [argv.join(' '), argv] as const))(
    'fits `rdw %s` in 100 columns',
    async (_name, argv) => {
      const out = capture(COLUMNS);
      expect(await runCli(argv, { stdout: out.output })).toBe(0);
      expect(tooWide(out.text())).toEqual([]);
    },
  );

  it('wraps an error between words under the message (`rdw: ` then 5 spaces); --json and pipes keep one line', async () => {
    const argv = ['pull', '--latest', '300'];
    const piped = capture();
    expect(await runCli(argv, { stderr: piped.output })).toBe(2);
    const sentence = piped.text().replace(/^rdw: /, '').trimEnd();
    expect(sentence.length).toBeGreaterThan(2 * COLUMNS); // long enough to need three lines
    expect(piped.text().split('\n')).toHaveLength(2);
    const terminal = capture(COLUMNS);
    expect(await runCli(argv, { stderr: terminal.output })).toBe(2);
    const lines = terminal.text().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(tooWide(terminal.text())).toEqual([]);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {5}\S/);
    expect(lines.map((line) => line.trim()).join(' ')).toBe(`rdw: ${sentence}`);
    const json = capture(COLUMNS);
    expect(await runCli(['--json', ...argv], { stderr: json.output })).toBe(2);
    expect(JSON.parse(json.text())).toEqual({ error: { code: 'RDW_CLI_USAGE', exitCode: 2, message: sentence } });
  });
});
