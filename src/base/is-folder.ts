// Whether a path is a folder now, for the decisions a failed write needs (a missing folder, or a file system
// that makes no files); any error reading it (absent, denied) reads as "not a folder".

import { stat } from 'node:fs/promises';

/** True when `target` exists and is a folder. */
export async function isFolder(target: string): Promise<boolean> {
  return stat(target).then((info) => info.isDirectory(), () => false);
}
