// runBounded (test/support/run-bounded.ts), what the doc-execution test runs each block with: exit codes and
// output as they came, and on time out the whole process group killed, background children included.

import { describe, expect, it } from 'vitest';
import { runBounded } from '../support/run-bounded.js';

const env = { PATH: process.env.PATH ?? '' };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
    const result = await runBounded('bash', ['-c', 'sleep 120 & echo $!; wait'], { cwd: '/', env, timeoutMs: 1_000 });
    expect(result.timedOut).toBe(true);
    expect(result.code).toBeUndefined();
    expect(result.signal).toBe('SIGKILL');
    const background = Number(result.output.trim());
    expect(background).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(background)).toBe(false);
  });
});
