// Many readers and one writer (issue 17): a lease-mode catalog (a notebook's) lets other processes in between
// its operations, a writer that must wait says who holds the catalog and for how long, and gives up after
// its bound naming the holder's PID; readers share the file. Real DuckDB files, real child processes.

import { spawn } from 'node:child_process';
import { writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogBusyError, openCatalog, type Catalog } from '../../src/catalog/index.js';
import { MIGRATIONS } from '../../src/catalog/catalog-schema.js';
import { resolveCatalogOptions } from '../../src/catalog/catalog-options.js';
import { holdCatalog } from '../support/hold-catalog.js';
import { startLeaseHolder, type LeaseHolder } from '../support/lease-holder.js';
import { BUILT_CLI, runBuiltCli } from '../support/run-built-cli.js';
import { withTempHome } from '../support/temp-home.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `closed()` is true (a lease lets go `leaseIdleMs` after its last operation). */
async function until(closed: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await closed())) await pause(50);
}
const leaseClosed = (holder: LeaseHolder) => until(async () => (await holder.ask('state', 'state')).startsWith('state closed'));
const catalogClosed = (catalog: Catalog) => until(() => !catalog.fileOpen);

/** The stderr lines about the catalog (the embedded mock and the client may add their own notices). */
const catalogLines = (stderr: string) => stderr.split('\n').filter((line) => line.includes('catalog'));

const rdw = (home: string, argv: string[], env: Record<string, string> = {}) => runBuiltCli([...argv, '--home', home], { env, timeoutMs: 90_000 });
const stopped = async (child: { kill(signal: string): boolean; once(event: 'exit', fn: () => void): unknown }) => {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
};

describe('a lease-mode catalog (a notebook kernel) and a terminal', () => {
  it('an idle lease keeps neither rdw pull nor rdw ls out, and sees their rows at its next operation', async () => {
    await withTempHome(async (home) => {
      const holder = await startLeaseHolder(home);
      try {
        expect(await holder.ask('count', 'count')).toBe('count 0');
        await leaseClosed(holder);
        const pull = await rdw(home, ['pull', '--latest', '2']);
        expect(catalogLines(pull.stderr)).toEqual([]);
        expect(pull.code).toBe(0);
        const ls = await rdw(home, ['ls', '--full-ids']);
        expect(ls.code).toBe(0);
        expect(ls.stdout.split('\n').filter((line) => /^[0-9a-f]{64} /.test(line))).toHaveLength(2);
        expect(await holder.ask('count', 'count')).toBe('count 2');
        expect(Number((await holder.ask('state', 'state')).split(' ')[2])).toBeGreaterThanOrEqual(2);
      } finally {
        await holder.stop();
      }
    });
  }, 120_000);

  it('a writer arriving mid-operation waits, says who holds the catalog (PID) and for how long, then succeeds', async () => {
    await withTempHome(async (home) => {
      const holder = await startLeaseHolder(home);
      try {
        await holder.ask('hold', 'held');
        // The notebook's operation lasts until the terminal's pull has said that it waits, then ends.
        const pull = spawn(process.execPath, [BUILT_CLI, 'pull', '--latest', '1', '--home', home], { env: { PATH: process.env.PATH ?? '' } });
        let stdout = '';
        let stderr = '';
        pull.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
        const noticed = new Promise<void>((resolve) =>
          pull.stderr.setEncoding('utf8').on('data', (chunk: string) => {
            stderr += chunk;
            if (catalogLines(stderr).length > 0) resolve();
          }),
        );
        const code = new Promise<number | null>((resolve) => pull.once('close', resolve));
        await noticed;
        const released = holder.ask('release', 'released');
        expect(await code).toBe(0);
        await released;
        const notices = catalogLines(stderr);
        expect(notices).toHaveLength(1);
        expect(notices[0]).toMatch(new RegExp(`^rdw: The catalog in .+ is held by .+ PID ${holder.pid}; waiting for it up to (59|60) s more\\.$`));
        expect(stdout).toMatch(/^imported [0-9a-f]{12}/m);
      } finally {
        await holder.stop();
      }
    });
  }, 120_000);
});

describe('a holder that never lets go', () => {
  it('a writer gives up after its bound (RDW_CATALOG_WAIT) with exit 1, naming the PID; a reader too', async () => {
    await withTempHome(async (home) => {
      const holder = await holdCatalog(home);
      try {
        const pull = await rdw(home, ['pull', '--latest', '1'], { RDW_CATALOG_WAIT: '2' });
        expect(pull.code).toBe(1);
        const lines = catalogLines(pull.stderr);
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(new RegExp(`^rdw: The catalog in .+ is held by .+ PID ${holder.pid}; waiting for it up to 1 s more\\.$`));
        expect(lines[1]).toMatch(
          new RegExp(`^rdw: The catalog in .+ is held by .+ PID ${holder.pid} \\(waited 2 s\\); run again when it has finished, or stop it \\(kill ${holder.pid}\\)\\.$`),
        );
        const ls = await rdw(home, ['ls'], { RDW_CATALOG_WAIT: '0.5' });
        expect(ls.code).toBe(1);
        expect(ls.stderr).toContain(`PID ${holder.pid}`);
        expect(catalogLines(ls.stderr)).toHaveLength(1); // under a second: no notice
      } finally {
        await stopped(holder);
      }
    });
  }, 120_000);

  it('a bad RDW_CATALOG_WAIT is a usage error (exit 2) before anything opens', async () => {
    await withTempHome(async (home) => {
      const run = await rdw(home, ['ls'], { RDW_CATALOG_WAIT: 'soon' });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('rdw: RDW_CATALOG_WAIT "soon" is not valid: expected the seconds to wait for a catalog another process holds (0-86400).\n');
      expect(await readdir(home)).toEqual([]);
      // Number() reads these as 16 and 1000 seconds; only plain decimal seconds are a wait.
      for (const value of ['0x10', '1e3', '-1']) {
        const other = await rdw(home, ['ls'], { RDW_CATALOG_WAIT: value });
        expect([other.code, other.stderr]).toEqual([2, `rdw: RDW_CATALOG_WAIT "${value}" is not valid: expected the seconds to wait for a catalog another process holds (0-86400).\n`]);
      }
    });
  });
});

