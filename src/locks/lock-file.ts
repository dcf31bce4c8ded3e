// writeLock / readLock: a study lock on disk, written atomically (temp file + fsync + rename) as canonical text.

import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { isFolder } from '../base/index.js';
import type { Catalog } from '../catalog/index.js';
import { writeFailureOf } from '../contract/index.js';
import { recordStudyLock } from './record-study-lock.js';
import { StudyOptionError } from './study-errors.js';
import type { StudyLock } from './study-lock.js';
import { studyLockFromJson, studyLockToJson } from './study-lock-json.js';
import { studyMessages } from './messages.js';

/**
 * Records the lock of `releaseIds` from the catalog (see recordStudyLock) and writes it to `lockPath`
 * atomically: a temp file beside it, fsync, rename. Returns the lock written.
 */
export async function writeLock(lockPath: string, catalog: Catalog, releaseIds: readonly string[]): Promise<StudyLock> {
  const lock = await recordStudyLock(catalog, releaseIds);
  await writeLockFile(lockPath, lock);
  return lock;
}

/** Writes a lock's canonical text to `lockPath` atomically (temp file in the same folder, fsync, rename). */
export async function writeLockFile(lockPath: string, lock: StudyLock): Promise<void> {
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
 * Reads and validates the lock at `lockPath`. Messages name the file by its base name (no machine path).
 * @throws StudyOptionError (exit 2) when the file is missing or unreadable; LockFormatError (exit 2) when
 * malformed; LockVersionError (exit 2) when written in a newer lockVersion.
 */
export async function readLock(lockPath: string): Promise<StudyLock> {
  const source = path.basename(lockPath);
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
