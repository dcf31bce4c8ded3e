// replaceFile: a small state file written whole or not at all (a temporary file beside it, then a rename), so a
// reader never sees half of it; two writers at once leave one whole file (the last rename wins).

import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Writes `text` to `file` through `<file>.<pid>.<random>.tmp` and a rename. On failure the temporary file is
 * removed and the error thrown (callers that keep only a cache catch it).
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
