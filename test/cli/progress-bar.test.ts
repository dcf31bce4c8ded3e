// The pull progress bar and notices on the same terminal: a notice written while the bar is drawn (a 429
// wait, a redirect) gets a line of its own above the bar, never glued to the end of the bar's text.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/cli-context.js';
import { ProgressBar } from '../../src/cli/progress-bar.js';
import { pullProgressView } from '../../src/cli/pull-progress-view.js';
import { wrappingOutput } from '../../src/cli/wrapping-output.js';
import { runCli } from '../../src/cli/run-cli.js';
import { captureOutput } from '../support/capture-output.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

/** The lines a terminal shows for `text`: `\r` moves to column 0, ESC[K erases to the end of the line. */
function screen(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  let column = 0;
  for (const part of text.split(/(\r|\n|\x1b\[K)/)) {
    if (part === '\r') column = 0;
    else if (part === '\n') {
      lines.push(line);
      line = '';
      column = 0;
    } else if (part === '\x1b[K') line = line.slice(0, column);
    else {
      line = `${line.slice(0, column)}${part}${line.slice(column + part.length)}`;
      column += part.length;
    }
  }
  return [...lines, line];
}

describe('ProgressBar', () => {
  it('writes a notice above the drawn bar and draws the bar again below it', () => {
    const out = captureOutput(true);
    const bar = new ProgressBar(out.output, 2);
    bar.update({ kind: 'bytes', releaseId: 'a', done: 1024 * 1024, total: 2 * 1024 * 1024 });
    bar.note('The API answered 429 (request rate) for /v1/x; waiting 5 s (retry 1 of 4).\n');
    bar.update({ kind: 'release', releaseId: 'a', status: 'imported' });
    bar.end();
    expect(screen(out.text())).toEqual([
      'The API answered 429 (request rate) for /v1/x; waiting 5 s (retry 1 of 4).',
      '[############------------] 1/2 releases  1.0 MiB',
      '',
    ]);
  });

  it('wraps a notice wider than the terminal between words above the bar, as other stderr lines', () => {
    const out = captureOutput(true);
    const bar = new ProgressBar(wrappingOutput({ ...out.output, columns: 60 }), 2);
    bar.update({ kind: 'bytes', releaseId: 'a', done: 1024 * 1024, total: 2 * 1024 * 1024 });
    bar.note('rdw: The team store s3://desk/rdw refused the request (HTTP 403, access denied): check the credentials.\n');
    const lines = screen(out.text());
    expect(lines.slice(0, 2)).toEqual([
      'rdw: The team store s3://desk/rdw refused the request (HTTP',
      '     403, access denied): check the credentials.',
    ]);
    expect(lines[2]).toMatch(/^\[[#-]+\] 0\/2 releases {2}1\.0 MiB$/);
  });

  it('counts the releases downloaded and waiting for their import apart from those finished, and no byte total', () => {
    // A new user's trial (session 35): the bar said "9/100 releases 7.7/7.7 MiB" while 58 more were downloaded and
    // waiting for the import's batch; a Ctrl-C then imported 67 "in flight".
    const out = captureOutput(true);
    const bar = new ProgressBar(out.output, 4);
    for (const id of ['a', 'b', 'c']) bar.update({ kind: 'bytes', releaseId: id, done: 1024 * 1024, total: 1024 * 1024 });
    bar.update({ kind: 'bytes', releaseId: 'd', done: 512 * 1024, total: 1024 * 1024 });
    bar.update({ kind: 'release', releaseId: 'a', status: 'imported' });
    expect(screen(out.text()).at(-1)).toBe('[######------------------] 1/4 releases (+2 downloaded, waiting to import)  3.5 MiB');
    bar.update({ kind: 'release', releaseId: 'b', status: 'imported' });
    bar.update({ kind: 'release', releaseId: 'c', status: 'failed' });
    bar.update({ kind: 'release', releaseId: 'e', status: 'present' });
    expect(screen(out.text()).at(-1)).toBe('[########################] 4/4 releases  3.5 MiB');
  });

  it('is drawn at 0/N as soon as the releases are planned, before any progress (pullProgressView)', () => {
    // A new user's trial (session 43): rdw reproduce of 100 present releases showed nothing for 2-5 s, until the first
    // release's re-hash ended and the bar appeared at 11/100.
    const out = captureOutput(true);
    const view = pullProgressView({ json: false, stderr: out.output } as CliContext);
    view.planned(['a', 'b', 'a']);
    expect(screen(out.text())).toEqual(['[------------------------] 0/2 releases  0.0 MiB']);
    view.stderr.write('rdw: a notice\n');
    expect(screen(out.text())).toEqual(['rdw: a notice', '[------------------------] 0/2 releases  0.0 MiB']);
    view.end();
    const piped = captureOutput(false);
    pullProgressView({ json: false, stderr: piped.output } as CliContext).planned(['a']);
    const json = captureOutput(true);
    pullProgressView({ json: true, stderr: json.output } as CliContext).planned(['a']);
    expect([piped.text(), json.text()]).toEqual(['', '']);
  });

  it('writes a notice as it is before the bar is drawn', () => {
    const out = captureOutput(true);
    const bar = new ProgressBar(out.output, 1);
    bar.note('first notice\n');
    expect(out.text()).toBe('first notice\n');
  });
});

describe('rdw pull on a terminal', () => {
  it('writes a retry notice on its own line above the bar, never glued to the bar text', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const listed = (await (await fetch(`${mock.baseUrl}/releases?limit=2`, { headers: { authorization: `Bearer ${mock.keys.desk}` } })).json()) as {
          items: { id: string }[];
        };
        // The second release's file answers 503 twice: the second retry waits 1 s or more, so it is said.
        mock.faults.add({ releaseId: listed.items[1]!.id, format: 'parquet', kind: 'status503', times: 2 });
        const err = captureOutput(true);
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
        const code = await runCli(['pull', '--latest', '2', '--concurrency', '1', '--home', home], { env, stdout: captureOutput().output, stderr: err.output });
        expect(code).toBe(0);
        const lines = screen(err.text());
        const notices = lines.filter((line) => line.includes('retrying in'));
        expect(notices.length).toBeGreaterThan(0);
        for (const line of notices) expect(line).toMatch(/^rdw: The request for \/v1\/download\/[0-9a-f]{12}…\/parquet failed \(HTTP 503\)/);
        expect(lines.at(-2)).toMatch(/^\[#{24}\] 2\/2 releases/);
      });
    });
  }, 60_000);
});

describe('rdw lock and rdw reproduce on a terminal', () => {
  // A new user's trial (session 37): both went quiet for ~8 s while they pulled, and lock's pulled lines had no `rdw: `.
  it('draw the pull bar over the releases they pull (reproduce: every locked release, present ones as re-hashed)', async () => {
    await withMockServer({ days: 4 }, async (mock) => {
      await withTempHome(async (home) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
        const lockFile = `${home}/study.lock.json`;
        const err = captureOutput(true);
        expect(await runCli(['lock', lockFile, '--latest', '3', '--home', home], { env, stdout: captureOutput().output, stderr: err.output })).toBe(0);
        const lockLines = screen(err.text()).filter((line) => line !== '');
        expect(lockLines[0]).toMatch(/^\[#{24}\] 3\/3 releases {2}\d+\.\d MiB$/);
        expect(lockLines.slice(1)).toHaveLength(3);
        for (const line of lockLines.slice(1)) expect(line).toMatch(/^rdw: pulled [0-9a-f]{12} \d{4}-\d{2}-\d{2} \S+$/);

        // In a new home: two of three pulled by ID, the third already present (pulled first by plain pull).
        await withTempHome(async (other) => {
          const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { releases: { id: string }[] };
          expect(await runCli(['pull', lock.releases[0]!.id, '--home', other], { env, stdout: captureOutput().output, stderr: captureOutput().output })).toBe(0);
          const again = captureOutput(true);
          expect(await runCli(['reproduce', lockFile, '--home', other], { env, stdout: captureOutput().output, stderr: again.output })).toBe(0);
          expect(screen(again.text()).filter((line) => line !== '')).toEqual([expect.stringMatching(/^\[#{24}\] 3\/3 releases {2}\d+\.\d MiB$/)]);
        });
      });
    });
  }, 60_000);

  it('in a pipe: no bar, and lock says each pulled release after `rdw: `', async () => {
    await withMockServer({ days: 3 }, async (mock) => {
      await withTempHome(async (home) => {
        const env = { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk };
        const err = captureOutput(false);
        expect(await runCli(['lock', `${home}/study.lock.json`, '--latest', '2', '--home', home], { env, stdout: captureOutput().output, stderr: err.output })).toBe(0);
        expect(err.text()).not.toContain('\r');
        expect(err.text().trim().split('\n')).toEqual([
          expect.stringMatching(/^rdw: pulled [0-9a-f]{12} \d{4}-\d{2}-\d{2} \S+$/),
          expect.stringMatching(/^rdw: pulled [0-9a-f]{12} \d{4}-\d{2}-\d{2} \S+$/),
        ]);
      });
    });
  }, 60_000);
});
