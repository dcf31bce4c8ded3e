// The home folder (catalog.duckdb and store/), resolved one way for the CLI and the workbench: the flag or
// option, then RDW_HOME, then ./datasets. An empty value is refused, never taken for ./datasets.

import path from 'node:path';
import { workbenchMessages } from './messages.js';
import { WorkbenchOptionError } from './workbench-errors.js';

export interface ResolveHomeInput {
  /** `--home` (CLI) or the `home` option (workbench); undefined when not given. */
  flag?: string | undefined;
  /** The environment; only RDW_HOME is read. Default `{}`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Folder that relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
  /** How sentences name `flag`: `--home` on the command line; default `home` (the workbench option). */
  flagName?: '--home' | 'home';
}

/**
 * The absolute home folder: `flag`, else env.RDW_HOME, else `./datasets`, resolved against `cwd`. A `flag`
 * that is empty or only spaces, or (without a flag) an RDW_HOME that is, is refused (WorkbenchOptionError,
 * exit 2, naming the flag or the variable): it is a mistake (an unset shell variable), not a wish for
 * ./datasets, and data must not land somewhere the user did not choose.
 */
export function resolveHome(input: ResolveHomeInput = {}): string {
  const { flag, env = {}, cwd = process.cwd(), flagName = 'home' } = input;
  if (flag !== undefined && flag.trim() === '') throw new WorkbenchOptionError(workbenchMessages.emptyHome(flagName), { option: 'home' });
  const fromEnv = env.RDW_HOME;
  if (flag === undefined && fromEnv !== undefined && fromEnv.trim() === '') {
    throw new WorkbenchOptionError(workbenchMessages.emptyHome('RDW_HOME'), { option: 'home' });
  }
  return path.resolve(cwd, flag ?? fromEnv ?? 'datasets');
}
