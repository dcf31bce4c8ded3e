// What a thrown value says to the user: its code, exit code and one sentence. Typed rdw errors speak for
// themselves; an environment failure (full disk, denied folder) is named for what it is; anything else is a bug.
// It lives in contract, beside environmentErrorOf, so the CLI and the workbench's records say a failure alike.

import { EXIT_CODES, isRdwError } from '../base/index.js';
import { environmentErrorOf } from './environment-errors.js';
import { environmentMessages } from './environment-messages.js';

/**
 * The `code` of a failure no typed error describes (a bug), said with exit 1. Not `RDW_ERROR`: that is the
 * code of the RdwError base itself, a typed failure; an untyped throw is something rdw did not expect.
 */
export const UNEXPECTED_CODE = 'RDW_UNEXPECTED';

/** A failure as it is reported: in `--json` output, in a sync run's details, in a per-release list. */
export interface ReportedFailure {
  readonly code: string;
  readonly exitCode: number;
  readonly message: string;
}

/** The code, exit code and sentence of a thrown value (exit 1 and UNEXPECTED_CODE when nothing describes it). */
export function failureOf(error: unknown): ReportedFailure {
  const known = isRdwError(error) ? error : environmentErrorOf(error);
  return {
    code: known?.code ?? UNEXPECTED_CODE,
    exitCode: known?.exitCode ?? EXIT_CODES.failure,
    message: known?.message ?? environmentMessages.unexpectedFailure(error instanceof Error ? error.message : String(error)),
  };
}
