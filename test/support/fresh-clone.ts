// A fresh clone of this checkout, as a new user (or CI) has it: `git clone` of HEAD plus the working tree's
// uncommitted tracked changes and untracked files (none in CI, which tests a clean clone; locally the docs
// being edited are what is tested), `npm ci --offline` from the npm cache this repository's `npm ci` filled,
// and `npm run build`.

import { execFile } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The environment of a child that must not look like it runs inside this checkout's `npm test`. */
export function environmentOutsideNpm(extra: Record<string, string> = {}): Record<string, string> {
  const kept = Object.entries(process.env).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !/^npm_(config_local_prefix|package_|lifecycle_)/i.test(entry[0]) && !/^(RDW_|INIT_CWD$)/.test(entry[0]),
  );
  // npm run puts this checkout's node_modules/.bin first on PATH; a user's shell in the clone has none of it.
  const PATH = (process.env.PATH ?? '').split(path.delimiter).filter((entry) => !entry.includes(`node_modules${path.sep}.bin`)).join(path.delimiter);
  return { ...Object.fromEntries(kept), PATH, NO_COLOR: '1', ...extra };
}

export interface FreshClone {
  /** The clone's folder. */
  dir: string;
  /** Seconds per step: clone, npm ci, build. */
  seconds: { clone: number; install: number; build: number };
}

async function timed(step: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await step();
  return (performance.now() - started) / 1000;
}

/** Clones `root` into `dir` (which must not exist), installs from the npm cache only and builds. */
export async function freshClone(root: string, dir: string): Promise<FreshClone> {
  const env = environmentOutsideNpm();
  const options = { env, maxBuffer: 64 * 1024 * 1024 };
  const clone = await timed(async () => {
    const head = (await run('git', ['-C', root, 'rev-parse', 'HEAD'], options)).stdout.trim();
    await run('git', ['clone', '--quiet', '--no-checkout', root, dir], options);
    await run('git', ['-C', dir, 'checkout', '--quiet', head], options);
    const diff = (await run('git', ['-C', root, 'diff', '--binary', 'HEAD'], options)).stdout;
    if (diff !== '') {
      const patch = path.join(dir, '.git', 'working-tree.patch');
      await import('node:fs/promises').then((fs) => fs.writeFile(patch, diff));
      await run('git', ['-C', dir, 'apply', '--whitespace=nowarn', patch], options);
    }
    const untracked = (await run('git', ['-C', root, 'ls-files', '-z', '--others', '--exclude-standard'], options)).stdout.split('\0').filter((file) => file !== '');
    for (const file of untracked) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(dir, file));
    }
  });
  const install = await timed(() => run('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { ...options, cwd: dir }));
  const build = await timed(() => run('npm', ['run', 'build', '--silent'], { ...options, cwd: dir }));
  return { dir, seconds: { clone, install, build } };
}
