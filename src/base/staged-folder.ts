// Writes a folder's files so that a failure (a full disk, a file-size limit) leaves nothing behind: every byte
// goes to a hidden staging folder made by makeTemporaryFolder on the same file system, and only complete files
// are renamed into place (a rename needs no space). `rdw export` and the study reports (`--out`) write this way.

import { chmod, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { makeFolder, refuseDanglingLink } from './make-folder.js';
import { makeTemporaryFolder, removeTree } from './remove-tree.js';

/** Name prefix of the staging folder made inside an existing target: a leftover of a killed run, never a result. */
export const STAGING_FOLDER_PREFIX = '.rdw-staging-';

/**
 * Runs `fill(staging)`, which writes files into `staging`, then moves what it wrote into `dir`:
 * - `dir` absent: staging is made beside it (`<parent>/.<name>.XXXXXX`) and renamed to `dir` whole;
 * - `dir` a folder: staging is made inside it (`<dir>/.rdw-staging-XXXXXX`), and each entry it holds is renamed
 *   into `dir`, replacing a file of the same name (the report files of an earlier run).
 * When `fill` or a move fails, the staging folder is removed and `dir` is as before (absent stays absent), and
 * the error is thrown with the staging path in its `path` and message replaced by the final one.
 */
export async function writeFolderStaged<T>(dir: string, fill: (staging: string) => Promise<T>): Promise<T> {
  const target = path.resolve(dir);
  const exists = await stat(target).then((info) => info.isDirectory(), () => false);
  if (!exists) await refuseDanglingLink(target);
  const parent = exists ? target : path.dirname(target);
  if (!exists) await makeFolder(parent);
  const staging = await makeTemporaryFolder(exists ? STAGING_FOLDER_PREFIX : `.${path.basename(target)}.`, { parent }).catch(
    (error: unknown) => {
      // Making the staging folder is making the target's folder (a file system like /proc refuses it with
      // ENOENT from mkdtemp): say so with the target's path, as makeFolder's own refusal would.
      throw asMkdirOf(error, target);
    },
  );
  const stopCleanupOnSignal = removeOnSignal(staging);
  try {
    const value = await fill(staging);
    if (exists) {
      for (const name of await readdir(staging)) await rename(path.join(staging, name), path.join(target, name));
    } else {
      await chmod(staging, 0o777 & ~process.umask()); // mkdtemp made it 0700; a folder rdw makes has the usual mode
      await rename(staging, target);
    }
    return value;
  } catch (error) {
    throw retarget(error, staging, target);
  } finally {
    stopCleanupOnSignal();
    await removeTree(staging).catch(() => undefined);
  }
}

/**
 * While nothing else listens for SIGINT/SIGTERM (a command without its own interrupt handling, e.g. `rdw export`),
 * a signal first removes the staging folder, then ends the process as the signal would have (exit 130/143), so
 * a Ctrl-C leaves no hidden folder behind. Returns the function that stops listening.
 */
function removeOnSignal(staging: string): () => void {
  if (process.listenerCount('SIGINT') > 0 || process.listenerCount('SIGTERM') > 0) return () => undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    void removeTree(staging)
      .catch(() => undefined)
      .finally(() => process.kill(process.pid, signal));
  };
  const stop = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return stop;
}

/**
 * `error` with the staging folder's path replaced by the target's in its `path` and message (it is gone); a
 * system error that names no path (a write to an open file) gets the target's.
 */
function retarget(error: unknown, staging: string, target: string): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const source = error as { code?: unknown; path?: unknown; message?: unknown };
  try {
    if (typeof source.path === 'string') source.path = source.path.replaceAll(staging, target);
    else if (typeof source.code === 'string' && /^E[A-Z]+$/.test(source.code)) source.path = target;
    if (typeof source.message === 'string') source.message = source.message.replaceAll(staging, target);
  } catch {
    // a read-only property: the error stays as it was
  }
  return error;
}

/** A refusal to make the staging folder reported as mkdir of `target` (the folder the caller asked for). */
function asMkdirOf(error: unknown, target: string): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const source = error as { code?: unknown; syscall?: unknown; path?: unknown; message?: unknown };
  if (typeof source.code !== 'string') return error;
  return Object.assign(new Error(`${source.code}: could not create the folder, mkdir '${target}'`), {
    code: source.code,
    syscall: 'mkdir',
    path: target,
    cause: error,
  });
}
