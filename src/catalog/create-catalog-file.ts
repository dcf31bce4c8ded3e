// Creates a new catalog file whole or not at all. DuckDB writes a new database's headers in several steps, and
// a process killed between them leaves a file no DuckDB can open (measured: 5 of 60 kills within 27 ms of the
// file's appearance), so a new catalog is built and migrated under a temporary name and linked into place
// complete.

import { randomBytes } from 'node:crypto';
import { link, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ownFolder, removeTree } from '../base/index.js';
import { closeDuckdbFile, openDuckdbFile, type LockWait } from './open-duckdb-file.js';
import { runMigrations } from './run-migrations.js';

/** The name a catalog file is built under: `<catalog>.new-<pid>-<8 hex>`. */
const TEMPORARY_NAME = /^(.+)\.new-(\d+)-[0-9a-f]{8}$/;

/**
 * Makes sure `file` exists as a complete, migrated catalog: when it is absent, builds one under a temporary
 * name beside it, checkpoints and syncs it, and links it into place; a catalog another process linked first
 * wins and this one is dropped. Removes the temporary files of killed creators first. True when it created it.
 */
export async function createCatalogFile(file: string, wait: LockWait, now: () => Date): Promise<boolean> {
  await removeAbandoned(file);
  if (await exists(file)) return false;
  const temporary = `${file}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  await ownFolder(`${temporary}.tmp`); // DuckDB's spill folder of the temporary catalog: this process's to remove
  try {
    const opened = await openDuckdbFile(temporary, false, wait);
    try {
      await runMigrations(opened.connection, now());
    } finally {
      closeDuckdbFile(temporary, opened); // checkpoints: the file now holds everything
    }
    await syncToDisk(temporary);
    try {
      await link(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return false;
    }
    return true;
  } finally {
    await removeTemporary(temporary);
  }
}

/** Removes the temporary catalogs of processes that no longer run (killed while creating one); best effort. */
async function removeAbandoned(file: string): Promise<void> {
  const folder = path.dirname(file);
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    const match = TEMPORARY_NAME.exec(name);
    if (match?.[1] !== path.basename(file) || isRunning(Number(match[2]))) continue;
    // Its creator is gone, so its files are this process's to remove; e.g. a read-only home: left as is.
    await ownFolder(`${path.join(folder, name)}.tmp`)
      .then(() => removeTemporary(path.join(folder, name)))
      .catch(() => undefined);
  }
}

/** Removes a temporary catalog: its file, its WAL and DuckDB's spill folder `<file>.tmp` (registered by ownFolder). */
async function removeTemporary(temporary: string): Promise<void> {
  for (const suffix of ['', '.wal']) await rm(`${temporary}${suffix}`, { force: true });
  await removeTree(`${temporary}.tmp`);
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const exists = (file: string) => stat(file).then(() => true, () => false);

/** fsync: the linked catalog survives a power loss as well as a kill. */
async function syncToDisk(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
