// `rdw verify --repair`, and the advice that leads there (`rdw verify`, `rdw pull`, `rdw reproduce`), through
// the CLI against an in-test mock over HTTP with real store files and a real catalog; a repair killed with
// SIGKILL mid-download (the built CLI in a child process) is completed by the next one.

import { spawn } from 'node:child_process';
import { chmod, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFile } from '../../src/base/index.js';
import { openCatalog } from '../../src/catalog/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import type { MockServer } from '../../src/mock/index.js';
import { contentHash } from '../support/content-hash.js';
import { BUILT_CLI } from '../support/run-built-cli.js';
import { withMockServer } from '../support/with-mock-server.js';
import { withTempHome } from '../support/temp-home.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `rdw <argv>` in-process against `mock` with the desk key, in `home`. */
async function rdw(mock: MockServer, home: string, argv: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env: { RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: home,
  });
  return { code, stdout, stderr };
}

/** The stored parquet file of the newest pulled release: its ID, digest and absolute path. */
interface StoredParquet {
  id: string;
  sha256: string;
  bytes: number;
  file: string;
  relative: string;
}

async function storedParquet(mock: MockServer, home: string): Promise<StoredParquet> {
  const [row] = JSON.parse(
    (await rdw(mock, home, ['sql', "SELECT release_id, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE format = 'parquet' ORDER BY release_id LIMIT 1", '--json'])).stdout,
  ) as { release_id: string; sha256: string; bytes: number }[];
  const relative = `store/sha256/${row!.sha256.slice(0, 2)}/${row!.sha256}`;
  return { id: row!.release_id, sha256: row!.sha256, bytes: row!.bytes, file: path.join(home, relative), relative };
}

/** Count and content hash of a release's rows in the catalog of `home`. */
async function rowsIn(home: string, id: string): Promise<unknown> {
  const catalog = await openCatalog(home, { readOnly: true });
  try {
    return await contentHash(catalog, `market_events WHERE release_id = '${id}'`);
  } finally {
    await catalog.close();
  }
}

/** The rows of `id` as a fresh pull into an empty home holds them. */
const freshRows = (mock: MockServer, id: string) =>
  withTempHome(async (other) => {
    expect((await rdw(mock, other, ['pull', id])).code).toBe(0);
    return rowsIn(other, id);
  });

/** A home holding the latest `latest` releases of a fresh mock; `fn` gets the first release's stored parquet and its rows. */
async function withPulledHome(latest: number, fn: (mock: MockServer, home: string, parquet: StoredParquet, rows: unknown) => Promise<void>): Promise<void> {
  await withMockServer({ days: 3 }, (mock) =>
    withTempHome(async (home) => {
      expect((await rdw(mock, home, ['pull', '--latest', String(latest)])).code).toBe(0);
      const parquet = await storedParquet(mock, home);
      await fn(mock, home, parquet, await rowsIn(home, parquet.id));
    }),
  );
}

async function flipByte(file: string): Promise<void> {
  await chmod(file, 0o644);
  const bytes = await readFile(file);
  bytes[bytes.length >> 1]! ^= 0xff;
  await writeFile(file, bytes);
}

const downloads = (mock: MockServer) => mock.requestLog.filter((entry) => entry.path.includes('/download/'));

