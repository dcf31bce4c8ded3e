// The shape of one `rdw` sub-command: its flags (node:util parseArgs config), usage line and handler.

import type { ParseArgsConfig } from 'node:util';
import type { CliContext } from './cli-context.js';

export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommandArgs {
  /** Flag values by name (strings, booleans, or arrays for `multiple`). */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface Command {
  readonly name: string;
  /** One line for `rdw --help`. */
  readonly summary: string;
  /** Usage after `rdw`, e.g. `pull <RELEASE_ID...> | --latest N`. */
  readonly usage: string;
  /** More help for `rdw <command> --help` (checks, output, exit codes); default: none. */
  readonly details?: string;
  /** Flags of this command (global flags are added by the runner). */
  readonly options: CommandOptions;
  /** Whether positionals are accepted. */
  readonly allowPositionals: boolean;
  /** Runs the command; returns the exit code (0 when omitted). Throw RdwError subclasses for expected failures. */
  run(context: CliContext, args: ParsedCommandArgs): Promise<number | void>;
}
