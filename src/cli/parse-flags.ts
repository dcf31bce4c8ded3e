// Parsing and validation of a command line, generated from its flag definitions (flags.ts): node:util
// parseArgs for the syntax, then one validator per kind (integers in a range, comma-separated lists).

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliUsageError } from './cli-errors.js';
import { closestName } from './closest-name.js';
import type { FlagDefinition, IntegerFlag } from './flags.js';
import { cliMessages } from './messages.js';

/** A flag's value as a command receives it: boolean, string, number (integer flags), string[] (list flags). */
export type FlagValue = string | boolean | number | readonly string[] | undefined;

export interface ParsedCommandArgs {
  /** Flag values by long name; a flag not given holds its default (booleans: false; others: undefined). */
  values: Record<string, FlagValue>;
  positionals: string[];
}

type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs options for `flags`: booleans default to false, string and list flags to their default text. */
export function parseArgsOptions(flags: readonly FlagDefinition[]): ParseArgsOptions {
  const options: ParseArgsOptions = {};
  for (const flag of flags) {
    const short = flag.short === undefined ? {} : { short: flag.short };
    if (flag.kind === 'boolean') options[flag.name] = { type: 'boolean', default: false, ...short };
    else if (flag.kind !== 'integer' && flag.default !== undefined) options[flag.name] = { type: 'string', default: flag.default, ...short };
    else options[flag.name] = { type: 'string', ...short };
  }
  return options;
}

/**
 * Parses `args` (what follows the command name) strictly against `flags`: an unknown flag, a flag without
 * its value, or an operand where `allowPositionals` is false is a CliUsageError pointing to the command's
 * help. Values are as typed (strings and booleans); `checkFlags` validates and converts them.
 */
export function parseCommandLine(command: string, flags: readonly FlagDefinition[], allowPositionals: boolean, args: readonly string[]): ParsedCommandArgs {
  try {
    const parsed = parseArgs({ args: [...args], options: parseArgsOptions(flags), allowPositionals, strict: true, tokens: true });
    refuseRepeatedValues(flags, parsed.tokens);
    // No flag is `multiple`, so every value is a string or a boolean.
    return { values: { ...parsed.values } as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    // An unknown flag is named in rdw's sentence (Node's adds advice about operands after '--', which rdw's
    // commands do not take); a mistyped long flag (--latst) gets the nearest declared one (--latest).
    const { code, message } = error as NodeJS.ErrnoException;
    const unknown = code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'(-[^'=]+)/.exec(message)?.[1] : undefined;
    if (unknown !== undefined) {
      const near = unknown.startsWith('--') ? closestName(unknown, flags.map((flag) => `--${flag.name}`)) : undefined;
      throw new CliUsageError(cliMessages.unknownFlag(command, unknown, near), { cause: error, option: unknown.replace(/^-+/, '') });
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw valueError(command, flags, args, message, error);
    throw new CliUsageError(cliMessages.badFlags(command, message), { cause: error });
  }
}

/**
 * Node keeps the last value of a flag given twice, so `--window 1h --window 4h` would study 4h alone, saying
 * nothing: a value flag given again with another value is a CliUsageError naming every value (a list flag: the
 * comma-separated list that gives them all). The same value twice, or a boolean twice, changes nothing.
 */
function refuseRepeatedValues(flags: readonly FlagDefinition[], tokens: ReturnType<typeof parseArgs>['tokens']): void {
  const given = new Map<string, string[]>();
  for (const token of tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    given.set(token.name, [...(given.get(token.name) ?? []), token.value]);
  }
  for (const [name, values] of given) {
    if (new Set(values).size < 2) continue;
    const list = flags.find((flag) => flag.name === name)?.kind === 'list';
    throw new CliUsageError(cliMessages.flagGivenTwice(name, values, list), { option: name });
  }
}

/**
 * A flag given without its value, in one sentence. Node reads a value that starts with '-' (`--latest -1`) as
 * a flag and calls it ambiguous: an integer flag then gets its own refusal of that value, any other the
 * `--flag=-value` spelling.
 */
