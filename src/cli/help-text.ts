// Help pages of `rdw` and of each command, generated from the command lines of flags.ts (wrapped between
// words to the terminal's width, when known).

import type { Command } from './command.js';
import { GLOBAL_FLAGS, type FlagDefinition } from './flags.js';
import { helpMessages as m } from './messages.js';
import { wrapText } from './wrap-text.js';

/** `rdw --help`: the commands and the global flags; `columns`: terminal width (default: no wrapping). */
export function helpText(commands: readonly Command[], columns?: number): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${wrapText(command.line.summary, columns, width + 4)}`);
  return [
    m.title(),
    '',
    m.usage(),
    '',
    m.commands(),
    ...lines,
    '',
    m.globalFlagList(GLOBAL_FLAGS.map((flag) => flagName(flag, false)).join(', ')),
    wrapText(m.environment(), columns, 2),
    m.embeddedMock(),
    m.commandHelp(),
    '',
  ].join('\n');
}

/**
 * `rdw <command> --help` and `rdw help <command>`: the usage line, the summary, the command's flags and the
 * global flags (one line each: name, value name, description, range and default), the details, then the
 * examples.
 */
export function commandHelpText(command: Command, columns?: number): string {
  const { line } = command;
  const width = Math.max(...[...line.flags, ...GLOBAL_FLAGS].map((flag) => flagName(flag).length));
  const section = (title: string, flags: readonly FlagDefinition[]) =>
    flags.length === 0 ? [] : ['', title, ...flags.map((flag) => `  ${flagName(flag).padEnd(width)}  ${wrapText(flagText(flag), columns, width + 4)}`)];
  return [
    `Usage: ${wrapText(m.commandUsage(command.name, line.operands), columns, 'Usage: '.length)}`,
    '',
    wrapText(line.summary, columns),
    ...section(m.flags(), line.flags),
    ...section(m.globalFlags(), GLOBAL_FLAGS),
    ...(command.details === undefined ? [] : ['', command.details]),
    '',
    m.examples(),
    ...exampleLines(line.examples),
    '',
  ].join('\n');
}

/** Example command lines, indented, their `# comments` aligned one column after the longest command. */
function exampleLines(examples: readonly string[]): string[] {
  const parts = examples.map((example) => {
    const at = example.indexOf('  # ');
    return at === -1 ? { command: example, comment: '' } : { command: example.slice(0, at), comment: example.slice(at + 2) };
  });
  const width = Math.max(...parts.filter((part) => part.comment !== '').map((part) => part.command.length), 0);
  return parts.map((part) => `  ${part.comment === '' ? part.command : `${part.command.padEnd(width)}  ${part.comment}`}`);
}

/** `--latest N`, `-h, --help` (`withShort` false: `--help`): how the flag is typed. */
function flagName(flag: FlagDefinition, withShort = true): string {
  const short = flag.short === undefined || !withShort ? '' : `-${flag.short}, `;
  return `${short}--${flag.name}${flag.kind === 'boolean' ? '' : ` ${flag.valueName}`}`;
}

/** The description, then the range of an integer flag and the default, in parentheses. */
function flagText(flag: FlagDefinition): string {
  const notes: string[] = [];
  if (flag.kind === 'integer') notes.push(m.range(flag.min, flag.max));
  if (flag.kind !== 'boolean') {
    const value = flag.default ?? ('defaultNote' in flag ? flag.defaultNote : undefined);
    if (value !== undefined) notes.push(m.defaultValue(String(value)));
  }
  return notes.length === 0 ? flag.description : `${flag.description} (${notes.join(', ')})`;
}
