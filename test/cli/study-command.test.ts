import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { studyCommand } from '../../src/cli/commands/study.js';
import { MIN_INTERVAL_BLOCKS, daysForInterval, intervalBlockDays } from '../../src/analysis/index.js';
import { WINDOW_SECONDS } from '../../src/contract/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays } from '../support/synthetic-rows.js';

// `rdw study event` (src/cli/commands/study.ts) over a fixture catalog file at --home.
const days = syntheticDays({ days: 4, seed: 9 });
let catalog: FixtureCatalog;

beforeAll(async () => {
  catalog = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
  await catalog.detach();
});
afterAll(async () => catalog?.close());

async function rdw(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    commands: [studyCommand],
    cwd: catalog.dir,
    env: {},
    stdout: { write: (t) => void (stdout += t), isTTY: false },
    stderr: { write: (t) => void (stderr += t), isTTY: false },
  });
  return { code, stdout, stderr };
}

describe('rdw study event', () => {
  it('prints the results first (n complete/all, missing, diff, CI, q) with a legend', async () => {
    const { code, stdout, stderr } = await rdw('study', 'event', '--home', catalog.dir);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`${days.length} releases`);
    expect(stdout).toMatch(/^window {2}event_kind {4}direction +n {2}missing +diff +95% CI +q$/m);
    expect(stdout).toContain('diff, 95% CI (unadjusted): event minus control mean return in pp; n: complete/all; *: BH q <= 0.05');
    expect(stdout).toContain('rdw study event --wide prints every column');
    expect(stdout.split('\n').filter((line) => line.startsWith('1h '))).toHaveLength(6);
  });

  it('fits every line in 100 columns for 180 groups (all windows x kind x direction x symbol)', async () => {
    // 4 days are too few blocks for the block jackknife at any window: the row bootstrap shows the CI cells.
    const argv = ['study', 'event', '--home', catalog.dir, '--window', '15m,1h,4h,24h,7d', '--by', 'event_kind,direction,symbol', '--interval', 'row-bootstrap'];
    const rows = JSON.parse((await rdw(...argv, '--json')).stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(180);
    const { code, stdout } = await rdw(...argv);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const table = lines.slice(lines.findIndex((line) => line.startsWith('window ')));
    expect(table.length).toBeGreaterThanOrEqual(181);
    expect(rows.filter((row) => row.window === '1h').every((row) => row.ci_low_pct !== null)).toBe(true);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    // each group's numbers, as computed: n complete/all, missing, the difference and its interval (3 decimals)
    for (const [i, row] of rows.entries()) {
      const fixed = (value: unknown) => (value as number).toFixed(3);
      const text = table[i + 1]!;
      expect(text.startsWith(`${String(row.window).padEnd(6)}  ${String(row.event_kind).padEnd(12)}  ${String(row.direction).padEnd(9)}  ${row.symbol}`), text).toBe(true);
      expect(text).toContain(` ${row.n_complete}/${row.n} `);
      expect(text).toMatch(new RegExp(` ${Number(row.n) - Number(row.n_complete)} +${fixed(row.difference_pct).replace('.', '\\.')}[* ]?( |$)`));
      if (row.ci_low_pct === null) expect(text).not.toContain('[');
      else expect(text.replace(/\[ +/, '[').replace(/, +/, ', ')).toContain(`[${fixed(row.ci_low_pct)}, ${fixed(row.ci_high_pct)}]`);
      expect(text.includes(`${fixed(row.difference_pct)}*`)).toBe(row.significant_adjusted === true);
    }
    // The default block jackknife: no interval at any window on 4 days, one sentence per window, within 100 columns.
    const jackknife = await rdw('study', 'event', '--home', catalog.dir, '--window', '15m,1h,4h,24h,7d', '--by', 'event_kind,direction,symbol');
    expect(jackknife.code).toBe(0);
    for (const line of jackknife.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const flat = jackknife.stdout.replace(/\n(?! *$)(?!window)/g, ' ');
    for (const window of ['15m', '1h', '4h', '24h', '7d']) expect(flat).toMatch(new RegExp(`${window}: no interval: \\d UTC days? makes? \\d blocks? of \\d+ days?; an interval needs`));
    expect(jackknife.stdout).not.toMatch(/\[ *-?\d/);
  });

  it('--wide prints every column in the order of the CSV, the JSON rows and the report table', async () => {
    const out = path.join(catalog.dir, 'wide-report');
    const argv = ['study', 'event', '--home', catalog.dir, '--by', 'event_kind,direction,symbol', '--out', out];
    const { code, stdout } = await rdw(...argv, '--wide');
    expect(code).toBe(0);
    // In blocks of columns that fit 100 (a new user's trial: one table 477 characters wide), each block starting
    // with the row's keys: window, event_kind, direction, symbol.
    const blocks = stdout.split('\n').filter((line) => line.startsWith('window ')).map((line) => line.split(/\s+/));
    expect(blocks.length).toBeGreaterThan(1);
    for (const block of blocks) expect(block.slice(0, 4)).toEqual(['window', 'event_kind', 'direction', 'symbol']);
    const tableLines = stdout.split('\n').filter((line) => /^(window|1h|15m|4h|24h|7d) /.test(line));
    for (const line of tableLines) expect(line.length, line).toBeLessThanOrEqual(100);
    const header = [...blocks[0]!, ...blocks.slice(1).flatMap((block) => block.slice(4))];
    const csvHeader = (await readFile(path.join(out, 'event-study.csv'), 'utf8')).split('\n')[0]!.split(',');
    const jsonKeys = Object.keys(JSON.parse((await rdw(...argv, '--json')).stdout)[0]);
    const fileKeys = Object.keys(JSON.parse(await readFile(path.join(out, 'event-study.json'), 'utf8')).rows[0]);
    const htmlHeader = [...(await readFile(path.join(out, 'report.html'), 'utf8')).matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    expect(header).toHaveLength(29);
    expect(header.slice(-2)).toEqual(['raw_control_mean_pct', 'signed_control_mean_pct']);
    expect(header.slice(0, 13)).toEqual([
      'window', 'event_kind', 'direction', 'symbol', 'n', 'n_complete', 'difference_pct', 'ci_low_pct', 'ci_high_pct', 'q_value', 'significant_adjusted', 'p_value', 'missing_pending',
    ]);
    for (const other of [csvHeader, jsonKeys, fileKeys, htmlHeader]) expect(other).toEqual(header);
    expect(stdout).not.toContain('--wide prints');
  });

  it('one UTC day: no interval and no q, said in two lines with what to do (never a zero-width "95% CI")', async () => {
    const single = await buildFixtureCatalog(days.slice(0, 1).map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
    await single.detach();
    try {
      const { code, stdout } = await rdw('study', 'event', '--home', single.dir);
      expect(code).toBe(0);
      const blockDays = intervalBlockDays(WINDOW_SECONDS['1h']);
      const needed = daysForInterval(blockDays);
      // two sentences (wrapped at 100 columns): nothing is tested, and how many more days 1h needs
      expect(stdout.replace(/\n(?=[a-z(])/g, ' ')).toContain(
        'No group has an interval, so none is tested (q_value is empty).\n' +
          `1h: no interval: 1 UTC day makes 1 block of ${blockDays} day${blockDays === 1 ? '' : 's'}; an interval needs ${MIN_INTERVAL_BLOCKS} blocks, so ${needed - 1} more days (${needed} in all).\n`,
      );
      // Each studied window with its own sentence; 24h and 7d have no complete outcome on one day: no difference, nothing to say.
      const windows = await rdw('study', 'event', '--home', single.dir, '--window', '1h,4h');
      expect(windows.stdout.replace(/\n(?=[a-z0-9])/g, ' ')).toMatch(/1h: no interval: .* 4h: no interval: /);
      for (const line of stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
      const out = path.join(single.dir, 'one-day-report');
      expect((await rdw('study', 'event', '--home', single.dir, '--out', out)).code).toBe(0);
      const html = await readFile(path.join(out, 'report.html'), 'utf8');
      expect(html).toContain('<p>Many groups: No group has an interval, so none is tested (q_value is empty).');
      expect(html).toContain('<p>Where there is no interval: 1h: no interval: 1 UTC day makes 1 block');
      expect(html).not.toContain('0 of 0');
      const rows = stdout.split('\n').filter((line) => line.startsWith('1h '));
      expect(rows).toHaveLength(6);
      for (const row of rows) expect(row).not.toContain('[');
      const byRow = await rdw('study', 'event', '--home', single.dir, '--interval', 'row-bootstrap');
      expect(byRow.stdout).toMatch(/^q: Benjamini-Hochberg over all 6 groups/m);
    } finally {
      await single.close();
    }
  });

  it('--by pools directions; --interval row-bootstrap (or its old name --bootstrap row) switches the interval', async () => {
    const pooled = await rdw('study', 'event', '--home', catalog.dir, '--json', '--by', 'event_kind');
    expect(pooled.code).toBe(0);
    const rows = JSON.parse(pooled.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).not.toHaveProperty('direction');
    const day = await rdw('study', 'event', '--home', catalog.dir);
    const row = await rdw('study', 'event', '--home', catalog.dir, '--interval', 'row-bootstrap');
    const oldName = await rdw('study', 'event', '--home', catalog.dir, '--bootstrap', 'row');
    expect(day.stdout.replace(/\n/g, ' ')).toContain('CI and p: 95% block-jackknife t interval over UTC-day blocks');
    expect(row.stdout.replace(/\n/g, ' ')).toContain('CI and p: 95% percentile bootstrap over single rows');
    expect(row.stdout).toContain('CI: row bootstrap, 2000 samples, seed 1 (ignores day clustering)');
    expect(oldName.stdout).toBe(row.stdout);
    expect((await rdw('study', 'event', '--home', catalog.dir, '--bootstrap', 'day')).stdout).toBe(day.stdout);
    expect((await rdw('study', 'event', '--home', catalog.dir, '--bootstrap', 'blocks')).code).toBe(2);
    expect((await rdw('study', 'event', '--home', catalog.dir, '--interval', 'blocks')).code).toBe(2);
    const twice = await rdw('study', 'event', '--home', catalog.dir, '--interval', 'row-bootstrap', '--bootstrap', 'row');
    expect([twice.code, twice.stderr]).toEqual([2, expect.stringContaining('--bootstrap is the old name of --interval')]);
    // Both given is refused even when --interval is typed as its default (before issue 30 that looked not given).
    const typedDefault = await rdw('study', 'event', '--home', catalog.dir, '--interval', 'block-jackknife', '--bootstrap', 'row');
    expect([typedDefault.code, typedDefault.stderr]).toEqual([2, expect.stringContaining('--bootstrap is the old name of --interval')]);
  });

  it('--json prints the rows, and --window takes a list', async () => {
    const { code, stdout } = await rdw('study', 'event', '--home', catalog.dir, '--json', '--window', '1h,7d');
    expect(code).toBe(0);
    const rows = JSON.parse(stdout);
    expect(rows).toHaveLength(12);
    expect(rows.map((r: { window: string }) => r.window)).toContain('7d');
    expect(rows[0]).toHaveProperty('missing_pending');
  });

  // The positive --lock path (exact IDs, --out) runs on a pulled catalog in test/study/verify-study-lock.test.ts:
  // this fixture catalog has placeholder digests and no stored files, so no lock can verify against it.
  it('--lock with digests the catalog does not hold is exit 3 and writes no report', async () => {
    const lockFile = path.join(catalog.dir, 'study.lock.json');
    const pinned = days[1]!;
    const sha = 'a'.repeat(64);
    await writeFile(
      lockFile,
      JSON.stringify({
        lockVersion: 1,
        rdwVersion: '0.1.0',
        dataset: 'market-events-v1',
        releases: [{ id: pinned.releaseId, day: pinned.day, version: 'mev-calc-4', manifestSha256: sha, schemaSha256: null, files: { parquet: { sha256: sha, bytes: 1 } } }],
        calculationVersions: ['mev-calc-4'],
      }),
    );
    const { code, stdout, stderr } = await rdw('study', 'event', '--home', catalog.dir, '--lock', 'study.lock.json', '--out', 'out', '--json');
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(pinned.releaseId);
    expect(existsSync(path.join(catalog.dir, 'out'))).toBe(false);
  });

  it.each([
    [['study', 'nope'], 2],
    [['study', 'event', '--window', '2h'], 2],
    [['study', 'event', '--lock', 'missing.json'], 2],
  ])('%j exits %i', async (argv, exit) => {
    expect((await rdw(...argv, '--home', catalog.dir)).code).toBe(exit);
  });

  // A new user's trial: `rdw study event --out README.md` ran the study, printed the whole table, then refused the
  // file as a folder (exit 1); a model study spends minutes first. Now the same refusal comes before any work.
  it.each([['event'], ['model']])('study %s --out FILE: exit 1 naming the file, before the study runs (nothing printed)', async (study) => {
    const file = path.join(catalog.dir, 'notes.txt');
    await writeFile(file, 'mine\n');
    const { code, stdout, stderr } = await rdw('study', study, '--home', catalog.dir, '--out', 'notes.txt');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`rdw: ${file} is a file (or a part of its path is), where rdw needs a folder. Give a folder there (RDW_HOME, --home or the output folder), or move that file away.\n`);
    expect(await readFile(file, 'utf8')).toBe('mine\n');
    // Under a file, too (a part of its path is a file).
    const under = await rdw('study', study, '--home', catalog.dir, '--out', 'notes.txt/report');
    expect([under.code, under.stdout]).toEqual([1, '']);
  });

  it('exits 1 without a catalog (creating none), and 6 for a locked release not in the catalog', async () => {
    expect((await rdw('study', 'event', '--home', path.join(catalog.dir, 'empty'))).code).toBe(1);
    expect(existsSync(path.join(catalog.dir, 'empty'))).toBe(false);
    const lockFile = path.join(catalog.dir, 'other.lock.json');
    const sha = 'b'.repeat(64);
    await writeFile(lockFile, JSON.stringify({
      lockVersion: 1, rdwVersion: '0.1.0', dataset: 'market-events-v1', calculationVersions: [],
      releases: [{ id: 'c'.repeat(64), day: '2026-01-01', version: 'v', manifestSha256: sha, schemaSha256: null, files: { parquet: { sha256: sha, bytes: 1 } } }],
    }));
    const { code, stderr } = await rdw('study', 'event', '--home', catalog.dir, '--lock', 'other.lock.json');
    expect(code).toBe(6);
    expect(stderr).toContain(`Release ${'c'.repeat(64)} of the lock is not in the local catalog; run "rdw reproduce <the lock file>" to pull it by ID`);
  });
});
