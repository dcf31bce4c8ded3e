// A failed write of a file, as the machine failure it is. Besides what environmentErrorOf names, ENOENT
// creating a file in a folder that exists (Node's, or DuckDB's "No such file or directory") is a file system
// that makes no files (/proc, /sys), not a missing folder: `rdw lock /proc/version` once "failed unexpectedly".

import { environmentErrorOf, PermissionDeniedError } from './environment-errors.js';
import { environmentMessages } from './environment-messages.js';

/**
 * The typed environment error for a failed write of `file` (its temporary sibling included), or `error` unchanged.
 * @param folderExists whether `file`'s folder exists now (the caller looks: contract does no I/O).
 */
export function writeFailureOf(error: unknown, file: string, folderExists: boolean): unknown {
  const source = error as { code?: unknown; message?: unknown } | null;
  const missing = source?.code === 'ENOENT' || (typeof source?.message === 'string' && /No such file or directory/.test(source.message));
  if (missing) {
    if (folderExists) return new PermissionDeniedError(environmentMessages.cannotCreateFile(file), { cause: error, path: file });
    return error;
  }
  return environmentErrorOf(error, file) ?? error;
}
