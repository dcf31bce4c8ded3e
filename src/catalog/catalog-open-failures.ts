// Why a catalog could not be opened, told apart: a file DuckDB cannot read (corrupt) and a home folder
// that cannot be created (read-only disk, no permission, a file in the way).

import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { environmentErrorOf } from '../contract/index.js';

/** True when DuckDB refused the file for what is in it: not a database, a failed block checksum, cut short, undecodable. */
export const isCorruption = (error: unknown): boolean =>
  /not a valid DuckDB database file|Corrupt database file|Could not read enough bytes from file|Serialization Error|Failed to deserialize|Invalid Input Error: .*(?:database file|magic)/i.test(
    error instanceof Error ? error.message : String(error),
  );

/**
 * Why the home folder (or its `store/`) could not be created, as a typed environment error. When the error
 * itself does not say (a DuckDB text without a cause), the nearest existing folder above is asked itself.
 */
export async function homeFailure(home: string, error: unknown): Promise<unknown> {
  const direct = environmentErrorOf(error, home);
  if (direct !== undefined) return direct;
  for (let folder = home; ; folder = path.dirname(folder)) {
    const info = await stat(folder).catch(() => undefined);
    if (info !== undefined) {
      if (!info.isDirectory()) return environmentErrorOf({ code: 'ENOTDIR', path: folder }) ?? error;
      const refusal = await access(folder, constants.W_OK).then(() => undefined, (reason: unknown) => reason);
      return (refusal === undefined ? undefined : environmentErrorOf(refusal, folder)) ?? error;
    }
    if (path.dirname(folder) === folder) return error;
  }
}
