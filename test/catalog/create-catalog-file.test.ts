// A new catalog appears complete or not at all: kill -9 while a process creates one (DuckDB writes a new
// file's headers in steps; before, a kill there left a file no DuckDB could open), two creators at once, and
// the temporary files of killed creators, which the next creation removes.

import { spawn } from 'node:child_process';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOG_FILE, openCatalog } from '../../src/catalog/index.js';
import { createCatalogFile } from '../../src/catalog/create-catalog-file.js';
import { withTempHome } from '../support/temp-home.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WAIT = { busyTimeoutMs: 5_000, busyRetryMs: 50, onWait: undefined };
const catalogFiles = async (home: string) => (await readdir(home)).filter((name) => name.startsWith(CATALOG_FILE)).sort();

/** Starts a process that creates the catalog of `home`; kills it `delayMs` after its first catalog file appears. */
async function killWhileCreating(home: string, delayMs: number): Promise<void> {
  // The built library (npm test builds first): a plain node start, so the kills land in the creation, not in tsx.
  const script = `import('./dist/catalog/index.js').then(async (m) => { const c = await m.openCatalog(${JSON.stringify(home)}); await c.close(); })`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let done = false;
  void exited.then(() => (done = true));
  while (!done && (await catalogFiles(home).catch(() => [])).length === 0) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGKILL');
  await exited;
}

describe('creating a catalog', () => {
  it('a kill -9 at 20 points of a creation leaves no catalog or a whole one; the next open works and tidies up', async () => {
    await withTempHome(async (home) => {
      const seen = new Set<string>();
      for (let round = 0; round < 20; round += 1) {
        const catalogHome = path.join(home, `h${round}`);
        // Half the kills at once (DuckDB writes a new file's headers in its first milliseconds), half spread out.
        await killWhileCreating(catalogHome, round < 10 ? 0 : (round - 9) * 12);
        const left = await catalogFiles(catalogHome).catch(() => []);
        seen.add(left.includes(CATALOG_FILE) ? 'whole' : left.length > 0 ? 'temporary only' : 'nothing');
        const catalog = await openCatalog(catalogHome);
        const [row] = await catalog.query('SELECT count(*)::INTEGER AS n FROM releases');
        await catalog.close();
        expect(row).toEqual({ n: 0 });
        expect(await catalogFiles(catalogHome)).toEqual([CATALOG_FILE]);
      }
      // The kills landed before the catalog was linked into place (at least once: a temporary file was left).
      expect(seen.has('temporary only')).toBe(true);
    });
  }, 120_000);

  it('two creators at once: one links its file, the other uses it', async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, CATALOG_FILE);
      const created = await Promise.all([createCatalogFile(file, WAIT, () => new Date()), createCatalogFile(file, WAIT, () => new Date())]);
      expect(created.sort()).toEqual([false, true]);
      expect(await catalogFiles(home)).toEqual([CATALOG_FILE]);
      expect(await createCatalogFile(file, WAIT, () => new Date())).toBe(false);
    });
  });

  it("removes a killed creator's temporary files, never a running one's", async () => {
    await withTempHome(async (home) => {
      const file = path.join(home, CATALOG_FILE);
      // PID 2^22 + 1 is above Linux's pid_max: no process has it.
      const dead = `${CATALOG_FILE}.new-4194305-0badf00d`;
      const running = `${CATALOG_FILE}.new-${process.pid}-00c0ffee`;
      for (const name of [dead, `${dead}.wal`, running]) await writeFile(path.join(home, name), 'partial');
      // DuckDB's spill folders (`<file>.tmp/`): the dead creator's goes whole (removeTree), the running one's stays.
      for (const name of [`${dead}.tmp`, `${running}.tmp`]) {
        await mkdir(path.join(home, name));
        await writeFile(path.join(home, name, 'duckdb_temp_storage-0.tmp'), 'spilled');
      }
      expect(await createCatalogFile(file, WAIT, () => new Date())).toBe(true);
      expect(await catalogFiles(home)).toEqual([CATALOG_FILE, running, `${running}.tmp`]);
      expect((await stat(file)).size).toBeGreaterThan(12_288);
    });
  });
});
