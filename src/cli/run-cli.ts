// Parses global flags (before or after the command), dispatches to a command, and turns every expected
// failure into one sentence on stderr (under --json one JSON object, after any {"notice"} lines) plus the
// documented exit code (DESIGN.md 2.3). No stack traces unless RDW_DEBUG=1. Light by design: help, a
// mistyped command or flag and flag values are answered from flags.ts alone, and each command's module loads
// only when the command runs (commands/index.ts), so `rdw openapi` or `rdw kernel` load no DuckDB or mock.

import { printableText } from '../base/index.js';
import { EXIT_CODES, failureOf } from '../contract/index.js';
import { closestName } from './closest-name.js';
// The workbench's one light module, past its door (index.ts), which would load DuckDB, the mock and the
// analysis for every command, even those that need none of them.
import { resolveHome } from '../workbench/resolve-home.js';
import type { CliContext, CliOutput } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import type { Command, ReportedFailure } from './command.js';
import { COMMANDS } from './commands/index.js';
import { GLOBAL_FLAGS } from './flags.js';
import { cliMessages } from './messages.js';
import { helpText, commandHelpText } from './help-text.js';
import { wrapText } from './wrap-text.js';
import { jsonNoticeOutput } from './json-notice-output.js';
import { wrappingOutput } from './wrapping-output.js';
import { asksForJson, checkFlags, parseCommandLine, splitLeadingGlobalFlags } from './parse-flags.js';

export { UNEXPECTED_CODE } from '../contract/index.js';

export interface RunCliOptions {
  env?: Readonly<Record<string, string | undefined>>;
  stdout?: CliOutput;
  stderr?: CliOutput;
  cwd?: string;
  /** Commands to dispatch to; default: every rdw command. */
  commands?: readonly Command[];
}

/**
 * Runs `rdw <argv>` and resolves to its exit code. Never throws. Global flags may come before the command
 * (`rdw --json ls`) or after it (`rdw ls --json`). A failure is `rdw: <sentence>` on stderr, or under
 * --json one line `{"error":{"code","exitCode","message"}}`.
 */
export async function runCli(argv: readonly string[], options: RunCliOptions = {}): Promise<number> {
  const env = options.env ?? {};
  const stdout = options.stdout ?? { write: () => {}, isTTY: false };
  const stderr = options.stderr ?? { write: () => {}, isTTY: false };
  const commands = options.commands ?? COMMANDS;
  const cleanups: (() => Promise<void> | void)[] = [];
  const json = asksForJson(argv);
  try {
    const { leading, rest: fromCommand } = splitLeadingGlobalFlags(argv, GLOBAL_FLAGS);
    const [name, ...rest] = fromCommand;
    // `rdw --home` and nothing else: the flag's missing value is the mistake, not the missing command.
    if (name === undefined && leading.length > 0) parseCommandLine('', GLOBAL_FLAGS, false, leading);
    if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
      stdout.write(helpText(commands, stdout.columns));
      return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
    }
    if (name === '--version') {
      stdout.write(`${await rdwVersion()}\n`);
      return EXIT_CODES.ok;
    }
    // `rdw help <command>` is `rdw <command> --help`.
    const asked = name === 'help' ? rest[0]! : name;
    const command = commands.find((candidate) => candidate.name === asked);
    if (!command) {
      const sentence = asked.startsWith('-')
        ? cliMessages.unknownGlobalFlag(asked, GLOBAL_FLAGS.map((flag) => `--${flag.name}`).join(', '))
        : cliMessages.unknownCommand(asked, closestName(asked, commands.map((candidate) => candidate.name)));
      throw new CliUsageError(sentence);
    }
    const flags = [...GLOBAL_FLAGS, ...command.line.flags];
    const parsed = parseCommandLine(command.name, flags, command.line.operands !== '', [...leading, ...(name === 'help' ? ['--help', ...rest.slice(1)] : rest)]);
    if (parsed.values.help === true) {
      stdout.write(commandHelpText(command, stdout.columns));
      return EXIT_CODES.ok;
    }
    // Flag values are checked before the home is resolved (both are exit 2), then the command runs.
    const values = checkFlags(command.line.flags, parsed.values);
    const cwd = options.cwd ?? process.cwd();
    const context: CliContext = {
      env,
      stdout,
      // Under --json every stderr line is a JSON object: notices (waits, retries, warnings) as {"notice"},
      // a failure as the one {"error"} object, last.
      stderr: json ? jsonNoticeOutput(stderr) : wrappingOutput(stderr),
      json: parsed.values.json === true,
      home: resolveHome({ flag: parsed.values.home as string | undefined, env, cwd, flagName: '--home' }),
      baseUrl: (parsed.values['base-url'] as string | undefined) ?? env.RDW_BASE_URL ?? undefined,
      siteUrl: env.RDW_SITE_URL ?? undefined,
      cwd,
      onExit: (cleanup) => cleanups.push(cleanup),
    };
    const code = await command.run(context, { values, positionals: parsed.positionals });
    if (typeof code === 'object') return sayFailure(stderr, json, code);
    // Output that did not arrive whole is a failure, said like any other, even when the command itself succeeded.
    const lost = stdout.writeFailure?.();
    if (lost !== undefined && (code ?? EXIT_CODES.ok) === EXIT_CODES.ok) return reportFailure(lost, stderr, env, json);
    return code ?? EXIT_CODES.ok;
  } catch (error) {
    return reportFailure(error, stderr, env, json);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // A failing clean-up must not mask the command's own result.
      }
    }
  }
}

function reportFailure(error: unknown, stderr: CliOutput, env: Readonly<Record<string, string | undefined>>, json: boolean): number {
  const debug = env.RDW_DEBUG === '1';
  // A full disk, a denied or read-only folder, a file where a folder must be: said for what it is (failureOf).
  const failure = failureOf(error);
  sayFailure(stderr, json, failure);
  if (debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
  return failure.exitCode;
}

/**
 * `rdw: <message>` (on a terminal wrapped between words under the message), or under --json the one line
 * `{"error":{"code","exitCode","message"}}` (never wrapped); returns the exit code. A sentence may quote text
 * from a file or another machine (a study lock's fields, a file name, a service's answer): its control characters
 * are written escaped (`\n`, `\u001b`), so the failure stays one line and never drives the terminal.
 */
function sayFailure(stderr: CliOutput, json: boolean, { code, exitCode, message }: ReportedFailure): number {
  const prefix = 'rdw: ';
  const line = printableText(message, Number.POSITIVE_INFINITY);
  stderr.write(json ? `${JSON.stringify({ error: { code, exitCode, message } })}\n` : `${prefix}${wrapText(line, stderr.columns, prefix.length)}\n`);
  return exitCode;
}

async function rdwVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
