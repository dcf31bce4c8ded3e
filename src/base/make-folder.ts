// makeFolder: `mkdir -p` that always returns. Node's `mkdir(dir, { recursive: true })` spins forever where a
// file system answers ENOENT for a child of a folder that exists (/proc, /sys: `rdw --home /proc/x` hung;
// nodejs/node's recursive mkdir retries the parent, which exists, then the child again). Here each missing
// folder is made once, top down, and any refusal is thrown as Node's own error (code, syscall 'mkdir', path).

import { lstat, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** Creates `dir` and the folders above it that are missing; nothing when it exists. Throws Node's fs error. */
export async function makeFolder(dir: string): Promise<void> {
  const target = path.resolve(dir);
  // 1. The folders to make, nearest to the root first: walk up to the first path that exists.
  const missing: string[] = [];
  for (let folder = target; ; folder = path.dirname(folder)) {
    const exists = await stat(folder).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
    if (exists || path.dirname(folder) === folder) break;
    missing.unshift(folder);
  }
  // 2. Make each once. EEXIST: made meanwhile by another process (fine if it is a folder; mkdir of the next
  //    one, or the stat below, says ENOTDIR otherwise). Any other error, ENOENT included, is final.
  for (const folder of missing) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  const info = await stat(target).catch(async (error: NodeJS.ErrnoException) => {
    // mkdir said it exists, stat says it does not: a symbolic link to nothing.
    if (error.code === 'ENOENT') await refuseDanglingLink(target, error);
    throw error;
  });
  if (!info.isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${target}'`), { code: 'ENOTDIR', syscall: 'mkdir', path: target });
  }
}

/**
 * Throws Node's ENOENT error marked `danglingLink` (contract's BadPathError says "a symbolic link to nothing")
 * when `target` is a symbolic link whose target does not exist; returns otherwise. `error`: stat's own, when
 * the caller has it. A folder renamed onto such a link fails as ENOTDIR, which would call the link a file.
 */
export async function refuseDanglingLink(target: string, error?: NodeJS.ErrnoException): Promise<void> {
  const isLink = await lstat(target).then((found) => found.isSymbolicLink(), () => false);
  if (!isLink) return;
  const statError = error ?? (await stat(target).then(() => undefined, (failed: NodeJS.ErrnoException) => failed));
  if (statError?.code === 'ENOENT') throw Object.assign(statError, { danglingLink: true });
}