function valueError(command: string, flags: readonly FlagDefinition[], args: readonly string[], message: string, cause: unknown): CliUsageError {
  const name = /'(--?[\w-]+)/.exec(message)?.[1] ?? '';
  const flag = flags.find((one) => `--${one.name}` === name || (one.short !== undefined && `-${one.short}` === name));
  const given = args[args.indexOf(name) + 1];
  if (flag !== undefined && /ambiguous/.test(message) && given !== undefined) {
    if (flag.kind === 'integer') integerFlag(flag, given);
    if (flag.kind === 'string' && flag.expected !== undefined) {
      return new CliUsageError(cliMessages.badFlagValue(flag.name, given, flag.expected), { cause, option: flag.name });
    }
    return new CliUsageError(cliMessages.dashValue(`--${flag.name}`, given), { cause, option: flag.name });
  }
  return new CliUsageError(cliMessages.missingValue(command, flag === undefined ? name : `--${flag.name}`), { cause, ...(flag === undefined ? {} : { option: flag.name }) });
}

/**
 * The values of `flags` validated and converted, in the order the flags are defined: integer flags as
 * numbers (their default when not given), list flags as string arrays; others unchanged. Throws
 * CliUsageError naming the first bad flag.
 */
export function checkFlags(flags: readonly FlagDefinition[], values: Readonly<Record<string, FlagValue>>): Record<string, FlagValue> {
  const checked: Record<string, FlagValue> = { ...values };
  for (const flag of flags) {
    const value = values[flag.name];
    if (flag.kind === 'integer') checked[flag.name] = integerFlag(flag, value);
    else if (flag.kind === 'list') checked[flag.name] = value === undefined ? undefined : listFlag(String(value));
  }
  return checked;
}

/**
 * The one integer-flag validator: `value` (the text typed) as a whole number in [flag.min, flag.max]; the
 * flag's default (or undefined) when not given. Digits only (no sign, no exponent). CliUsageError with the
 * flag's refusal sentence otherwise.
 */
export function integerFlag(flag: IntegerFlag, value: FlagValue): number | undefined {
  if (value === undefined) return flag.default;
  const text = String(value);
  const number = typeof value === 'string' && /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (number >= flag.min && number <= flag.max) return number;
  const sentence =
    flag.refusal === 'value'
      ? cliMessages.badFlagValue(flag.name, text, cliMessages.integerExpected(flag.min, flag.max))
      : flag.refusal === 'listing'
        ? cliMessages.badListingCount(flag.name, flag.min, flag.max)
        : cliMessages.badCount(flag.name, flag.min, flag.max);
  throw new CliUsageError(sentence, { option: flag.name });
}

/**
 * `values` with the default of each flag of `flags` that was not given (a list's default split as typed): for a
 * command whose parse table leaves defaults out (rdw study: each study has its own).
 */
export function withFlagDefaults(flags: readonly FlagDefinition[], values: Readonly<Record<string, FlagValue>>): Record<string, FlagValue> {
  const filled: Record<string, FlagValue> = { ...values };
  for (const flag of flags) {
    if (filled[flag.name] !== undefined || flag.kind === 'boolean' || flag.default === undefined) continue;
    filled[flag.name] = flag.kind === 'list' ? listFlag(flag.default) : flag.default;
  }
  return filled;
}

/** Comma-separated `text` as items: spaces around commas ignored, empty items dropped. */
export function listFlag(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * Splits the global flags written before the command (`rdw --json --home X ls`) from the rest: `leading`
 * holds them as typed (a value flag with its value), `rest` starts at the command name. `--help`/`-h` and
 * anything else that is not a global flag ends the leading part, as does `--`.
 */
export function splitLeadingGlobalFlags(argv: readonly string[], globals: readonly FlagDefinition[]): { leading: string[]; rest: string[] } {
  let index = 0;
  while (index < argv.length) {
    const token = argv[index]!;
    const name = /^--([^=]+)/.exec(token)?.[1];
    const flag = globals.find((candidate) => candidate.name === name && candidate.name !== 'help');
    if (flag === undefined) break;
    index += flag.kind === 'boolean' || token.includes('=') ? 1 : 2;
  }
  return { leading: argv.slice(0, Math.min(index, argv.length)), rest: argv.slice(Math.min(index, argv.length)) };
}

/** Whether `--json` was asked for anywhere before `--` (errors are then one JSON object, even a parse error's). */
export function asksForJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
