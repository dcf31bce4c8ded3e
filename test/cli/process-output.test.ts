// The rdw executable's output streams: a reader that stops early (`rdw openapi | head`) ends the command
// quietly with its own exit code, never with an EPIPE stack trace; the terminal width is known only on a TTY.

import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closedPipeTolerantOutput } from '../../src/cli/process-output.js';
import { REPO_ROOT } from '../support/jupyter.js';

/** Runs `node dist/cli/main.js ...argv | head -c 64` in bash: rdw's exit code, what head printed, rdw's stderr. */
function runIntoHead(argv: string[]): Promise<{ code: number; head: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const script = 'node dist/cli/main.js "$@" | head -c 64; echo "rdw-exit=${PIPESTATUS[0]}" >&2';
    const child = spawn('bash', ['-c', script, 'bash', ...argv], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let head = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (head += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const match = /rdw-exit=(\d+)\n$/.exec(stderr);
      resolve({ code: match === null ? -1 : Number(match[1]), head, stderr: stderr.replace(/rdw-exit=\d+\n$/, '') });
    });
  });
}

describe('the rdw executable when stdout is closed early', () => {
  it('ends `rdw openapi | head` (100 KB of JSON) with exit 0 and nothing on stderr', async () => {
    const run = await runIntoHead(['openapi']);
    expect(run.head).toContain('"openapi": "3.1.0"');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('closedPipeTolerantOutput', () => {
  it('drops writes after EPIPE instead of throwing', () => {
    const stream = new PassThrough();
    const written: string[] = [];
    const target = Object.assign(stream, {
      write: (text: string) => void written.push(text),
    });
    const output = closedPipeTolerantOutput(target);
    output.write('first\n');
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    output.write('second\n');
    expect(written).toEqual(['first\n']);
  });

  it.each([
    [true, 100, 100],
    [false, 100, undefined],
    [true, 0, undefined],
  ])('reports the width only on a terminal (isTTY %s, columns %s -> %s)', (isTTY, columns, expected) => {
    const output = closedPipeTolerantOutput({ write: () => true, on: () => undefined, isTTY, columns });
    expect(output.isTTY).toBe(isTTY);
    expect(output.columns).toBe(expected);
  });
});
