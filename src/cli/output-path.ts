// Output paths checked before anything runs. `-`: other tools read it as standard output, but every rdw output
// operand or flag names a file or folder to write (reports, locks, Parquet), so it is refused, never made into a
// file or folder named `-`. What rdw keeps in its home is never an output; nor is a file where a folder goes.

import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { environmentMessages, NotAFolderError } from '../contract/index.js';
import { CATALOG_FILE } from '../workbench/home-catalog.js';
import { KNOWN_LIMITS_FILE } from '../workbench/known-limits.js';
import { SYNC_LOCK_FILE } from '../workbench/sync-lock.js';
import { CliUsageError } from './cli-errors.js';
import { commandMessages } from './messages.js';

/** What refuses `-`: the operand or flag as typed, what it writes, and an example of a good value. */
export interface OutputPathUse {
  /** `rdw export`, `--out`: how the user typed it. */
  readonly what: string;
  /** What it writes, as the refusal says it ("it writes a folder of Parquet files"). */
  readonly writes: string;
  /** A good command line or flag, e.g. `rdw export ./export`. */
  readonly example: string;
  /** The flag or operand name for CliUsageError's `option` (without `--`). */
  readonly option: string;
}

/** Throws CliUsageError (exit 2) when `value` is `-`; any other value (or none) passes. */
export function refuseDashOutput(value: string | undefined, use: OutputPathUse): void {
  if (value === '-') throw new CliUsageError(commandMessages.dashOutput(use.what, use.writes, use.example), { option: use.option });
}

/** What of a home rdw owns, by its path relative to the home: written by rdw alone (the catalog, the store, state). */
function keptInHome(relative: string, kind: 'file' | 'folder'): string | undefined {
  const [first] = relative.split(path.sep);
  if (relative === CATALOG_FILE || relative.startsWith(`${CATALOG_FILE}.`)) return `the catalog (${CATALOG_FILE})`;
  if (first === 'store') return kind === 'file' ? 'a verified stored file (store/)' : 'the store of verified files (store/)';
  if (first === 'state' || relative === SYNC_LOCK_FILE || relative === KNOWN_LIMITS_FILE) return `the home's own ${relative}`;
  return undefined;
}

/** `target` with its folder's (and, when it exists, its own) symbolic links resolved; as given when its folder is absent. */
async function resolvedPath(target: string): Promise<string> {
  const whole = await realpath(target).catch(() => undefined);
  if (whole !== undefined) return whole;
  const folder = await realpath(path.dirname(target)).catch(() => path.dirname(target));
  return path.join(folder, path.basename(target));
}

/**
 * Throws CliUsageError (exit 2) when the file `target` (absolute) would replace what rdw keeps in `home`: its
 * catalog.duckdb (and DuckDB's files beside it), a file of store/ or state/, sync.lock, account-limits.json. rdw
 * sql --parquet and rdw lock replace an existing file whole (as a shell's > does): run on the home's own catalog,
 * they left a Parquet file or a lock where the catalog was (every later command: "not a readable DuckDB catalog").
 * `kind: 'folder'` (rdw export, a report's --out): a folder there or under store/ or state/ (rdw gc empties
 * store/tmp, and store/ holds verified files only); the home folder itself, or another folder in it, passes.
 */
export async function refuseHomeOutput(
  home: string,
  target: string,
  use: Pick<OutputPathUse, 'what' | 'example' | 'option'> & { typed: string; kind?: 'file' | 'folder' },
): Promise<void> {
  const [file, folder] = await Promise.all([resolvedPath(target), realpath(home).catch(() => home)]);
  const relative = path.relative(folder, file);
  // Outside the home ('..', '../x'; a file named '..x' inside it is inside), or the home folder itself.
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return;
  const kept = keptInHome(relative, use.kind ?? 'file');
  if (kept !== undefined) throw new CliUsageError(commandMessages.homeOutput(use.what, use.typed, kept, use.example, use.kind), { option: use.option });
}

/**
 * Throws NotAFolderError (exit 1, the sentence a failed write gives) when the output folder `value` (resolved
 * from `cwd`) is a file, or lies under one: checked before a study runs, so the refusal does not come after
 * its table (or minutes of a model study). An absent folder passes (the report makes it), as does no value.
 */
export async function refuseFileAsOutputFolder(cwd: string, value: string | undefined): Promise<void> {
  if (value === undefined) return;
  const folder = path.resolve(cwd, value);
  for (let at = folder; ; at = path.dirname(at)) {
    const kind = await stat(at).then((info) => (info.isDirectory() ? 'folder' : 'other'), (error: NodeJS.ErrnoException) => (error.code === 'ENOTDIR' ? 'under a file' : 'absent'));
    if (kind === 'folder') return;
    if (kind === 'other') throw new NotAFolderError(environmentMessages.notAFolder(folder), { path: at });
    if (path.dirname(at) === at) return;
  }
}
