// The Jupyter kernel check of `rdw doctor`: is the TypeScript kernel that `rdw kernel install` registers
// (tslab, kernelspec name `tslab`) known to Jupyter, and does it start this checkout's launcher? Only warns:
// the notebooks need it, the CLI does not.

import { execFile } from 'node:child_process';
import { access, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { doctorMessages as m } from '../messages.js';
import { passed, warned, type DoctorCheck } from './doctor-check.js';

const run = promisify(execFile);

/** Kernelspec name that `tslab install` registers for TypeScript. */
export const TSLAB_KERNEL = 'tslab';

/** The launcher `rdw kernel install` puts in a kernel's argv: `<checkout>/dist/cli/tslab-kernel-main.js`. */
const LAUNCHER = 'tslab-kernel-main.js';

/** This package's folder (the same from src/cli/doctor and dist/cli/doctor). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** How long one `jupyter kernelspec list` may take, in ms. */
const LIST_TIMEOUT_MS = 20_000;

interface KernelSpecs {
  kernelspecs: Record<string, { resource_dir?: string; spec?: { argv?: string[] } }>;
}

/**
 * Ways to ask Jupyter for its kernelspecs: `jupyter`, then the Pythons `rdw kernel install` tries, each running
 * jupyter_client's own listing (`-m jupyter kernelspec` would start whichever `jupyter-kernelspec` is first on
 * PATH, whose Python may not be this one, and miss a kernel registered in this Python's prefix).
 */
const LISTERS: readonly (readonly [string, readonly string[]])[] = [
  ['jupyter', ['kernelspec', 'list', '--json']],
  ['/usr/bin/python3', ['-m', 'jupyter_client.kernelspecapp', 'list', '--json']],
  ['python3', ['-m', 'jupyter_client.kernelspecapp', 'list', '--json']],
];

/**
 * Checks the kernel registration with Jupyter's own listing (which honours JUPYTER_PATH and the user,
 * system and environment kernel folders). `env` is the command's environment, passed on without RDW_API_KEY.
 */
export async function checkKernel(env: Readonly<Record<string, string | undefined>>): Promise<DoctorCheck> {
  // An installed package ships no notebooks (package.json "files"): their kernel is a checkout's business.
  const here = await realFolder(PACKAGE_ROOT);
  if (!(await access(path.join(PACKAGE_ROOT, 'notebooks')).then(() => true, () => false))) return passed('kernel', m.kernelNotACheckout(here), { checkout: false });
  const childEnv: Record<string, string> = { PYDEVD_DISABLE_FILE_VALIDATION: '1' };
  for (const [name, value] of Object.entries(env)) if (value !== undefined && name !== 'RDW_API_KEY') childEnv[name] = value;
  const specs = await listKernelSpecs(childEnv);
  if (specs === undefined) return warned('kernel', m.jupyterAbsent(), m.jupyterAbsentRemedy(), { jupyter: false });
  const tslab = specs.kernelspecs[TSLAB_KERNEL];
  if (tslab === undefined) return warned('kernel', m.kernelNotRegistered(), m.kernelRemedy(), { jupyter: true, registered: false });
  // argv = [node, <checkout>/dist/cli/tslab-kernel-main.js, …] (rdw kernel install) or [tslab, …] (older):
  // every absolute path in it must still exist (a moved or deleted checkout leaves the launcher gone).
  const argv = tslab.spec?.argv ?? [];
  const binary = argv[0];
  const facts = { jupyter: true, registered: true, resourceDir: tslab.resource_dir ?? null, binary: binary ?? null, argv };
  for (const program of argv.filter((arg) => path.isAbsolute(arg))) {
    if (!(await access(program).then(() => true, () => false))) return warned('kernel', m.kernelBinaryGone(program), m.kernelRemedy(), facts);
  }
  // The checkout the kernel starts: the folder three levels above its launcher (dist/cli/<launcher>).
  const launcher = argv.find((arg) => path.isAbsolute(arg) && path.basename(arg) === LAUNCHER);
  if (launcher === undefined) return warned('kernel', m.kernelWithoutLauncher(binary ?? TSLAB_KERNEL), m.kernelReregister(here), { ...facts, checkout: null });
  const checkout = await realFolder(path.resolve(path.dirname(launcher), '../..'));
  const checked = { ...facts, checkout, thisCheckout: checkout === here };
  if (checkout !== here) return warned('kernel', m.kernelOtherCheckout(checkout, here), m.kernelReregister(here), checked);
  return passed('kernel', m.kernelOk(tslab.resource_dir ?? TSLAB_KERNEL, checkout), checked);
}

/** A folder's real path (symlinks resolved, no trailing separator), or its resolved path when it cannot be read. */
async function realFolder(folder: string): Promise<string> {
  return realpath(folder).catch(() => path.resolve(folder));
}

async function listKernelSpecs(env: Record<string, string>): Promise<KernelSpecs | undefined> {
  for (const [program, args] of LISTERS) {
    try {
      const { stdout } = await run(program, [...args], { env, timeout: LIST_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 });
      const parsed = JSON.parse(stdout) as Partial<KernelSpecs>;
      if (typeof parsed.kernelspecs === 'object' && parsed.kernelspecs !== null) return parsed as KernelSpecs;
    } catch {
      // not this one: try the next
    }
  }
  return undefined;
}
