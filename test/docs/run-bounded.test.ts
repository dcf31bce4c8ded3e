// runBounded (test/support/run-bounded.ts), what the doc-execution test runs each block with: exit codes and
// output as they came, and on time out the whole process group killed, background children included.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBounded } from '../support/run-bounded.js';

const env = { PATH: process.env.PATH ?? '' };

/** Whether `pid` still runs: a killed process whose new parent has not reaped it yet (a zombie) does not. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits up to `ms` for `pid` to stop running; whether it did. */
async function stops(pid: number, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) if (!running(pid)) return true;
  return !running(pid);
}

describe('runBounded', () => {
  it('returns the exit code and the output of a command that ends', async () => {
    const result = await runBounded('bash', ['-c', 'echo out; echo err >&2; exit 3'], { cwd: '/', env, timeoutMs: 60_000 });
    expect(result).toMatchObject({ code: 3, timedOut: false });
    expect(result.output.split('\n').sort()).toEqual(['', 'err', 'out']);
  });

  it('keeps only the tail of a long output', async () => {
    const result = await runBounded('bash', ['-c', 'for i in $(seq 1 5000); do echo line$i; done'], { cwd: '/', env, timeoutMs: 60_000, keepChars: 100 });
    expect(result.output.length).toBe(100);
    expect(result.output.endsWith('line5000\n')).toBe(true);
  });

  it('kills the whole group of a command past its limit, a background child too', async () => {
    const result = await runBounded('bash', ['-c', 'sleep 120 & echo $!; wait'], { cwd: '/', env, timeoutMs: 3_000 });
    expect(result.timedOut).toBe(true);
    expect(result.code).toBeUndefined();
    expect(result.signal).toBe('SIGKILL');
    const background = Number(result.output.trim());
    expect(background).toBeGreaterThan(0);
    expect(await stops(background, 10_000)).toBe(true);
  });
});
