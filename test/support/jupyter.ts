// Finds Jupyter (from Debian's packages) and registers the project's tslab kernel in a temporary folder,
// so notebook tests never depend on, or change, the machine's kernel registry.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { runBuiltCli } from './run-built-cli.js';

const run = promisify(execFile);
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const JUPYTER_PACKAGES = 'jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-client';

/** The Python that has jupyter_client, nbclient and nbconvert, or undefined. */
export async function findJupyterPython(): Promise<string | undefined> {
  for (const python of ['/usr/bin/python3', 'python3']) {
    try {
      await run(python, ['-c', 'import jupyter_client, nbclient, nbconvert, ipykernel']);
      return python;
    } catch {
      // try the next one
    }
  }
  return undefined;
}

/** A Jupyter data folder holding the registered tslab kernel; it removes itself. */
export interface TslabKernelFolder {
  /** The Jupyter data folder (`kernels/tslab/kernel.json` inside): pass it as JUPYTER_PATH. */
  readonly dataDir: string;
  /** Removes the data folder and all in it; nothing else. Safe to call twice. */
  dispose(): Promise<void>;
}

/**
 * Registers the product's kernel — what `rdw kernel install` writes: this Node running
 * dist/cli/tslab-kernel-main.js — as a per-user kernel of a fresh Jupyter data folder. The built CLI does the
 * registering, so the notebooks prove the launcher works. The caller disposes of the folder (it owns the
 * clean-up, so no caller computes what to delete: issue 27).
 */
export async function installTslabKernel(python: string): Promise<TslabKernelFolder> {
  const dataDir = await makeTemporaryFolder('rdw-kernel-');
  let removed: Promise<void> | undefined;
  const folder: TslabKernelFolder = { dataDir, dispose: () => (removed ??= removeTree(dataDir)) };
  // Jupyter's and IPython's folders inside the data folder: installing writes nothing in the home folder.
  const env = { JUPYTER_DATA_DIR: dataDir, JUPYTER_CONFIG_DIR: path.join(dataDir, 'config'), IPYTHONDIR: path.join(dataDir, 'ipython'), PYDEVD_DISABLE_FILE_VALIDATION: '1' };
  const result = await runBuiltCli(['kernel', 'install', '--python', python, '--user'], { env, timeoutMs: 60_000 });
  if (result.code !== 0) {
    await folder.dispose();
    throw new Error(`rdw kernel install failed (exit ${result.code}): ${result.stderr}`);
  }
  return folder;
}

/** Executes a notebook headlessly with nbconvert; returns the path of the executed copy. */
export async function executeNotebook(
  python: string,
  notebook: string,
  options: {
    jupyterPath: string;
    outputDir: string;
    env: Record<string, string | undefined>;
    timeoutSeconds?: number;
    /** Run every cell even after one errs (nbconvert --allow-errors), to read the errors. Default false. */
    allowErrors?: boolean;
  },
): Promise<string> {
  await run(
    python,
    [
      '-m',
      'nbconvert',
      '--to',
      'notebook',
      '--execute',
      ...(options.allowErrors ? ['--allow-errors'] : []),
      `--ExecutePreprocessor.timeout=${options.timeoutSeconds ?? 300}`,
      '--output-dir',
      options.outputDir,
      notebook,
    ],
    {
      cwd: path.dirname(notebook),
      env: { ...options.env, JUPYTER_PATH: options.jupyterPath, PYDEVD_DISABLE_FILE_VALIDATION: '1' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return path.join(options.outputDir, path.basename(notebook));
}
