// Benchmark: install time and node_modules size. `npm ci --prefer-offline` into a temp copy of
// package.json + package-lock.json (no install script builds anything: dist/ is built by `npm test`, `npm start`
// and `prepack`), from the local npm cache (network only for what the cache lacks). Run: node --import tsx test/bench/install.bench.ts

import { execFile } from 'node:child_process';
import { copyFile, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/jupyter.js';
import { formatTable } from './support/format-table.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

const run = promisify(execFile);

/** Top-level package directories under node_modules (scoped ones counted per package). */
async function countTopLevel(modules: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    count += entry.name.startsWith('@') ? (await readdir(path.join(modules, entry.name))).length : 1;
  }
  return count;
}

/** The `npm error` lines that say what went wrong (not the usage text npm prints after them). */
function npmErrorSummary(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.startsWith('npm error ') && line.trim() !== 'npm error');
  const end = lines.findIndex((line) => /Clean install a project|Usage:/.test(line));
  return (end >= 0 ? lines.slice(0, end) : lines.slice(0, 12)).map((line) => line.slice('npm error '.length)).join('; ');
}

async function main(): Promise<void> {
  const dir = await makeTemporaryFolder('rdw-install-bench-');
  try {
    await copyFile(path.join(REPO_ROOT, 'package.json'), path.join(dir, 'package.json'));
    await copyFile(path.join(REPO_ROOT, 'package-lock.json'), path.join(dir, 'package-lock.json'));

    // 1. npm ci; if npm refuses the lock file (out of sync with package.json), say so and measure
    // `npm install --prefer-offline` in the same temp copy instead (the repository's lock is not touched).
    let command = ['ci', '--prefer-offline', '--no-audit', '--no-fund'];
    let ciError: string | undefined;
    let started = performance.now();
    let stdout = '';
    try {
      stdout = (await run('npm', command, { cwd: dir, maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (error) {
      ciError = npmErrorSummary(String((error as { stderr?: string }).stderr ?? error));
      console.error(`npm ci failed: ${ciError}`);
      command = ['install', '--prefer-offline', '--no-audit', '--no-fund'];
      await removeTree(path.join(dir, 'node_modules'));
      started = performance.now();
      stdout = (await run('npm', command, { cwd: dir, maxBuffer: 16 * 1024 * 1024 })).stdout;
    }
    const seconds = (performance.now() - started) / 1000;

    const modules = path.join(dir, 'node_modules');
    const du = async (args: string[]) => Number((await run('du', [...args, modules])).stdout.split('\t')[0]);
    const diskKiB = await du(['-sk']);
    const apparentKiB = await du(['-sk', '--apparent-size']);
    const { stdout: files } = await run('sh', ['-c', `find "${modules}" -type f | wc -l`]);
    const { stdout: sizes } = await run('sh', ['-c', `cd "${modules}" && du -sk $(ls -d */ @*/*/ 2>/dev/null | grep -v '^@[^/]*/$') | sort -rn | head -5`]);
    const largest = sizes.trim().split('\n').map((line) => {
      const [kib, name] = line.split('\t');
      return { package: name!.replace(/\/$/, ''), MiB: Number((Number(kib) / 1024).toFixed(1)) };
    });
    const lock = JSON.parse(await readFile(path.join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const result = {
      benchmark: 'install',
      command: `npm ${command.join(' ')}`,
      ...(ciError === undefined ? {} : { ciError }),
      npm: (await run('npm', ['--version'])).stdout.trim(),
      seconds: Number(seconds.toFixed(2)),
      nodeModulesMiB: Number((diskKiB / 1024).toFixed(1)),
      nodeModulesApparentMiB: Number((apparentKiB / 1024).toFixed(1)),
      files: Number(files.trim()),
      lockedPackages: Object.keys(lock.packages).filter((key) => key !== '').length,
      topLevelPackages: await countTopLevel(modules),
      largest,
      npmSummary: stdout.trim().split('\n').at(-1) ?? '',
    };
    console.log(
      formatTable(
        ['measure', 'value'],
        [
          [`${result.command} (s)`, result.seconds],
          ...(ciError === undefined ? [] : [['npm ci (failed)', `${ciError.slice(0, 60)}…`]]),
          ['largest packages (MiB)', largest.map((l) => `${l.package} ${l.MiB}`).join(', ')],
          ['node_modules on disk (MiB)', result.nodeModulesMiB],
          ['node_modules apparent size (MiB)', result.nodeModulesApparentMiB],
          ['files', result.files],
          ['packages in lock / top level', `${result.lockedPackages} / ${result.topLevelPackages}`],
        ],
      ),
    );
    console.log(JSON.stringify(result));
  } finally {
    await removeTree(dir);
  }
}

await main();
