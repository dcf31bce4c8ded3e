// What every command receives: output streams, environment, global flags, and access to the API.
// process.env and process streams are read only by main.ts, which builds this context.

import path from 'node:path';
import { UsageError } from '../contract/index.js';
import { cliMessages } from './messages.js';

export interface CliOutput {
  write(text: string): void;
  /** True when the stream is an interactive terminal (progress bars only then). */
  readonly isTTY: boolean;
  /** Width of the terminal in columns, when it is one; undefined: do not wrap (pipes, files, tests). */
  readonly columns?: number | undefined;
}

export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** `--json`: machine-readable output on stdout, no progress bars. */
  readonly json: boolean;
  /** `--home` or RDW_HOME or ./datasets, absolute. */
  readonly home: string;
  /** `--base-url` or RDW_BASE_URL; undefined means the embedded mock. */
  readonly baseUrl: string | undefined;
  /** RDW_SITE_URL; undefined means the embedded mock (or derived from baseUrl's origin). */
  readonly siteUrl: string | undefined;
  /** Working directory for relative paths. */
  readonly cwd: string;
  /** Registers a clean-up run when the command ends (servers to close, handles to release). */
  onExit(cleanup: () => Promise<void> | void): void;
}

export interface GlobalFlags {
  json: boolean;
  home: string | undefined;
  baseUrl: string | undefined;
}

/**
 * Resolves RDW_HOME: flag, then environment, then `./datasets` (DESIGN.md 2.2). An empty `--home ''` or
 * an RDW_HOME set to '' (or only spaces) is refused (UsageError, exit 2): it is a mistake (an unset shell
 * variable), not a wish for `./datasets`, and data must not land somewhere the user did not choose.
 */
export function resolveHome(flag: string | undefined, env: CliContext['env'], cwd: string): string {
  if (flag !== undefined && flag.trim() === '') throw new UsageError(cliMessages.emptyHome('--home'), { option: 'home' });
  if (flag === undefined && env.RDW_HOME !== undefined && env.RDW_HOME.trim() === '') {
    throw new UsageError(cliMessages.emptyHome('RDW_HOME'), { option: 'home' });
  }
  return path.resolve(cwd, flag ?? env.RDW_HOME ?? 'datasets');
}
