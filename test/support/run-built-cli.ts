// Test helper: runs the real built CLI (`node dist/cli/main.js …`) as a child process, with only the
// environment given (no RDW_* of the parent), and collects exit code, stdout and stderr.

import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/cli/main.js of this checkout (built by `npm run build`). */
export const BUILT_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli/main.js');

export interface BuiltCliRun {
  /** Exit code; null when the process was killed (see `timedOut`). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the run, in ms. */
  ms: number;
  /** True when the run exceeded `timeoutMs` and was killed. */
  timedOut: boolean;
}

export interface BuiltCliOptions {
  /** Environment of the child, added to PATH and HOME only. Default: none. */
  env?: Record<string, string>;
  /** Working directory. Default: the current one. */
  cwd?: string;
  /** Kill the child (SIGKILL, by its pid) after this many ms. Default 45_000. */
  timeoutMs?: number;
}

/** Runs `node dist/cli/main.js ...argv`; never rejects for a non-zero exit. */
export function runBuiltCli(argv: readonly string[], options: BuiltCliOptions = {}): Promise<BuiltCliRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...argv], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 45_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}
