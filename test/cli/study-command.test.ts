import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { studyCommand } from '../../src/cli/commands/study.js';
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
  it('prints the table with missingness beside the statistics', async () => {
    const { code, stdout, stderr } = await rdw('study', 'event', '--home', catalog.dir);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`${days.length} releases`);
    expect(stdout).toMatch(/window\s+event_kind\s+direction\s+n\s+n_complete\s+missing_pending\s+missing_gap\s+missing_invalid_price\s+missing_not_applicable/);
    expect(stdout.split('\n').filter((line) => line.startsWith('1h '))).toHaveLength(6);
  });

  it('--by pools directions and --bootstrap row switches the interval', async () => {
    const pooled = await rdw('study', 'event', '--home', catalog.dir, '--json', '--by', 'event_kind');
    expect(pooled.code).toBe(0);
    const rows = JSON.parse(pooled.stdout);
    expect(rows).toHaveLength(3);
    expect(rows[0]).not.toHaveProperty('direction');
    const day = await rdw('study', 'event', '--home', catalog.dir);
    const row = await rdw('study', 'event', '--home', catalog.dir, '--bootstrap', 'row');
    expect(day.stdout).toContain('bootstrap over UTC days');
    expect(row.stdout).toContain('bootstrap over rows');
    expect((await rdw('study', 'event', '--home', catalog.dir, '--bootstrap', 'blocks')).code).toBe(2);
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

  it('exits 6 without a catalog, and 6 for a locked release not in the catalog', async () => {
    expect((await rdw('study', 'event', '--home', path.join(catalog.dir, 'empty'))).code).toBe(6);
    const lockFile = path.join(catalog.dir, 'other.lock.json');
    const sha = 'b'.repeat(64);
    await writeFile(lockFile, JSON.stringify({
      lockVersion: 1, rdwVersion: '0.1.0', dataset: 'market-events-v1', calculationVersions: [],
      releases: [{ id: 'c'.repeat(64), day: '2026-01-01', version: 'v', manifestSha256: sha, schemaSha256: null, files: { parquet: { sha256: sha, bytes: 1 } } }],
    }));
    const { code, stderr } = await rdw('study', 'event', '--home', catalog.dir, '--lock', 'other.lock.json');
    expect(code).toBe(6);
    expect(stderr).toContain('rdw pull');
  });
});
