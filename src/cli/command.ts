// The shape of one `rdw` sub-command: its command line (flags.ts: summary, operands, flags), more help,
// and its handler.

import type { ReportedFailure as Failure } from '../contract/index.js';
import type { CliContext } from './cli-context.js';
import type { CommandLine } from './flags.js';
import type { ParsedCommandArgs } from './parse-flags.js';

export type { ParsedCommandArgs };

/**
 * A failure a command has already reported in full on stdout under --json (pull's `failed`, verify's files,
 * sync's report, doctor's checks), returned so that the runner also says it as the one `{"error":…}` line on
 * stderr and exits with `exitCode`. `code` is that of the failure it sums up.
 */
export type ReportedFailure = Failure;

export interface Command {
  readonly name: string;
  /** Summary, operands and flags (global flags are added by the runner); usually `COMMAND_LINES[name]`. */
  readonly line: CommandLine;
  /** More help for `rdw <command> --help` after the flags (checks, output, exit codes); default: none. */
  readonly details?: string;
  /**
   * Runs the command with its flags parsed and checked (integers as numbers, lists as arrays); returns the
   * exit code (0 when omitted), or under --json a failure its stdout already reports. Throw RdwError
   * subclasses for expected failures.
   */
  run(context: CliContext, args: ParsedCommandArgs): Promise<number | void | ReportedFailure>;
}
