// The catalog commands through runCli against an in-test mock: exit codes, output modes, and that
// the catalog they leave is verified and readable by any DuckDB.

import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { MARKET_EVENT_FIELDS } from '../../src/contract/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rdw <argv>` in-process against `mock` with the desk key, in `home`. */
async function rdw(mock: MockServer, home: string, argv: string[], options: { env?: Record<string, string | undefined>; tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk, ...options.env },
    stdout: { write: (text) => void (stdout += text), isTTY: options.tty === true },
    stderr: { write: (text) => void (stderr += text), isTTY: options.tty === true },
    cwd: home,
  });
  return { code, stdout, stderr };
}

const downloadRequests = (mock: MockServer) => mock.requestLog.filter((entry) => entry.path.includes('/download/')).length;

describe('rdw pull', () => {
  it('refuses a malformed ID with exit 2 before any request', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        const run = await rdw(mock, home, ['pull', 'abc123']);
        expect(run.code).toBe(2);
        expect(run.stderr.trim().split('\n')).toHaveLength(1);
        expect(mock.requestLog).toEqual([]);
        expect((await rdw(mock, home, ['pull'])).code).toBe(2);
        expect((await rdw(mock, home, ['pull', '--latest', '0'])).code).toBe(2);
        expect((await rdw(mock, home, ['pull', '--latest', '2', 'a'.repeat(64)])).code).toBe(2);
        expect(mock.requestLog).toEqual([]);
      }),
    );
  });

  it('answers an unknown ID with exit 6, a missing key with exit 4', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', 'e'.repeat(64)])).code).toBe(6);
        const noKey = await rdw(mock, home, ['pull', 'e'.repeat(64)], { env: { RDW_API_KEY: undefined } });
        expect(noKey.code).toBe(4);
        expect(noKey.stderr).toContain('RDW_API_KEY');
      }),
    );
  });

  it('pulls --latest N, is a no-op the second time, and prints JSON with --json', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        const first = await rdw(mock, home, ['pull', '--latest', '2']);
        expect(first.code).toBe(0);
        expect(first.stdout.trim().split('\n').map((line) => line.split(' ')[0])).toEqual(['imported', 'imported']);
        expect(first.stderr).not.toContain('\r');
        const downloads = downloadRequests(mock);
        const again = await rdw(mock, home, ['pull', '--latest', '2', '--json']);
        expect(again.code).toBe(0);
        const parsed = JSON.parse(again.stdout) as { pulled: { status: string }[]; failed: unknown[] };
        expect(parsed.pulled.map((pulled) => pulled.status)).toEqual(['present', 'present']);
        expect(parsed.failed).toEqual([]);
        expect(downloadRequests(mock)).toBe(downloads);
      }),
    );
  });

  it('draws a progress bar only on a terminal', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        const run = await rdw(mock, home, ['pull', '--latest', '1'], { tty: true });
        expect(run.code).toBe(0);
        expect(run.stderr).toMatch(/\r\[#+\] 1\/1 releases/);
      }),
    );
  });

  it('exits 3 with one sentence for a tampered file, 5 for a full byte budget', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        mock.faults.add({ format: 'parquet', kind: 'corrupt' });
        const tampered = await rdw(mock, home, ['pull', '--latest', '1']);
        expect(tampered.code).toBe(3);
        expect(tampered.stderr).not.toMatch(/\n\s+at /);
        const [count] = JSON.parse((await rdw(mock, home, ['sql', 'SELECT count(*)::INTEGER AS n FROM releases', '--json'])).stdout) as { n: number }[];
        expect(count!.n).toBe(0);
      }),
    );
    await withMockServer({ days: 2, limits: { desk: { daily_bytes: 20_000 } } }, (mock) =>
      withTempHome(async (home) => {
        const run = await rdw(mock, home, ['pull', '--latest', '1']);
        expect(run.code).toBe(5);
        expect(mock.requestLog.filter((entry) => entry.path.endsWith('/parquet'))).toEqual([]);
      }),
    );
  });
});

