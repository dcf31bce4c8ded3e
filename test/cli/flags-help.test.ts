// Help generated from src/cli/flags.ts: every command's page names each of its flags (with value name,
// range and default) and the global flags once, one line each within 100 columns; `rdw help <command>` is
// `rdw <command> --help`; parsing and validation come from the same definitions.

import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { COMMAND_LINES, GLOBAL_FLAGS, STUDY_EVENT_FLAGS, STUDY_MODEL_FLAGS, type FlagDefinition } from '../../src/cli/flags.js';
import { checkFlags, parseCommandLine, withFlagDefaults } from '../../src/cli/parse-flags.js';
import type { CliOutput } from '../../src/cli/cli-context.js';

const COLUMNS = 100;

function capture(columns?: number): { output: CliOutput; text: () => string } {
  let text = '';
  return { output: { write: (chunk: string) => void (text += chunk), isTTY: columns !== undefined, columns }, text: () => text };
}

async function help(argv: string[], columns?: number): Promise<string> {
  const out = capture(columns);
  expect(await runCli(argv, { stdout: out.output })).toBe(0);
  return out.text();
}

/** The help line of `flag`, found by how it is typed (`  --name VALUE`). */
function flagLine(page: string, flag: FlagDefinition): string | undefined {
  const typed = `--${flag.name}${flag.kind === 'boolean' ? '' : ` ${flag.valueName}`}`;
  return page.split('\n').find((line) => line.trimStart().replace(/^-\w, /, '').startsWith(`${typed} `) || line.trim() === typed);
}

describe('help generated from flags.ts', () => {
  it('gives every command its one definition from COMMAND_LINES', () => {
    expect(COMMANDS.map((command) => command.name).sort()).toEqual(Object.keys(COMMAND_LINES).sort());
    for (const command of COMMANDS) expect(command.line).toBe(COMMAND_LINES[command.name as keyof typeof COMMAND_LINES]);
  });

  it.each(COMMANDS.map((command) => [command.name] as const))('rdw %s --help: usage, summary, each flag and default, one line each', async (name) => {
    const command = COMMANDS.find((candidate) => candidate.name === name)!;
    const page = await help([name, '--help']);
    expect(await help(['help', name])).toBe(page);
    expect(page.startsWith(`Usage: rdw ${name}${command.line.operands === '' ? '' : ` ${command.line.operands}`} [flags]\n`)).toBe(true);
    expect(page).toContain(command.line.summary);
    for (const flag of [...command.line.flags, ...GLOBAL_FLAGS]) {
      const line = flagLine(page, flag);
      expect(line, `--${flag.name}`).toBeDefined();
      expect(line).toContain(flag.description);
      if (flag.kind === 'integer') expect(line).toContain(`${flag.min}-${flag.max}`);
      if (flag.kind !== 'boolean' && flag.default !== undefined) expect(line).toContain(`default ${flag.default}`);
      if ((flag.kind === 'string' || flag.kind === 'integer') && flag.defaultNote !== undefined) expect(line).toContain(`default ${flag.defaultNote}`);
      // One line each, even when piped (no terminal width to wrap to).
      expect(line!.length, line).toBeLessThanOrEqual(COLUMNS);
    }
    expect(page.match(/^ {2}--home DIR /gm)).toHaveLength(1); // the global flags once
    // Every example, under Examples: at the end; the page ends with exactly one newline (the prompt starts below it).
    const examples = page.slice(page.indexOf('\nExamples:\n') + '\nExamples:\n'.length).split('\n');
    expect(examples.pop()).toBe('');
    expect(examples.map((example) => example.trim().replace(/ {2,}#/, '  #'))).toEqual(command.line.examples.map((example) => example.replace(/ {2,}#/, '  #')));
    expect(page.endsWith('\n') && !page.endsWith('\n\n')).toBe(true);
    for (const line of (await help([name, '--help'], COLUMNS)).split('\n')) expect(line.length, line).toBeLessThanOrEqual(COLUMNS);
  });

  it('rdw --help keeps the command list and names the global flags', async () => {
    const page = await help(['--help']);
    for (const command of COMMANDS) expect(page).toMatch(new RegExp(`^  ${command.name} +${command.line.summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    expect(page).toContain('Global flags: --base-url URL, --home DIR, --json, --help\n');
    expect(await help(['help'])).toBe(page);
  });

  // A new user's trial: rdw verify printed "all rows match their fingerprints" and README says it fingerprints every
  // release's rows (exit 3 naming a bad one, RDW_ROWS_MISMATCH), but its help spoke of stored files only.
  it('rdw help verify says it checks the rows too, and that rows differing from their fingerprint are exit 3', async () => {
    const page = await help(['help', 'verify'], COLUMNS);
    expect(COMMAND_LINES.verify.summary).toMatch(/fingerprint every release's rows/);
    expect(page.replace(/\s+/g, ' ')).toMatch(/Exit 3 when a stored file .* or a release's rows differ from their fingerprint/);
  });

  it('parses and validates from the same definitions: integers as numbers with defaults, lists as arrays', () => {
    const parse = (name: keyof typeof COMMAND_LINES, args: string[]) => {
      const flags = COMMAND_LINES[name].flags;
      return checkFlags(flags, parseCommandLine(name, [...GLOBAL_FLAGS, ...flags], COMMAND_LINES[name].operands !== '', args).values);
    };
    expect(parse('demo', [])).toMatchObject({ latest: 30, json: false, help: false });
    expect(parse('pull', ['--latest', '007'])).toMatchObject({ latest: 7, concurrency: 4 });
    expect(parse('releases', []).limit).toBeUndefined();
    expect(parse('mock', [])).toMatchObject({ host: '127.0.0.1', port: 8787, seed: 1, days: 120, now: '2026-11-01T00:00:00Z' });
    // rdw study parses without defaults (so each study sees what was given), then applies its own study's.
    const given = parse('study', []);
    expect([given.window, given.by, given.interval, given['allow-mixed-versions']]).toEqual([undefined, undefined, undefined, false]);
    expect(withFlagDefaults(STUDY_EVENT_FLAGS, parse('study', []))).toMatchObject({ window: ['1h'], by: ['event_kind', 'direction'], interval: 'block-jackknife' });
    const model = withFlagDefaults(STUDY_MODEL_FLAGS, parse('study', []));
    expect([model.window, model.by, model.interval, model.split]).toEqual([['1h'], undefined, undefined, undefined]);
    expect(parse('study', ['--window', ' 1h, ,24h ', '--by', 'symbol'])).toMatchObject({ window: ['1h', '24h'], by: ['symbol'] });
    expect(parse('gc', ['--dry-run'])['dry-run']).toBe(true);
  });
});
