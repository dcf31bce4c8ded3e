// The home folder (catalog.duckdb and store/), resolved one way for the CLI and the workbench: the flag or
// option, then RDW_HOME, then ./datasets. An empty value is refused, never taken for ./datasets.

import { homedir } from 'node:os';
import path from 'node:path';
import { workbenchMessages } from './messages.js';
import { WorkbenchOptionError } from './workbench-errors.js';

export interface ResolveHomeInput {
  /** `--home` (CLI) or the `home` option (workbench); undefined when not given. */
  flag?: string | undefined;
  /** The environment; only RDW_HOME (and HOME, for a leading `~`) is read. Default `{}`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Folder that relative paths resolve against. Default `process.cwd()`. */
  cwd?: string;
  /** How sentences name `flag`: `--home` on the command line; default `home` (the workbench option). */
  flagName?: '--home' | 'home';
}

/**
 * The absolute home folder: `flag`, else env.RDW_HOME, else `./datasets`, resolved against `cwd`. A value that is
 * `~` or starts with `~/` is taken under the user's home folder (env.HOME, else the account's): no shell expands
 * the `~` of `--home=~/data`, of a crontab's `RDW_HOME=~/data` or of a notebook's `{ home: '~/data' }`, and data
 * must not land in a folder named `~` under the working directory (`./~` still names one). A `flag`
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
  return path.resolve(cwd, underUserHome(flag ?? fromEnv ?? 'datasets', env));
}

/** `~` and `~/…` under the user's home folder (env.HOME when set, else the account's); any other value as given. */
function underUserHome(value: string, env: Readonly<Record<string, string | undefined>>): string {
  if (value !== '~' && !value.startsWith('~/')) return value;
  const userHome = env.HOME !== undefined && env.HOME.trim() !== '' ? env.HOME : homedir();
  return path.join(userHome, value.slice(1));
}
