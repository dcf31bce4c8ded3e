// Test helper: a fresh temporary RDW_HOME folder, removed after `fn` (read-only store files included).

import { chmod, readdir } from 'node:fs/promises';
import path from 'node:path';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

/** Makes every file under `dir` writable again so it can be removed (the store is chmod 0444). */
async function makeWritable(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) await makeWritable(target);
    else await chmod(target, 0o644).catch(() => {});
  }
}

/** Creates `<tmp>/rdw-home-XXXX`; returns it with a remover. */
export async function createTempHome(prefix = 'rdw-home-'): Promise<{ home: string; remove(): Promise<void> }> {
  const home = await makeTemporaryFolder(prefix);
  return {
    home,
    async remove() {
      await makeWritable(home);
      await removeTree(home);
    },
  };
}

/** Runs `fn` with a temporary RDW_HOME and always removes it. */
export async function withTempHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const temp = await createTempHome();
  try {
    return await fn(temp.home);
  } finally {
    await temp.remove();
  }
}
