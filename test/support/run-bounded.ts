// Runs a command in its own process group with a time limit: on time out the whole group is killed (a
// documented command may start servers or children), and the result says so.

import { spawn } from 'node:child_process';

export interface BoundedResult {
  /** The exit code, or undefined when a signal ended it. */
  code: number | undefined;
  signal: NodeJS.Signals | undefined;
  timedOut: boolean;
  seconds: number;
  /** stdout and stderr interleaved as they came, at most the last `keepChars` characters. */
  output: string;
}

export interface BoundedOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** How much of the output to keep (its tail). Default 20,000 characters. */
  keepChars?: number;
}

export function runBounded(command: string, args: string[], options: BoundedOptions): Promise<BoundedResult> {
  const keep = options.keepChars ?? 20_000;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const take = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * keep) output = output.slice(-keep);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // anything the command left running in the background
      resolve({ code: code ?? undefined, signal: signal ?? undefined, timedOut, seconds: (performance.now() - started) / 1000, output: output.slice(-keep) });
    });
  });
}
