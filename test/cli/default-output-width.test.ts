// Every command's default output on a 100-column terminal: the built CLI runs inside a real pseudo-terminal
// (util-linux `script`, `stty cols 100`) against the embedded mock, and no line it leaves on the screen
// (stdout and stderr, progress bars included) is wider than 100 characters. Release IDs show by their first
// 12 characters; --full-ids and --json keep whole IDs; pull and lock take a shown prefix back when one known ID starts with it.

import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { SHORT_ID_LENGTH } from '../../src/cli/release-id-text.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { createTempHome } from '../support/temp-home.js';

const COLUMNS = 100;
/** About 35 runs of the built CLI, each a fresh Node process opening DuckDB (1-4 s on a shared machine). */
const ALL_RUNS_TIMEOUT_MS = 400_000;

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

/** A word for `sh -c`, quoted. */
const shellWord = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

interface TerminalRun {
  code: number | null;
  /** The lines as they stay on the screen: ANSI sequences removed, a line redrawn after `\r` as its last drawing. */
  lines: string[];
}

/** Runs the built CLI in a pseudo-terminal 100 columns wide (stdout and stderr both on it). */
function runOnTerminal(argv: readonly string[], cwd: string, home: string): Promise<TerminalRun> {
  const command = `stty cols ${COLUMNS} rows 40 && exec ${[process.execPath, BUILT_CLI, ...argv].map(shellWord).join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], {
      cwd,
      // Paths as a user types them, relative to the working folder (a long absolute path is the user's choice).
      env: { PATH: process.env.PATH ?? '', HOME: home, RDW_HOME: 'h', TERM: 'xterm' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (text += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (text += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      const lines = text
        .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
        .replace(/\r\n/g, '\n')
        .split('\n')
        .map((line) => line.split('\r').filter((drawn) => drawn !== '').at(-1) ?? '');
      resolve({ code, lines });
    });
  });
}

/** Width on screen: characters (code points), not UTF-16 units or bytes (Δ, −, … are one column each). */
const width = (line: string): number => [...line].length;
const tooWide = (lines: readonly string[]): string[] => lines.filter((line) => width(line) > COLUMNS);

let work: { home: string; remove(): Promise<void> };
/** `rdw demo --latest 10` on the terminal: it fills the home the other commands read. */
let demo: TerminalRun;
let releaseIds: string[] = [];

beforeAll(async () => {
  work = await createTempHome('rdw-width-');
  await mkdir(path.join(work.home, 'out'));
  if (!hasScript) return;
  demo = await runOnTerminal(['demo', '--latest', '10', '--home', 'h'], work.home, work.home);
  const listing = await runBuiltCli(['releases', '--json', '--home', path.join(work.home, 'h')], { env: { HOME: work.home } });
  releaseIds = (JSON.parse(listing.stdout) as { id: string }[]).map((release) => release.id);
}, 120_000);

afterAll(async () => {
  await work?.remove();
});

describe.runIf(hasScript || process.env.CI === 'true')('every command on a 100-column terminal (built CLI, embedded mock)', () => {
  it('fits each default output, tables and lines, in 100 columns', async () => {
    const dir = work.home;
    const [pulled, lock] = ['p', 'l.json'];
    expect(demo.code, demo.lines.join('\n')).toBe(0);
    const runs: [string, string[]][] = [
      ['releases', ['releases']],
      ['ls', ['ls']],
      ['pull --latest 3 (a new home)', ['pull', '--latest', '3', '--home', pulled]],
      ['pull <ID> (present)', ['pull', releaseIds[0]!, '--home', pulled]],
      ['sync', ['sync', '--home', pulled]],
      ['sync --snapshots', ['sync', '--snapshots', 'market-breadth', '--home', pulled]],
      ['lock', ['lock', lock, '--latest', '3', '--home', pulled]],
      ['lock check', ['lock', 'check', lock, '--home', pulled]],
      ['verify', ['verify']],
      ['verify --repair', ['verify', '--repair']],
      ['gc --dry-run', ['gc', '--dry-run']],
      ['study event', ['study', 'event']],
      ['study event --lock', ['study', 'event', '--lock', 'h/demo/study.lock.json']],
      ['study model', ['study', 'model']],
      ['study event --wide', ['study', 'event', '--wide']],
      ['study model --wide', ['study', 'model', '--wide']],
      ['sql', ['sql', 'SELECT id, day, version, rows FROM releases ORDER BY day']],
      ['export', ['export', 'out/x']],
      ['research catalog', ['research', 'catalog']],
      ['research get', ['research', 'get', 'market-breadth']],
      ['research csv', ['research', 'csv', 'market-breadth']],
      ['live', ['live', 'market-breadth']],
      ['live --csv', ['live', 'market-breadth', '--csv']],
      ['reproduce', ['reproduce', 'h/demo/study.lock.json', '--home', 'r']],
      ['doctor', ['doctor']],
      ['--help', ['--help']],
      ...COMMANDS.map((command): [string, string[]] => [`help ${command.name}`, ['help', command.name]]),
    ];
    const widths: Record<string, number> = { demo: Math.max(...demo.lines.map(width)) };
    const wide: Record<string, string[]> = { demo: tooWide(demo.lines) };
    for (const [name, argv] of runs) {
      const run = await runOnTerminal(argv, dir, dir);
      // doctor warns (exit 0) or fails a check this machine lacks (no Jupyter): its lines count either way.
      if (name !== 'doctor') expect(run.code, `${name}\n${run.lines.join('\n')}`).toBe(0);
      widths[name] = Math.max(...run.lines.map(width));
      wide[name] = tooWide(run.lines);
    }
    // rdw mock serves until stopped: its start lines, then a SIGKILL (no terminal needed: it does not wrap).
    const mock = await runBuiltCli(['mock', '--port', '0'], { cwd: dir, env: { HOME: dir }, timeoutMs: 8_000 });
    expect(mock.stdout).toContain('rdw mock: serving');
    const mockLines = `${mock.stdout}${mock.stderr}`.split('\n');
    widths.mock = Math.max(...mockLines.map(width));
    wide.mock = tooWide(mockLines);
    // One assertion over all, so a failure lists every command that does not fit, with its lines.
    expect(Object.fromEntries(Object.entries(wide).filter(([, lines]) => lines.length > 0))).toEqual({});
    expect(Object.keys(widths)).toHaveLength(runs.length + 2);
  }, ALL_RUNS_TIMEOUT_MS);

  it('shows release IDs by their first 12 characters; --full-ids and --json whole; a shown prefix is taken back as input', async () => {
    const home = path.join(work.home, 'h');
    const env = { HOME: work.home };
    expect(releaseIds.length).toBeGreaterThan(0);
    const ids = (text: string) => text.split('\n').slice(2, -2).map((line) => line.split(/\s+/)[0]);
    const short = await runBuiltCli(['releases', '--home', home], { env });
    expect(ids(short.stdout)).toEqual(releaseIds.map((id) => id.slice(0, SHORT_ID_LENGTH)));
    expect(new Set(ids(short.stdout)).size).toBe(releaseIds.length);
    const full = await runBuiltCli(['releases', '--full-ids', '--home', home], { env });
    expect(ids(full.stdout)).toEqual(releaseIds);
    const json = await runBuiltCli(['ls', '--json', '--home', home], { env });
    const imported = (JSON.parse(json.stdout) as { id: string }[]).map((release) => release.id);
    expect(imported).toHaveLength(10);
    for (const id of imported) expect(releaseIds).toContain(id);
    const pulled = await runBuiltCli(['pull', releaseIds[0]!, '--full-ids', '--home', home], { env });
    expect(pulled.stdout).toMatch(new RegExp(`^present  ${releaseIds[0]} `));
    // What a table shows is taken back as input: the prefix resolves to the one listed ID it starts (rdw releases
    // recorded the listing), and the pull names the whole ID.
    const copied = await runBuiltCli(['pull', releaseIds[1]!.slice(0, SHORT_ID_LENGTH), '--full-ids', '--home', home], { env });
    expect(copied.code).toBe(0);
    expect(copied.stdout).toMatch(new RegExp(`^(present|imported) +${releaseIds[1]} `));
    // A prefix no known release starts with: exit 2, saying what to give instead; fewer than 12 characters: not an ID.
    const unknown = await runBuiltCli(['pull', 'zzzzzzzzzzzz', '--home', home], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No release this catalog knows starts with "zzzzzzzzzzzz"');
    const tooShort = await runBuiltCli(['pull', releaseIds[0]!.slice(0, SHORT_ID_LENGTH - 1), '--home', home], { env });
    expect(tooShort.code).toBe(2);
    expect(tooShort.stderr).toContain('rdw releases --full-ids');
  }, 120_000);
});
