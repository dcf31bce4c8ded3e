// Finds Jupyter (from Debian's packages) and registers the project's tslab kernel in a temporary prefix,
// so notebook tests never depend on, or change, the machine's kernel registry.

import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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

/** Registers tslab (this repo's node_modules) under a fresh prefix; returns the JUPYTER_PATH to use. */
export async function installTslabKernel(python: string): Promise<string> {
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'rdw-kernel-'));
  const tslab = path.join(REPO_ROOT, 'node_modules', '.bin', 'tslab');
  await run(tslab, ['install', `--python=${python}`, `--binary=${tslab}`, `--prefix=${prefix}`]);
  return path.join(prefix, 'share', 'jupyter');
}

/** Executes a notebook headlessly with nbconvert; returns the path of the executed copy. */
export async function executeNotebook(
  python: string,
  notebook: string,
  options: { jupyterPath: string; outputDir: string; env: Record<string, string | undefined>; timeoutSeconds?: number },
): Promise<string> {
  await run(
    python,
    [
      '-m',
      'nbconvert',
      '--to',
      'notebook',
      '--execute',
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
