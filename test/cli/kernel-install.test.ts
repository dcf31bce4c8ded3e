// `rdw kernel install` against the real Jupyter (jupyter_client): per user by default, in a venv's prefix
// with --sys-prefix, one sentence for two scopes. HOME and every Jupyter folder are temporary; PATH holds
// no `jupyter-kernelspec`, so nothing can reach the machine's registry. Under CI=true Jupyter must be there.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUPYTER_PACKAGES, REPO_ROOT, findJupyterPython } from '../support/jupyter.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

const run = promisify(execFile);
const python = await findJupyterPython();
const required = process.env.CI === 'true' || process.env.RDW_REQUIRE_JUPYTER === '1';
const LAUNCHER = path.join(REPO_ROOT, 'dist', 'cli', 'tslab-kernel-main.js');
const ARGV = [process.execPath, LAUNCHER, 'kernel', '--config-path', '{connection_file}'];
/** The machine's own kernel folders (user and system): no test may create a tslab kernel there. */
const MACHINE_DIRS = [
  path.join(os.homedir(), '.local', 'share', 'jupyter', 'kernels', 'tslab'),
  '/usr/local/share/jupyter/kernels/tslab',
  '/usr/share/jupyter/kernels/tslab',
];
const machineBefore = MACHINE_DIRS.map((dir) => existsSync(dir));

interface KernelSpecs {
  kernelspecs: Record<string, { resource_dir: string; spec: { argv: string[]; display_name: string } }>;
}

let root = '';
let env: Record<string, string> = {};

/** Jupyter's own listing, run by `interpreter` with the test's environment. */
async function listKernelSpecs(interpreter: string): Promise<KernelSpecs> {
  const { stdout } = await run(interpreter, ['-m', 'jupyter_client.kernelspecapp', 'list', '--json'], { env });
  return JSON.parse(stdout) as KernelSpecs;
}

describe('rdw kernel install', () => {
  it('finds Jupyter, or is allowed to go without it outside CI', () => {
    if (!python && required) {
      throw new Error(`Jupyter is missing: install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first).`);
    }
    expect(MACHINE_DIRS).toHaveLength(3);
  });

  describe.runIf(python !== undefined)('with the real Jupyter', () => {
    beforeAll(async () => {
      root = await makeTemporaryFolder('rdw-kernel-install-');
      const at = (name: string) => path.join(root, name);
      env = {
        // The venv's bin only: no jupyter-kernelspec of the machine can be found and run.
        PATH: at('venv/bin'),
        HOME: at('home'),
        JUPYTER_DATA_DIR: at('data'),
        JUPYTER_CONFIG_DIR: at('config'),
        JUPYTER_PATH: at('path'),
        JUPYTER_RUNTIME_DIR: at('runtime'),
        PYDEVD_DISABLE_FILE_VALIDATION: '1',
      };
      await run(python!, ['-m', 'venv', '--system-site-packages', '--without-pip', at('venv')]);
    }, 60_000);

    afterAll(async () => {
      if (root) await removeTree(root);
      expect(MACHINE_DIRS.map((dir) => existsSync(dir))).toEqual(machineBefore);
    });

    it('registers per user by default: kernel.json runs this Node with the launcher', async () => {
      const result = await runBuiltCli(['kernel', 'install'], { env });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const dir = path.join(root, 'data', 'kernels', 'tslab');
      expect(result.stdout).toBe(
        `Registered the "TypeScript" (tslab) kernel for this user, in ${dir}.\n` +
          'Open notebooks/*.ipynb in JupyterLab or VS Code and pick that kernel.\n',
      );
      const { kernelspecs } = await listKernelSpecs(python!);
      expect(kernelspecs.tslab).toMatchObject({ resource_dir: dir, spec: { argv: ARGV, display_name: 'TypeScript' } });
      expect(JSON.parse(await readFile(path.join(dir, 'kernel.json'), 'utf8'))).toEqual({
        argv: ARGV,
        display_name: 'TypeScript',
        language: 'typescript',
      });
    });

    it("with --sys-prefix registers in the given Python's prefix (a venv), not per user", async () => {
      const venvPython = path.join(root, 'venv', 'bin', 'python');
      await removeTree(path.join(root, 'data'));
      const result = await runBuiltCli(['--json', 'kernel', 'install', '--python', venvPython, '--sys-prefix'], { env });
      expect(result.code).toBe(0);
      const dir = path.join(root, 'venv', 'share', 'jupyter', 'kernels', 'tslab');
      expect(JSON.parse(result.stdout)).toEqual({ kernel: 'tslab', scope: 'sys-prefix', dir, python: venvPython, argv: ARGV });
      const { kernelspecs } = await listKernelSpecs(venvPython);
      expect(kernelspecs.tslab).toMatchObject({ resource_dir: dir, spec: { argv: ARGV } });
      expect(existsSync(path.join(root, 'data', 'kernels', 'tslab'))).toBe(false);
      // The system's Python does not see a venv's kernels.
      expect((await listKernelSpecs(python!)).kernelspecs.tslab).toBeUndefined();
    });

    it.each([
      ['--user', '--system'],
      ['--sys-prefix', '--system'],
      ['--user', '--sys-prefix'],
    ])('refuses %s with %s in one sentence (exit 2), registering nothing', async (first, second) => {
      await removeTree(path.join(root, 'data'));
      const result = await runBuiltCli(['kernel', 'install', first, second], { env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('rdw: Give at most one of --user, --sys-prefix and --system (the default is --user).\n');
      expect(existsSync(path.join(root, 'data', 'kernels'))).toBe(false);
    });
  });
});

describe('the kernel launcher', () => {
  // tslab's own `kernel` command starts another checkout's tslab when the notebook's folder has one above it
  // (enableFindLocal); the launcher starts its own, always (a notebook elsewhere ran unpatched and failed).
  it("never starts a tslab found above the notebook's folder", async () => {
    const folder = await makeTemporaryFolder('rdw-kernel-local-');
    try {
      const marker = path.join(folder, 'local-tslab-started');
      const fake = path.join(folder, 'node_modules', 'tslab', 'dist');
      await mkdir(fake, { recursive: true });
      await writeFile(path.join(fake, 'main.js'), `exports.startKernel = () => require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'yes');\n`);
      const launcher = path.join(REPO_ROOT, 'dist', 'cli', 'tslab-kernel-main.js');
      // No connection file: this checkout's kernel fails to start at once (exit non-zero); the fake must not run.
      const run = await promisify(execFile)(process.execPath, [launcher, 'kernel', '--config-path', path.join(folder, 'missing.json')], { cwd: folder, timeout: 60_000 }).then(
        () => ({ failed: false }),
        () => ({ failed: true }),
      );
      expect(run.failed).toBe(true);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await removeTree(folder);
    }
  }, 90_000);
});
