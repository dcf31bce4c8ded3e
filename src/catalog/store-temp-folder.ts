// The content store's `store/tmp/` folder (ContentStore.tempDir): in-flight and partial downloads, listed,
// removed by name (rdw gc) and cleaned at a writer's open, keeping a young resumable partial with its sidecar.

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../base/index.js';

/** What a temp clean-up removed and kept. */
export interface TempCleanup {
  /** File names removed from `store/tmp/`. */
  removed: string[];
  /** Resumable partial downloads kept (`*.partial` with its `*.partial.json` sidecar). */
  kept: string[];
}

/** Files in `tempDir`, with their sizes in bytes (a folder counts 0), sorted by name. */
export async function listTempFiles(tempDir: string): Promise<{ name: string; bytes: number }[]> {
  const found: { name: string; bytes: number }[] = [];
  for (const name of (await readdir(tempDir).catch(() => [] as string[])).sort()) {
    const info = await stat(path.join(tempDir, name)).catch(() => undefined);
    if (info !== undefined) found.push({ name, bytes: info.isFile() ? info.size : 0 });
  }
  return found;
}

/** Removes the named entries of `tempDir` (files or folders; a name with a path separator is skipped); returns how many were there. */
export async function removeTempEntries(tempDir: string, names: readonly string[]): Promise<number> {
  let removed = 0;
  for (const name of names) {
    if (name === '' || name.includes('/') || name.includes(path.sep) || name === '.' || name === '..') continue;
    if ((await stat(path.join(tempDir, name)).catch(() => undefined)) === undefined) continue;
    await removeTree(path.join(tempDir, name));
    removed += 1;
  }
  return removed;
}

/**
 * Removes stale files from `tempDir`: everything except a resumable partial download (a `.partial` with its
 * `.partial.json` sidecar) younger than `maxPartialAgeMs`. The client resumes a partial only when its sidecar
 * names the same release ID, SHA-256 and size.
 * @param nowMs current time in ms since the epoch (injected for tests)
 * @param maxPartialAgeMs default 24 hours
 */
export async function cleanTempFolder(tempDir: string, nowMs: number, maxPartialAgeMs = 24 * 3600 * 1000): Promise<TempCleanup> {
  const names = await readdir(tempDir).catch(() => [] as string[]);
  const present = new Set(names);
  const removed: string[] = [];
  const kept: string[] = [];
  for (const name of names.sort()) {
    const partial = name.endsWith('.partial') ? name : name.endsWith('.partial.json') ? name.slice(0, -'.json'.length) : undefined;
    if (partial !== undefined && present.has(partial) && present.has(`${partial}.json`)) {
      const info = await stat(path.join(tempDir, partial)).catch(() => undefined);
      if (info !== undefined && nowMs - info.mtimeMs <= maxPartialAgeMs) {
        kept.push(name);
        continue;
      }
    }
    await removeTree(path.join(tempDir, name));
    removed.push(name);
  }
  return { removed, kept };
}
