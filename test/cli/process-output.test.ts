// The rdw executable's output streams: a reader that stops early (`rdw openapi | head`) ends the command
// quietly with its own exit code, never with an EPIPE stack trace; output to a full disk or past the file-size
// limit is exit 1 in one sentence, never a short file with exit 0; the terminal width is known only on a TTY.

import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { closedPipeTolerantOutput } from '../../src/cli/process-output.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import { DiskFullError, environmentMessages } from '../../src/contract/index.js';
import { runCli } from '../../src/cli/run-cli.js';
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

/** Runs `bash -c script` in the repository (rdw is `node dist/cli/main.js`): exit code and stderr. */
function runBash(script: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
  });
}

describe('the rdw executable when stdout cannot be written whole', () => {
  it('a full device (/dev/full): exit 1 and the disk-full sentence, no stack trace', async () => {
    const run = await runBash('node dist/cli/main.js openapi > /dev/full');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`rdw: ${environmentMessages.outputDiskFull()}\n`);
    const json = await runBash('node dist/cli/main.js openapi --json > /dev/full');
    expect(JSON.parse(json.stderr)).toEqual({ error: { code: 'RDW_DISK_FULL', exitCode: 1, message: environmentMessages.outputDiskFull() } });
  });

  it('a file that reaches the file-size limit part way through a write: exit 1, never a short file and exit 0', async () => {
    const folder = await makeTemporaryFolder('rdw-output-');
    try {
      const file = path.join(folder, 'openapi.json');
      // ulimit -f counts 1024-byte blocks: 8 KB of the 100 KB document fit, in the middle of one write.
      const run = await runBash(`ulimit -f 8; node dist/cli/main.js openapi > ${file}`);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`rdw: ${environmentMessages.outputFileTooLarge()}\n`);
      expect((await stat(file)).size).toBe(8 * 1024);
    } finally {
      await removeTree(folder);
    }
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

describe('runCli and a write that failed after the last one', () => {
  it('a command that succeeded but whose output failed later (a pipe error) ends with exit 1 and that sentence', async () => {
    const stderr: string[] = [];
    const lost = new DiskFullError(environmentMessages.outputDiskFull());
    const code = await runCli(['openapi'], {
      stdout: { write: () => undefined, isTTY: false, writeFailure: () => lost },
      stderr: { write: (text) => void stderr.push(text), isTTY: false },
    });
    expect(code).toBe(1);
    expect(stderr.join('')).toBe(`rdw: ${environmentMessages.outputDiskFull()}\n`);
  });
});
