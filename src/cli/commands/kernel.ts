// `rdw kernel install`: registers the tslab TypeScript kernel that runs this project's own node_modules,
// using a Python that has Jupyter (Debian's packages; PyPI is not reachable here).

import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { RdwError, UsageError } from '../../contract/index.js';
import type { Command } from '../command.js';

const run = promisify(execFile);
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Debian packages that provide Jupyter for the notebooks (PyPI is not reachable here). */
export const JUPYTER_PACKAGES = 'jupyter-nbconvert python3-nbclient python3-ipykernel jupyter-client';

class KernelInstallError extends RdwError {
  override readonly code = 'RDW_KERNEL_INSTALL';
}

export const kernelCommand: Command = {
  name: 'kernel',
  summary: 'Register the tslab TypeScript kernel for the notebooks (kernel install [--python PATH] [--user]).',
  usage: 'kernel install [--python PATH] [--user]',
  options: { python: { type: 'string' }, user: { type: 'boolean', default: false } },
  allowPositionals: true,
  async run(context, args) {
    if (args.positionals.join(' ') !== 'install') throw new UsageError('Use "rdw kernel install" to register the TypeScript kernel.');
    const python = await findJupyterPython(args.values.python as string | undefined);
    const tslab = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tslab');
    try {
      await access(tslab);
    } catch {
      throw new KernelInstallError(`tslab is not installed under ${path.dirname(tslab)}; run "npm install" in the rdw folder first.`);
    }
    const flags = [`--python=${python}`, `--binary=${tslab}`, ...(args.values.user ? ['--user'] : [])];
    try {
      await run(tslab, ['install', ...flags]);
    } catch (error) {
      throw new KernelInstallError(`tslab could not register its kernel with ${python}; check that Jupyter works ("${python} -m jupyter kernelspec list").`, { cause: error });
    }
    context.stdout.write(
      context.json
        ? `${JSON.stringify({ kernel: 'tslab', python, binary: tslab })}\n`
        : `Registered the "TypeScript" (tslab) kernel, run by ${tslab}.\nOpen notebooks/*.ipynb in JupyterLab or VS Code and pick that kernel.\n`,
    );
  },
};

async function findJupyterPython(preferred: string | undefined): Promise<string> {
  for (const python of preferred ? [preferred] : ['/usr/bin/python3', 'python3']) {
    try {
      await run(python, ['-c', 'import jupyter_client']);
      return python;
    } catch {
      // next candidate
    }
  }
  throw new UsageError(
    `No Python with Jupyter was found${preferred ? ` at ${preferred}` : ''}; install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first), or pass --python PATH.`,
  );
}
