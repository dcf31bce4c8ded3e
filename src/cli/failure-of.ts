// What an error says to the user: its code, exit code and one sentence. Typed rdw errors speak for themselves;
// an environment failure (full disk, denied folder) is named for what it is; anything else is unexpected.

import { environmentErrorOf, EXIT_CODES, isRdwError } from '../contract/index.js';
import type { ReportedFailure } from './command.js';
import { cliMessages } from './messages.js';

/** The `code` of a failure no typed error describes (a bug): said with exit 1. */
export const UNEXPECTED_CODE = 'RDW_UNEXPECTED';

/** The code, exit code and sentence of a thrown value (exit 1 and RDW_UNEXPECTED when nothing describes it). */
export function failureOf(error: unknown): ReportedFailure {
  const environment = isRdwError(error) ? undefined : environmentErrorOf(error);
  const known = environment ?? (isRdwError(error) ? error : undefined);
  return {
    code: known?.code ?? UNEXPECTED_CODE,
    exitCode: known?.exitCode ?? EXIT_CODES.failure,
    message: known?.message ?? cliMessages.unexpectedFailure(error instanceof Error ? error.message : String(error)),
  };
}
