// `rdw kernel install`: registers the tslab TypeScript kernel that runs this project's own node_modules,
// using a Python that has Jupyter (Debian's packages; PyPI is not reachable here).

import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { CliUsageError, KernelInstallError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages as m } from '../messages.js';

const run = promisify(execFile);
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const kernelCommand: Command = {
  name: 'kernel',
  line: COMMAND_LINES.kernel,
  async run(context, args) {
    if (args.positionals.join(' ') !== 'install') throw new CliUsageError(m.kernelUsage());
    const python = await findJupyterPython(args.values.python as string | undefined);
    const tslab = path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'tslab');
    try {
      await access(tslab);
    } catch {
      throw new KernelInstallError(m.tslabMissing(path.dirname(tslab)));
    }
    const flags = [`--python=${python}`, `--binary=${tslab}`, ...(args.values.user ? ['--user'] : [])];
    try {
      await run(tslab, ['install', ...flags]);
    } catch (error) {
      throw new KernelInstallError(m.tslabFailed(python), { cause: error });
    }
    context.stdout.write(
      context.json
        ? `${JSON.stringify({ kernel: 'tslab', python, binary: tslab })}\n`
        : m.kernelRegistered(tslab),
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
  throw new CliUsageError(m.noJupyterPython(preferred), { option: 'python' });
}
