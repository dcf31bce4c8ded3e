// One result line of `rdw doctor`: a stable name, a status, one sentence, what to do, and the exit code
// a failure stands for (DESIGN.md 2.3).

import { EXIT_CODES, isRdwError, type ExitCode } from '../../contract/index.js';
import { doctorMessages } from '../messages.js';

/** ok: passed; warn: works, but look; fail: fix this first; skip: not run because a check it needs did not pass. */
export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** Stable check names, in the order they are shown. */
export type DoctorCheckName = 'base_url' | 'key' | 'plan' | 'clock' | 'home' | 'catalog' | 'kernel' | 'store';

export interface DoctorCheck {
  name: DoctorCheckName;
  status: DoctorStatus;
  /** One sentence: what was found (never the key). */
  message: string;
  /** What to do, for failures and for warnings that need an action. */
  remedy?: string;
  /** The exit code this failure stands for (only on `fail`). */
  exitCode?: ExitCode;
  /** Facts for --json: the URL checked, the skew in seconds, the limits, a PID… */
  facts?: Record<string, unknown>;
}

export const passed = (name: DoctorCheckName, message: string, facts?: Record<string, unknown>): DoctorCheck => ({
  name,
  status: 'ok',
  message,
  ...(facts === undefined ? {} : { facts }),
});

export const warned = (name: DoctorCheckName, message: string, remedy?: string, facts?: Record<string, unknown>): DoctorCheck => ({
  name,
  status: 'warn',
  message,
  ...(remedy === undefined ? {} : { remedy }),
  ...(facts === undefined ? {} : { facts }),
});

export const failed = (
  name: DoctorCheckName,
  message: string,
  remedy: string,
  exitCode: ExitCode,
  facts?: Record<string, unknown>,
): DoctorCheck => ({ name, status: 'fail', message, remedy, exitCode, ...(facts === undefined ? {} : { facts }) });

/** A check not run because `after` did not pass. */
export const skipped = (name: DoctorCheckName, after: DoctorCheckName): DoctorCheck => ({
  name,
  status: 'skip',
  message: doctorMessages.skipped(doctorMessages.labels[after] ?? after),
});

/** The exit code of an error: an RdwError's own, else 1. */
export function exitCodeOf(error: unknown): ExitCode {
  return isRdwError(error) ? error.exitCode : EXIT_CODES.failure;
}

/** An error's message, for a check line (client messages never carry the key). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
