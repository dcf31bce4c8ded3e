// The machine and code a benchmark run measured: CPU count and model, memory, Node, date, git HEAD and a
// short hash of each benchmark script (the scripts change while engineers tune them).

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MachineInfo {
  date: string;
  nproc: number;
  cpuModel: string;
  memoryGiB: number;
  loadAverage1m: number;
  node: string;
  platform: string;
  gitHead: string;
  /** `git status --porcelain` lines under test/bench and src (uncommitted work measured). */
  uncommitted: number;
  /** First 12 hex of the sha256 of each script run, by path relative to the repository. */
  scripts: Record<string, string>;
}

function git(root: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** Describes this machine and the given scripts (paths relative to `root`). */
export function machineInfo(root: string, scripts: readonly string[]): MachineInfo {
  const hashes: Record<string, string> = {};
  for (const script of scripts) {
    try {
      hashes[script] = createHash('sha256').update(readFileSync(path.join(root, script))).digest('hex').slice(0, 12);
    } catch {
      hashes[script] = 'missing';
    }
  }
  const status = git(root, ['status', '--porcelain', '--', 'src', 'test/bench']);
  return {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    gitHead: git(root, ['rev-parse', '--short', 'HEAD']),
    uncommitted: status === 'unknown' || status === '' ? 0 : status.split('\n').length,
    scripts: hashes,
  };
}