describe('rdw verify --repair', () => {
  it('a deleted parquet: verify exits 3 advising --repair (and stays read-only); --repair restores and re-imports; verify exits 0', async () => {
    await withPulledHome(2, async (mock, home, parquet, rows) => {
      await rm(parquet.file);
      mock.requestLog.length = 0;

      const bad = await rdw(mock, home, ['verify']);
      expect(bad.code).toBe(3);
      expect(bad.stderr).toBe(`rdw: Stored file ${parquet.relative} of release ${parquet.id.slice(0, 12)}… is missing; run "rdw verify --repair" to fetch it again by release ID (and re-import its rows).\n`);
      expect(mock.requestLog).toEqual([]);
      await expect(stat(parquet.file)).rejects.toThrow();

      const repaired = await rdw(mock, home, ['verify', '--repair']);
      expect(repaired.code).toBe(0);
      expect(repaired.stdout.split('\n')[0]).toBe(
        `re-imported ${parquet.relative} (parquet of release ${parquet.id.slice(0, 12)}…, which is missing): fetched again by ID and verified; the rows of 1 release re-imported from it.`,
      );
      expect(repaired.stdout).toContain('Repaired 1 stored file; all ');
      expect(downloads(mock).map((entry) => entry.path)).toEqual([`/v1/download/${parquet.id}/parquet`]);
      expect(await hashFile(parquet.file)).toEqual({ sha256: parquet.sha256, bytes: parquet.bytes });
      expect((await stat(parquet.file)).mode & 0o777).toBe(0o444);
      expect(await rowsIn(home, parquet.id)).toEqual(rows);
      expect(rows).toEqual(await freshRows(mock, parquet.id));
      expect((await rdw(mock, home, ['verify'])).code).toBe(0);

      // A whole store: --repair contacts nobody and says so the plain way.
      mock.requestLog.length = 0;
      const whole = await rdw(mock, home, ['verify', '--repair']);
      expect(whole.code).toBe(0);
      expect(whole.stdout).toMatch(/^All \d+ stored files of 2 releases match their checksums; all rows match their fingerprints\.\n$/);
      expect(mock.requestLog).toEqual([]);
    });
  });

  it('a flipped byte: --repair --json reports it re-imported; verify exits 0', async () => {
    await withPulledHome(1, async (mock, home, parquet, rows) => {
      await flipByte(parquet.file);
      const run = await rdw(mock, home, ['verify', '--repair', '--json']);
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout) as { ok: boolean; repairs: { file: string; problem: string; outcome: string; reimported: string[]; error?: unknown }[] };
      expect(json.ok).toBe(true);
      expect(json.repairs).toEqual([expect.objectContaining({ file: parquet.relative, problem: 'sha256', outcome: 'reimported', reimported: [parquet.id] })]);
      expect(json.repairs[0]!.error).toBeUndefined();
      expect(await hashFile(parquet.file)).toEqual({ sha256: parquet.sha256, bytes: parquet.bytes });
      expect(await rowsIn(home, parquet.id)).toEqual(rows);
      expect((await rdw(mock, home, ['verify'])).code).toBe(0);
    });
  });

  it('a server serving other bytes: exit 3, one "could not" line, store and rows unchanged', async () => {
    await withPulledHome(1, async (mock, home, parquet, rows) => {
      await flipByte(parquet.file);
      const damaged = await readFile(parquet.file);
      mock.faults.add({ format: 'parquet', kind: 'corrupt' });
      const run = await rdw(mock, home, ['verify', '--repair']);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`rdw: could not repair ${parquet.relative} (parquet of release ${parquet.id.slice(0, 12)}…): `);
      expect(run.stderr).toContain('rdw: 1 of 1 damaged stored file could not be repaired (reasons above); run "rdw verify --repair" again once that is fixed.');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(await readFile(parquet.file)).toEqual(damaged);
      expect(await rowsIn(home, parquet.id)).toEqual(rows);
      expect(await readdir(path.join(home, 'store', 'tmp'))).toEqual([]);
      const json = JSON.parse((await rdw(mock, home, ['verify', '--repair', '--json'])).stdout) as { ok: boolean; repairs: { outcome: string; error: { exitCode: number } }[] };
      expect(json.ok).toBe(false);
      expect(json.repairs.map((repair) => [repair.outcome, repair.error.exitCode])).toEqual([['failed', 3]]);
    });
  });

  it('a full byte budget: exit 5 naming the day it clears; nothing fetched, nothing changed', async () => {
    await withPulledHome(1, async (mock, home, parquet, rows) => {
      await rm(parquet.file);
      await withMockServer({ days: 3, limits: { desk: { daily_bytes: 1 } } }, async (tight) => {
        const run = await rdw(tight, home, ['verify', '--repair']);
        expect(run.code).toBe(5);
        expect(run.stderr).toMatch(/could not repair .*\d{4}-\d{2}-\d{2}/);
        expect(downloads(tight)).toEqual([]);
      });
      await expect(stat(parquet.file)).rejects.toThrow();
      expect((await rdw(mock, home, ['verify'])).code).toBe(3);
    });
  });

  it('a repair killed with SIGKILL mid-download is completed by the next one (resuming the partial)', async () => {
    await withPulledHome(2, async (mock, home, parquet, rows) => {
      await rm(parquet.file);
      mock.faults.add({ format: 'parquet', kind: 'slow', delayMs: 400, times: 1 });
      const child = spawn(process.execPath, [BUILT_CLI, 'verify', '--repair', '--home', home], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', RDW_BASE_URL: mock.baseUrl, RDW_API_KEY: mock.keys.desk },
        stdio: 'ignore',
      });
      const exited = new Promise<string | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      // Kill once the first 16 KiB chunk is on disk in store/tmp (the download is under way, nothing imported).
      const tmp = path.join(home, 'store', 'tmp');
      let partialBytes = 0;
      for (let waited = 0; partialBytes < 16_384 && waited < 30_000; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        for (const name of (await readdir(tmp).catch(() => [])).filter((entry) => entry.endsWith('.partial'))) {
          partialBytes = (await stat(path.join(tmp, name)).catch(() => ({ size: 0 }))).size;
        }
      }
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(partialBytes).toBeGreaterThanOrEqual(16_384);
      await expect(stat(parquet.file)).rejects.toThrow();
      expect(await rowsIn(home, parquet.id)).toEqual(rows);

      mock.requestLog.length = 0;
      const next = await rdw(mock, home, ['verify', '--repair']);
      expect(next.code).toBe(0);
      expect(downloads(mock).map((entry) => entry.range)).toEqual([expect.stringMatching(/^bytes=\d+-$/)]);
      expect(await hashFile(parquet.file)).toEqual({ sha256: parquet.sha256, bytes: parquet.bytes });
      expect(await rowsIn(home, parquet.id)).toEqual(rows);
      expect((await rdw(mock, home, ['verify'])).code).toBe(0);
      expect(await readdir(tmp)).toEqual([]);
    });
  }, 60_000);
});

