// A notebook refuses a changed store before computing anything: notebook 02, run by Jupyter with the tslab
// kernel over a home whose locked parquet was altered after import, stops at Study.open with the lock
// mismatch naming release and file, and prints no study number. Under CI=true a missing Jupyter fails.

import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUPYTER_PACKAGES, REPO_ROOT, findJupyterPython, installTslabKernel, type TslabKernelFolder } from '../support/jupyter.js';
import { printedText, readNotebook } from '../support/notebook-outputs.js';

const run = promisify(execFile);
const NOTEBOOK = path.join(REPO_ROOT, 'notebooks', '02-event-study.ipynb');
const LOCK = path.join(REPO_ROOT, 'notebooks', '02-event-study.lock.json');
const python = await findJupyterPython();
const required = process.env.CI === 'true' || process.env.RDW_REQUIRE_JUPYTER === '1';

describe('a notebook over a changed store', () => {
  it('finds Jupyter, or is allowed to go without it outside CI', () => {
    if (!python && required) throw new Error(`Jupyter is missing: install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first).`);
  });

  describe.runIf(python !== undefined)('executed with the tslab kernel', () => {
    let kernel: TslabKernelFolder | undefined;
    beforeAll(async () => {
      kernel = await installTslabKernel(python!);
    }, 120_000);
    afterAll(() => kernel?.dispose());

    it('stops at Study.open with exit-3 lock mismatch naming release and file, and computes no number', async () => {
      // 1. Reproduce the lock into a fresh home with the CLI (embedded mock), then alter one stored parquet byte.
      const home = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebook-tampered-'));
      const env = { ...process.env, RDW_HOME: home, RDW_BASE_URL: undefined, RDW_SITE_URL: undefined, RDW_API_KEY: undefined };
      await run(process.execPath, [path.join(REPO_ROOT, 'dist/cli/main.js'), 'reproduce', LOCK, '--json'], { env });
      const lock = JSON.parse(await readFile(LOCK, 'utf8')) as { releases: { id: string; files: { parquet: { sha256: string } } }[] };
      const { id, files } = lock.releases[0]!;
      const stored = path.join(home, 'store', 'sha256', files.parquet.sha256.slice(0, 2), files.parquet.sha256);
      const bytes = await readFile(stored);
      bytes[bytes.length >> 1] ^= 0xff;
      await chmod(stored, 0o644);
      await writeFile(stored, bytes);

      // 2. Run the notebook; --allow-errors keeps the executed copy so its outputs can be read.
      const outputDir = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebook-out-'));
      await run(
        python!,
        ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--allow-errors', '--ExecutePreprocessor.timeout=300', '--output-dir', outputDir, NOTEBOOK],
        { cwd: path.dirname(NOTEBOOK), env: { ...env, JUPYTER_PATH: kernel!.dataDir, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, maxBuffer: 64 * 1024 * 1024 },
      );
      const executed = await readNotebook(path.join(outputDir, path.basename(NOTEBOOK)));

      // 3. The first cell's error is the lock mismatch for that release's parquet; no cell printed a result.
      const printed = printedText(executed);
      const setup = printed.find((cell) => cell.id === 'setup')!;
      // tslab reports a cell's rejection on its stderr stream, with the error's fields.
      expect(setup.text).toContain(`LockMismatchError: The stored parquet file of release ${id}`);
      expect(setup.text).toContain('the lock says');
      expect(setup.text).toContain("code: 'RDW_LOCK_MISMATCH'");
      expect(setup.text).toContain('exitCode: 3');
      const numbers = printed.find((cell) => cell.id === 'study-numbers')!;
      expect(numbers.text).not.toMatch(/\d+\.\d+/);
      expect(printed.map((cell) => cell.text).join('\n')).not.toContain('reproduced ');
    }, 300_000);

    it('stops at Study.open when a row was changed behind rdw\'s back (the committed lock has no rowsFingerprint)', async () => {
      // 1. Reproduce the lock into a fresh home, then change one price with a DuckDB connection of its own.
      const home = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebook-rows-'));
      const env = { ...process.env, RDW_HOME: home, RDW_BASE_URL: undefined, RDW_SITE_URL: undefined, RDW_API_KEY: undefined };
      await run(process.execPath, [path.join(REPO_ROOT, 'dist/cli/main.js'), 'reproduce', LOCK, '--json'], { env });
      const lock = JSON.parse(await readFile(LOCK, 'utf8')) as { releases: { id: string; rowsFingerprint?: string }[] };
      expect(lock.releases.every((release) => release.rowsFingerprint === undefined)).toBe(true);
      const { id } = lock.releases[0]!;
      const instance = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'));
      const connection = await instance.connect();
      await connection.run(`UPDATE market_events SET price = price * 2 WHERE release_id = '${id}'`);
      connection.closeSync();
      instance.closeSync();

      // 2. Run the notebook: its first cell stops with the rows mismatch; no cell printed a study number.
      const outputDir = await mkdtemp(path.join(os.tmpdir(), 'rdw-notebook-out-'));
      await run(
        python!,
        ['-m', 'nbconvert', '--to', 'notebook', '--execute', '--allow-errors', '--ExecutePreprocessor.timeout=300', '--output-dir', outputDir, NOTEBOOK],
        { cwd: path.dirname(NOTEBOOK), env: { ...env, JUPYTER_PATH: kernel!.dataDir, PYDEVD_DISABLE_FILE_VALIDATION: '1' }, maxBuffer: 64 * 1024 * 1024 },
      );
      const printed = printedText(await readNotebook(path.join(outputDir, path.basename(NOTEBOOK))));
      const setup = printed.find((cell) => cell.id === 'setup')!;
      expect(setup.text).toContain(`LockMismatchError: The catalog's rows of release ${id} differ from the rows the lock pins`);
      expect(setup.text).toContain("code: 'RDW_LOCK_MISMATCH'");
      const numbers = printed.find((cell) => cell.id === 'study-numbers')!;
      expect(numbers.text).not.toMatch(/\d+\.\d+/);
    }, 300_000);
  });
});
