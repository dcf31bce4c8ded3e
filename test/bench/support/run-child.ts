// Runs one benchmark script (or any command) as a child process with a time budget: wall time, peak RSS
// of its whole process tree, stdout/stderr, exit status; never throws for a failing or slow child.

import { spawn } from 'node:child_process';
import { sampleTreeRss } from './process-tree-rss.js';

export interface ChildRun {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Wall seconds from spawn to exit. */
  seconds: number;
  /** Peak RSS of the child and its descendants in MiB (sampled every 250 ms: a lower bound). */
  peakTreeRssMiB: number;
  stdout: string;
  stderr: string;
  /** Set when the child could not be started. */
  spawnError?: string;
}

export interface RunChildOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the child's process group after this many seconds. Default 600. */
  timeoutSeconds?: number;
  /** Copy the child's stderr to ours as it arrives (progress lines). Default true. */
  echoStderr?: boolean;
}

/** Spawns `command args` in its own process group; resolves when it exits or its budget runs out. */
export function runChild(command: string, args: readonly string[], options: RunChildOptions = {}): Promise<ChildRun> {
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group, so a timeout also ends grandchildren (a mock server)
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const sampler = child.pid === undefined ? undefined : sampleTreeRss(child.pid);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (options.echoStderr ?? true) process.stderr.write(chunk.replace(/^(?=.)/gm, '    '));
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
    }, timeoutSeconds * 1000);
    const finish = (code: number | null, signal: NodeJS.Signals | null, spawnError?: string) => {
      clearTimeout(timer);
      const peakTreeRssMiB = sampler?.stop() ?? 0;
      killGroup('SIGTERM'); // leftovers (a mock the script forgot) never outlive the bench
      resolve({ code, signal, timedOut, seconds: (performance.now() - started) / 1000, peakTreeRssMiB, stdout, stderr, ...(spawnError ? { spawnError } : {}) });
    };
    child.once('error', (error) => finish(null, null, error.message));
    child.once('close', (code, signal) => finish(code, signal));
  });
}