describe('rdw ls, verify, sql, export', () => {
  it('lists imported releases and notes a newer revision seen by rdw releases', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '1'])).code).toBe(0);
        const [before] = JSON.parse((await rdw(mock, home, ['ls', '--json'])).stdout) as { id: string; day: string; newerId: string | null }[];
        expect(before!.newerId).toBeNull();
        let revision;
        for (let hour = 0; hour < 48 && revision === undefined; hour += 1) revision = mock.advance(3600).find((release) => release.day === before!.day);
        expect(revision).toBeDefined();
        const listing = await rdw(mock, home, ['releases', '--limit', '5']);
        expect(listing.code).toBe(0);
        // Tables show 12 characters of an ID; --full-ids whole ones, and the whole pull command in the note.
        expect(listing.stdout).toContain(`\n${revision!.id.slice(0, 12)}  `);
        expect(listing.stdout).not.toContain(revision!.id);
        const ls = await rdw(mock, home, ['ls']);
        expect(ls.stdout).toContain(`\n${before!.id.slice(0, 12)}  `);
        expect(ls.stdout).toContain(`newer ${revision!.id.slice(0, 12)} known: rdw sync`);
        // The row with its note fits 100 columns (imported_at to the minute).
        expect(ls.stdout.split('\n').filter((line) => line.length > 100)).toEqual([]);
        expect(ls.stdout).toMatch(/ \d{4}-\d\d-\d\dT\d\d:\d\dZ  newer /);
        const full = await rdw(mock, home, ['ls', '--full-ids']);
        expect(full.stdout).toContain(`\n${before!.id}  `);
        expect(full.stdout).toContain(`rdw pull ${revision!.id}`);
        expect((await rdw(mock, home, ['releases', '--limit', '5', '--full-ids'])).stdout).toContain(`\n${revision!.id}  `);
      }),
    );
  });

  it('verify passes a clean store and exits 3 naming a tampered file', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        await rdw(mock, home, ['pull', '--latest', '1']);
        const ok = await rdw(mock, home, ['verify']);
        expect(ok.code).toBe(0);
        const [file] = JSON.parse((await rdw(mock, home, ['sql', "SELECT sha256 FROM release_files WHERE format = 'parquet'", '--json'])).stdout) as { sha256: string }[];
        const stored = path.join(home, 'store', 'sha256', file!.sha256.slice(0, 2), file!.sha256);
        await chmod(stored, 0o644);
        await writeFile(stored, 'not parquet');
        const bad = await rdw(mock, home, ['verify']);
        expect(bad.code).toBe(3);
        expect(bad.stderr).toContain(`store/sha256/${file!.sha256.slice(0, 2)}/${file!.sha256}`);
        const json = await rdw(mock, home, ['verify', '--json']);
        expect(json.code).toBe(3);
        expect((JSON.parse(json.stdout) as { ok: boolean }).ok).toBe(false);
      }),
    );
  });

  it('sql prints a table, rows as JSON with --json, and refuses writes (exit 2)', async () => {
    await withMockServer({ days: 2 }, (mock) =>
      withTempHome(async (home) => {
        await rdw(mock, home, ['pull', '--latest', '1']);
        const table = await rdw(mock, home, ['sql', 'SELECT sample_type, count(*)::INTEGER AS n FROM market_events GROUP BY 1 ORDER BY 1']);
        expect(table.code).toBe(0);
        expect(table.stdout.split('\n')[0]).toMatch(/^sample_type\s+n$/);
        expect(table.stdout).toContain('(2 rows)');
        const json = JSON.parse((await rdw(mock, home, ['sql', 'SELECT sample_type, count(*)::INTEGER AS n FROM market_events GROUP BY 1 ORDER BY 1', '--json'])).stdout) as { sample_type: string; n: number }[];
        expect(json.map((row) => row.sample_type)).toEqual(['control', 'event']);
        const write = await rdw(mock, home, ['sql', 'DELETE FROM market_events']);
        expect(write.code).toBe(2);
        const [after] = JSON.parse((await rdw(mock, home, ['sql', 'SELECT count(*)::INTEGER AS n FROM market_events', '--json'])).stdout) as { n: number }[];
        expect(after!.n).toBe(json.reduce((sum, row) => sum + row.n, 0));
      }),
    );
  });

  it('export writes day= partitions that read back with the same rows and content', async () => {
    await withMockServer({ days: 4 }, (mock) =>
      withTempHome(async (home) => {
        await rdw(mock, home, ['pull', '--latest', '3']);
        const run = await rdw(mock, home, ['export', 'out', '--json']);
        expect(run.code).toBe(0);
        const result = JSON.parse(run.stdout) as { dir: string; rows: number; partitions: string[] };
        expect(result.partitions).toHaveLength(3);
        for (const partition of result.partitions) expect(partition).toMatch(/^day=\d{4}-\d{2}-\d{2}$/);

        const columns = ['release_id', ...MARKET_EVENT_FIELDS.map((field) => `"${field.name}"`)].join(', ');
        const digest = (from: string) =>
          `SELECT count(*)::INTEGER AS n, sum(hash(${columns}, strftime(day::DATE, '%Y-%m-%d')))::VARCHAR AS h, count(DISTINCT day)::INTEGER AS days FROM ${from}`;
        const db = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'), { access_mode: 'READ_ONLY' });
        const connection = await db.connect();
        const catalogDigest = (await connection.runAndReadAll(digest('market_events'))).getRowObjectsJson()[0];
        const exported = (await connection.runAndReadAll(digest(`read_parquet('${result.dir}/*/*.parquet', hive_partitioning = true)`))).getRowObjectsJson()[0];
        connection.closeSync();
        db.closeSync();
        expect(exported).toEqual(catalogDigest);
        expect(catalogDigest!.n).toBe(result.rows);
        expect((await rdw(mock, home, ['export', 'out'])).code).toBe(2);

        // A folder holding only the staging folder a killed export left counts as empty: the rerun works.
        await mkdir(path.join(home, 'again', '.rdw-staging-abc123'), { recursive: true });
        const again = await rdw(mock, home, ['export', 'again', '--json']);
        expect(again.code).toBe(0);
        expect((JSON.parse(again.stdout) as { partitions: string[] }).partitions).toEqual(result.partitions);
      }),
    );
  });

  it('export says a slow write on a terminal (test/cli/slow-step-notice.test.ts: nothing to a pipe or --json)', async () => {
    // A new user's trial (session 43): rdw export of 100 days sat 7-10 s on a blank terminal until its result line.
    // Two days' rows are copied to 150 more days with DuckDB's own SQL (141k rows, 152 partitions: 4-5 s at load 3.5),
    // so that the export takes over a second on any machine.
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['pull', '--latest', '2'])).code).toBe(0);
        const db = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'));
        const connection = await db.connect();
        await connection.run("INSERT INTO market_events SELECT market_events.* REPLACE (day + range::INTEGER + 1 AS day) FROM market_events, range(150)");
        connection.closeSync();
        db.closeSync();
        const slow = await rdw(mock, home, ['export', 'out'], { tty: true });
        expect(slow.code, slow.stderr).toBe(0);
        expect(slow.stderr).toMatch(/^rdw: writing the rows as Parquet files, one folder per day \(\d+ s so far\)…$/m);
        expect(slow.stdout).toMatch(/^Exported \d+ rows in \d+ day partitions to /);
      }),
    );
  }, 120_000);
});
