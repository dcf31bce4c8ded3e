// `rdw kernel install`: registers the "TypeScript" kernel (tslab from this project's node_modules, started by
// tslab-kernel-main.js) with Jupyter's own kernelspec installer, per user unless --sys-prefix or --system.

import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTemporaryFolder, removeTree } from '../../base/index.js';
import { CliUsageError, KernelInstallError } from '../cli-errors.js';
import type { Command } from '../command.js';
import { COMMAND_LINES } from '../flags.js';
import { commandMessages as m } from '../messages.js';

const run = promisify(execFile);
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The program the kernel runs (dist/cli/tslab-kernel-main.js). */
const KERNEL_MAIN = fileURLToPath(new URL('../tslab-kernel-main.js', import.meta.url));
/** Kernelspec name; `rdw doctor` looks for it. */
const KERNEL_NAME = 'tslab';

/** Where Jupyter registers the kernel: its --user (default), --sys-prefix, or its system folder (no flag). */
export type KernelScope = 'user' | 'sys-prefix' | 'system';

export const kernelCommand: Command = {
  name: 'kernel',
  line: COMMAND_LINES.kernel,
  async run(context, args) {
    if (args.positionals.join(' ') !== 'install') throw new CliUsageError(m.kernelUsage());
    const scope = kernelScope(args.values);
    const python = await findJupyterPython(args.values.python as string | undefined);
    try {
      createRequire(import.meta.url).resolve('tslab/dist/main.js');
    } catch {
      throw new KernelInstallError(m.tslabMissing(path.join(PACKAGE_ROOT, 'node_modules')));
    }
    const where = await installKernelSpec(python, scope);
    context.stdout.write(
      context.json
        ? `${JSON.stringify({ kernel: KERNEL_NAME, scope, dir: where, python, argv: kernelArgv() })}\n`
        : m.kernelRegistered(where, scope),
    );
  },
};

/** The one scope the flags ask for; `user` when none. */
function kernelScope(values: Record<string, unknown>): KernelScope {
  const asked = (['user', 'sys-prefix', 'system'] as const).filter((name) => values[name] === true);
  if (asked.length > 1) throw new CliUsageError(m.kernelScopeConflict());
  return asked[0] ?? 'user';
}

/** The kernel's command line: this Node, the launcher, tslab's kernel arguments. */
function kernelArgv(): string[] {
  return [process.execPath, KERNEL_MAIN, 'kernel', '--config-path', '{connection_file}'];
}

/**
 * Writes kernel.json to a temporary folder and runs Jupyter's kernelspec installer in `python` itself
 * (`-m jupyter_client.kernelspecapp`: `-m jupyter kernelspec` would start the `jupyter-kernelspec` found on
 * PATH, whose own Python decides where --sys-prefix is); returns where it went.
 */
async function installKernelSpec(python: string, scope: KernelScope): Promise<string> {
  const dir = await makeTemporaryFolder('rdw-kernelspec-');
  try {
    const spec = { argv: kernelArgv(), display_name: 'TypeScript', language: 'typescript' };
    await writeFile(path.join(dir, 'kernel.json'), `${JSON.stringify(spec, null, 1)}\n`);
    const flags = scope === 'system' ? [] : [`--${scope}`];
    const { stdout, stderr } = await run(python, ['-m', 'jupyter_client.kernelspecapp', 'install', dir, `--name=${KERNEL_NAME}`, ...flags]);
    // jupyter_client logs "[InstallKernelSpec] Installed kernelspec tslab in <dir>".
    return /Installed kernelspec \S+ in (.+)$/m.exec(`${stderr}\n${stdout}`)?.[1]?.trim() ?? KERNEL_NAME;
  } catch (error) {
    const output = (error as { stderr?: string }).stderr ?? '';
    const detail = /(Permission denied|Errno \d+)[^\n]*/.exec(output)?.[0] ?? (error as Error).message.split('\n')[0]!;
    throw new KernelInstallError(m.kernelspecFailed(python, detail.replace(/\.$/, '')), { cause: error });
  } finally {
    await removeTree(dir);
  }
}

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
