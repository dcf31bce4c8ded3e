// writeLock / readLock: a study lock on disk, written atomically (temp file + fsync + rename) as canonical text.

import { lstat, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isFolder } from '../base/index.js';
import type { Catalog } from '../catalog/index.js';
import { environmentMessages, IsAFolderError, NotARegularFileError, writeFailureOf } from '../contract/index.js';
import { recordStudyLock, type RecordStudyLockOptions } from './record-study-lock.js';
import { StudyOptionError } from './study-errors.js';
import type { StudyLock } from './study-lock.js';
import { studyLockFromJson, studyLockToJson } from './study-lock-json.js';
import { studyMessages } from './messages.js';

/**
 * Records the lock of `releaseIds` from the catalog (see recordStudyLock) and writes it to `lockPath`
 * atomically: a temp file beside it, fsync, rename. Returns the lock written.
 */
export async function writeLock(lockPath: string, catalog: Catalog, releaseIds: readonly string[], options: RecordStudyLockOptions = {}): Promise<StudyLock> {
  const lock = await recordStudyLock(catalog, releaseIds, options);
  await writeLockFile(lockPath, lock);
  return lock;
}

/**
 * Writes a lock's canonical text to `lockPath` atomically (temp file in the same folder, fsync, rename). A symbolic
 * link to a file is written through (the link stays); a device, FIFO, socket or dangling link is refused.
 * @throws NotARegularFileError (exit 1) for those; the environment errors of a failed write
 */
export async function writeLockFile(givenPath: string, lock: StudyLock): Promise<void> {
  const lockPath = await regularFileTarget(givenPath);
  const text = studyLockToJson(lock);
  const temp = path.join(path.dirname(lockPath), `.${path.basename(lockPath)}.${process.pid}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, lockPath);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw writeFailureOf(error, lockPath, await isFolder(path.dirname(lockPath)));
  }
}

/**
 * The file a write of `file` replaces: `file`, or the file its symbolic link leads to (rdw lock checks it before
 * pulling anything). @throws IsAFolderError for a folder (or a link to one); NotARegularFileError for a device,
 * FIFO, socket or dangling link
 */
export async function regularFileTarget(file: string): Promise<string> {
  const found = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw writeFailureOf(error, file, true);
  });
  if (found === undefined) return file;
  if (found.isFile()) {
    await refuseReplacingNonLock(file, found.size);
    return file;
  }
  // Refused here, before rdw lock pulls anything (it pulled, then the rename failed EISDIR: a new user's trial).
  if (found.isDirectory()) throw new IsAFolderError(environmentMessages.isAFolder(file), { path: file });
  if (found.isSymbolicLink()) {
    const target = await realpath(file).catch(() => undefined);
    if (target === undefined) throw new NotARegularFileError(environmentMessages.notARegularFile(file, 'a symbolic link to nothing'), { path: file });
    return regularFileTarget(target);
  }
  const kind = found.isFIFO() ? 'a FIFO (named pipe)' : found.isSocket() ? 'a socket' : 'a device';
  throw new NotARegularFileError(environmentMessages.notARegularFile(file, kind), { path: file });
}

/**
 * A lock replaces an earlier lock (or an empty file), never another file: `rdw lock notes.md --latest 3` had
 * replaced the notes with a lock. Any JSON object with a `lockVersion` counts as a lock (a newer or a damaged one too).
 * @throws StudyOptionError (exit 2) naming the file, before anything is pulled or written
 */
async function refuseReplacingNonLock(file: string, size: number): Promise<void> {
  if (size === 0) return;
  const text = size > MAX_LOCK_BYTES ? undefined : await readFile(file, 'utf8').catch(() => undefined);
  if (text !== undefined && isLockText(text)) return;
  throw new StudyOptionError(studyMessages.lockWouldReplace(path.basename(file)), { option: 'lock' });
}

function isLockText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'lockVersion');
  } catch {
    return false;
  }
}

/** The largest lock file read: 64 MiB (a lock of 10,000 releases is about 6 MiB). */
const MAX_LOCK_BYTES = 64 * 2 ** 20;

/**
 * Reads and validates the lock at `lockPath`. Messages name the file by its base name (no machine path).
 * @throws StudyOptionError (exit 2) when the file is missing, unreadable, not a file (a FIFO, a device) or over
 * 64 MiB; LockFormatError (exit 2) when
 * malformed; LockVersionError (exit 2) when written in a newer lockVersion.
 */
export async function readLock(lockPath: string): Promise<StudyLock> {
  const source = path.basename(lockPath);
  // A FIFO made readFile wait forever (rdw reproduce hung), and /dev/zero read half a GiB before "Invalid string length".
  const found = await stat(lockPath).catch(() => undefined);
  if (found !== undefined && !found.isFile() && !found.isDirectory()) {
    const kind = found.isFIFO() ? 'a FIFO (named pipe)' : found.isSocket() ? 'a socket' : 'a device';
    throw new StudyOptionError(studyMessages.lockNotAFile(source, kind), { option: 'lock' });
  }
  if (found !== undefined && found.isFile() && found.size > MAX_LOCK_BYTES) {
    throw new StudyOptionError(studyMessages.lockTooLarge(source, found.size, MAX_LOCK_BYTES), { option: 'lock' });
  }
  let text: string;
  try {
    text = await readFile(lockPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? studyMessages.lockMissing(source) : studyMessages.lockNotReadable(source, code ?? (error as Error).message);
    throw new StudyOptionError(message, { cause: error, option: 'lock' });
  }
  return studyLockFromJson(text, source);
}