describe('advice that names a command that does it', () => {
  it('rdw pull of a present release with a missing stored file fetches it again (not just "present")', async () => {
    await withPulledHome(1, async (mock, home, parquet, rows) => {
      await rm(parquet.file);
      const run = await rdw(mock, home, ['pull', parquet.id]);
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith(`present  ${parquet.id.slice(0, 12)} `)).toBe(true);
      expect(run.stderr).toBe(`rdw: release ${parquet.id.slice(0, 12)}… was present, but 1 stored file was missing or cut short; fetched again by ID and verified, its rows re-imported.\n`);
      expect(await hashFile(parquet.file)).toEqual({ sha256: parquet.sha256, bytes: parquet.bytes });
      expect(await rowsIn(home, parquet.id)).toEqual(rows);
      expect((await rdw(mock, home, ['verify'])).code).toBe(0);
    });
  });

  it('rdw reproduce advises rdw verify --repair for a missing stored file, and reproduces after it', async () => {
    await withMockServer({ days: 3 }, (mock) =>
      withTempHome(async (home) => {
        expect((await rdw(mock, home, ['lock', 'study.lock.json', '--latest', '1'])).code).toBe(0);
        const parquet = await storedParquet(mock, home);
        await rm(parquet.file);
        const bad = await rdw(mock, home, ['reproduce', 'study.lock.json']);
        expect(bad.code).toBe(3);
        expect(bad.stderr).toContain('run "rdw verify --repair" to fetch it again by release ID');
        expect((await rdw(mock, home, ['verify', '--repair'])).code).toBe(0);
        expect((await rdw(mock, home, ['reproduce', 'study.lock.json'])).code).toBe(0);
      }),
    );
  });
});