describe('readers share the file', () => {
  it('ls, sql and verify run while another process reads the catalog; a writer waits for that reader', async () => {
    await withTempHome(async (home) => {
      expect((await rdw(home, ['pull', '--latest', '1'])).code).toBe(0);
      const reader = await holdCatalog(home, { readOnly: true });
      try {
        const ls = await rdw(home, ['ls', '--full-ids']);
        expect(ls.code).toBe(0);
        const sql = await rdw(home, ['sql', 'SELECT count(*)::INTEGER AS n FROM releases', '--json']);
        expect(sql.code).toBe(0);
        expect(JSON.parse(sql.stdout)).toEqual([{ n: 1 }]);
        expect((await rdw(home, ['verify'])).code).toBe(0);
        const gc = await rdw(home, ['gc'], { RDW_CATALOG_WAIT: '0.3' });
        expect(gc.code).toBe(1);
        expect(gc.stderr).toContain(`PID ${reader.pid}`);
      } finally {
        await stopped(reader);
      }
    });
  }, 120_000);
});

describe('Catalog hold: while-busy', () => {
  it('opens the file per burst of operations, migrates and cleans store/tmp once, and defers compaction again', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home, { hold: 'while-busy', leaseIdleMs: 0 });
      try {
        await catalog.deferCompaction();
        await catalogClosed(catalog);
        // Closed: another handle of this process (or another process) gets the file at once.
        const other = await openCatalog(home, { busyTimeoutMs: 0 });
        await other.close();
        await writeFile(path.join(home, 'store', 'tmp', 'stray'), 'x');
        const [row] = await catalog.query(`SELECT current_setting('max_vacuum_tasks')::INTEGER AS tasks, (SELECT count(*) FROM schema_migrations)::INTEGER AS migrations`);
        expect(row).toEqual({ tasks: 0, migrations: MIGRATIONS.length });
        expect(catalog.fileOpens).toBe(2);
        expect(await readdir(path.join(home, 'store', 'tmp'))).toEqual(['stray']);
      } finally {
        await catalog.close();
      }
      expect(catalog.fileOpen).toBe(false);
    });
  });

  it('keeps the file while a pull of this process has store files pinned, and once the raw connection is used', async () => {
    await withTempHome(async (home) => {
      const catalog = await openCatalog(home, { hold: 'while-busy', leaseIdleMs: 0 });
      try {
        await catalog.store.pin('a'.repeat(64));
        await catalog.query('SELECT 1');
        await pause(100);
        expect(catalog.fileOpen).toBe(true);
        const error = await openCatalog(home, { busyTimeoutMs: 0 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(CatalogBusyError);
        expect((error as Error).message).toContain(`another catalog handle of this process (PID ${process.pid})`);
        catalog.store.unpin('a'.repeat(64));
        await catalogClosed(catalog);

        await catalog.connection.run('CREATE TEMP VIEW answer AS SELECT 42 AS x');
        await pause(100);
        expect(catalog.fileOpen).toBe(true);
        expect((await catalog.connection.runAndReadAll('SELECT x FROM answer')).getRowObjectsJson()).toEqual([{ x: 42 }]);
      } finally {
        await catalog.close();
      }
      // An operation queued before close still runs (the lease opens the file for it), then the file is closed.
      const lease = await openCatalog(home, { hold: 'while-busy', leaseIdleMs: 0 });
      await catalogClosed(lease);
      const queued = lease.query('SELECT 7 AS x');
      await lease.close();
      expect(await queued).toEqual([{ x: 7 }]);
      expect(lease.fileOpen).toBe(false);
      const after = await catalog.query('SELECT 1').catch((caught: unknown) => caught);
      expect((after as Error).message).toMatch(/was closed; open it again/);
    });
  });

  it('waits longer by default to write (60 s) than to read (10 s), and refuses an unknown hold', () => {
    expect(resolveCatalogOptions({}).busyTimeoutMs).toBe(60_000);
    expect(resolveCatalogOptions({ readOnly: true }).busyTimeoutMs).toBe(10_000);
    expect(resolveCatalogOptions({}).hold).toBe('always');
    expect(() => resolveCatalogOptions({ hold: 'sometimes' as never })).toThrow(/hold must be 'always' or 'while-busy'/);
  });
});
