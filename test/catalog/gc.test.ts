// Nothing unreferenced stays in the store (issue 15): a refused release removes its own files (never one an
// imported release shares), `rdw verify` reports unreferenced files and store/tmp leftovers, and `rdw gc`
// removes them all or nothing, with a dry run, and refuses while another process holds the catalog.

import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CatalogBusyError,
  collectGarbage,
  openCatalog,
  pullRelease,
  pullReleases,
  RowCountMismatchError,
  SchemaMismatchError,
  verifyStore,
  type Catalog,
} from '../../src/catalog/index.js';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { EXIT_CODES, type Release } from '../../src/contract/index.js';
import { createTempHome, withTempHome } from '../support/temp-home.js';
import { mockClient } from '../support/with-catalog.js';
import { withMockServer } from '../support/with-mock-server.js';
import { digestOf, startReleaseVariantServer, VARIANT_SERVER_KEY, type ServedRelease } from './release-variant-server.js';
import { holdCatalog } from '../support/hold-catalog.js';


let scratch: { home: string; remove(): Promise<void> };
let base: { release: Release; parquet: Buffer; schema: Buffer };

beforeAll(async () => {
  scratch = await createTempHome('rdw-gc-');
  await withMockServer({ days: 2 }, async (mock) => {
    const client = mockClient(mock, path.join(scratch.home, 'client'));
    const [listed] = await client.releases({ limit: 1 });
    const { release } = await client.manifest(listed!.id);
    const file = path.join(scratch.home, 'original.parquet');
    await client.download(release.id, 'parquet', file);
    base = { release, parquet: await readFile(file), schema: Buffer.from((await client.bundledSchema(release.id))!.bytes) };
    await client.close();
  });
}, 60_000);

afterAll(async () => {
  await scratch?.remove();
});

/** A release named `name` serving `parquet` (default: the original's bytes) and the original bundled schema. */
function served(name: string, options: { parquet?: Buffer; rows?: number } = {}): ServedRelease {
  const id = createHash('sha256').update(`gc:${name}`).digest('hex');
  const parquet = options.parquet ?? base.parquet;
  const release = {
    ...structuredClone(base.release),
    id,
    rows: options.rows ?? base.release.rows,
    files: { parquet: digestOf(parquet), schema: digestOf(base.schema) },
  } as unknown as Release;
  return { release, files: { parquet, schema: base.schema } };
}

/** The original parquet rewritten by DuckDB with `select` (reading it as `src`). */
async function tamperedParquet(select: string): Promise<Buffer> {
  const source = path.join(scratch.home, 'original.parquet');
  const target = path.join(scratch.home, `${createHash('sha256').update(select).digest('hex')}.parquet`);
  const duck = await DuckDBInstance.create(':memory:');
  const sql = await duck.connect();
  try {
    await sql.run(`COPY (${select.replaceAll('src', `read_parquet('${source}')`)}) TO '${target}' (FORMAT parquet)`);
  } finally {
    sql.closeSync();
    duck.closeSync();
  }
  return readFile(target);
}

/** Serves `releases`, gives `fn` a real client on them in a fresh home, closes everything. */
async function withServed<T>(releases: readonly ServedRelease[], fn: (client: RdwClient, home: string) => Promise<T>): Promise<T> {
  const server = await startReleaseVariantServer();
  for (const release of releases) server.add(release);
  try {
    return await withTempHome(async (home) => {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        return await fn(client, home);
      } finally {
        await client.close();
      }
    });
  } finally {
    await server.close();
  }
}

/** Opens the catalog of `home`, runs `fn`, closes it. */
async function withOpen<T>(home: string, fn: (catalog: Catalog) => Promise<T>): Promise<T> {
  const catalog = await openCatalog(home);
  try {
    return await fn(catalog);
  } finally {
    await catalog.close();
  }
}

/** `rdw <argv> --home home` in-process, without an API. */
async function rdw(home: string, argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--home', home], {
    env,
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    cwd: home,
  });
  return { code, stdout, stderr };
}

/** Every file under `<home>/store`, relative to home, sorted. */
async function storeFiles(home: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(home, full).split(path.sep).join('/'));
    }
  };
  await walk(path.join(home, 'store'));
  return found.sort();
}

const ORPHAN = Buffer.from('bytes no release names\n');
const ORPHAN_SHA = createHash('sha256').update(ORPHAN).digest('hex');
const ORPHAN_FILE = `store/sha256/${ORPHAN_SHA.slice(0, 2)}/${ORPHAN_SHA}`;

/** Plants an unreferenced store file and a resumable partial download (with its sidecar) by hand. */
async function plantOrphans(home: string): Promise<void> {
  await mkdir(path.join(home, 'store', 'sha256', ORPHAN_SHA.slice(0, 2)), { recursive: true });
  await writeFile(path.join(home, ORPHAN_FILE), ORPHAN);
  await writeFile(path.join(home, 'store', 'tmp', 'x.parquet.partial'), Buffer.alloc(1000, 7));
  await writeFile(path.join(home, 'store', 'tmp', 'x.parquet.partial.json'), JSON.stringify({ releaseId: 'x', format: 'parquet', sha256: 'a'.repeat(64), bytes: 5000 }));
}

describe('a refused release leaves nothing in the store', () => {
  const cases: { name: string; make: () => Promise<ServedRelease>; error: new (...args: never[]) => Error }[] = [
    { name: 'a parquet with a number field retyped as text (found by the column check)', make: async () => served('retyped', { parquet: await tamperedParquet('SELECT * REPLACE (CAST(price AS VARCHAR) AS price) FROM src') }), error: SchemaMismatchError },
    { name: 'a manifest claiming one row more than its parquet (found by the footer)', make: async () => served('rows', { rows: base.release.rows + 1 }), error: RowCountMismatchError },
  ];
  for (const { name, make, error: errorClass } of cases) {
    it(`removes its manifest, schema and data file after ${name}; verify reports 0 unreferenced`, async () => {
      const refused = await make();
      await withServed([refused], async (client, home) => {
        const error = await withOpen(home, (catalog) => pullRelease(catalog, client, refused.release.id).catch((caught: unknown) => caught));
        expect(error).toBeInstanceOf(errorClass);
        expect(await storeFiles(home)).toEqual([]);
        const text = await rdw(home, ['verify']);
        expect(text).toMatchObject({ code: 0, stderr: '' });
        expect(text.stdout).toBe("All 0 stored files of 0 releases match their checksums; all rows match their fingerprints.\n");
        const json = await rdw(home, ['verify', '--json']);
        expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, unreferenced: [], unreferencedBytes: 0, temp: [] });
      });
    });
  }

  it('keeps the bundled schema an imported release shares, removes the refused one\'s own files', async () => {
    const good = served('good');
    const refused = served('shares the schema', { rows: base.release.rows + 1 });
    const later = served('refused later', { rows: base.release.rows + 2 });
    await withServed([good, refused, later], async (client, home) => {
      const result = await withOpen(home, (catalog) => pullReleases(catalog, client, [good.release.id, refused.release.id], { concurrency: 2, batchSize: 2 }));
      expect(result.pulled.map((pulled) => pulled.id)).toEqual([good.release.id]);
      expect(result.failed.map((failed) => failed.id)).toEqual([refused.release.id]);
      const report = await withOpen(home, (catalog) => verifyStore(catalog));
      expect(report.bad).toEqual([]);
      expect(report.unreferenced).toEqual([]);
      // Exactly the good release's three files are left: its manifest, the shared schema, the parquet.
      expect(report.files.map((file) => file.sha256).sort()).toEqual(
        [digestOf(Buffer.from(JSON.stringify(good.release))).sha256, digestOf(base.schema).sha256, digestOf(base.parquet).sha256].sort(),
      );
      expect((await storeFiles(home)).filter((file) => file.startsWith('store/sha256/'))).toHaveLength(3);
      // Refused on its own, after the good release committed: the schema and parquet it names stay.
      expect(await withOpen(home, (catalog) => pullRelease(catalog, client, later.release.id).catch((caught: unknown) => caught))).toBeInstanceOf(RowCountMismatchError);
      expect((await storeFiles(home)).filter((file) => file.startsWith('store/sha256/'))).toHaveLength(3);
    });
  });
});

describe('rdw verify and rdw gc', () => {
  it('verify reports planted orphans (text and --json, exit 0); gc --dry-run removes nothing; gc removes them and keeps a file two releases share', async () => {
    // Two releases with the very same parquet bytes: one stored file referenced twice.
    const first = served('shared one');
    const second = served('shared two');
    await withServed([first, second], async (client, home) => {
      const pulled = await withOpen(home, (catalog) => pullReleases(catalog, client, [first.release.id, second.release.id]));
      expect(pulled.failed).toEqual([]);
      await plantOrphans(home);
      const before = await storeFiles(home);

      const text = await rdw(home, ['verify']);
      expect(text.code).toBe(EXIT_CODES.ok);
      expect(text.stdout.split('\n')).toEqual([
        "All 4 stored files of 2 releases match their checksums; all rows match their fingerprints.",
        '1 stored file is referenced by no release (< 0.1 MiB); remove it with rdw gc.',
        '2 partial or leftover downloads are in store/tmp (< 0.1 MiB); the next pull resumes a recent one, rdw gc removes them.',
        '',
      ]);
      const json = JSON.parse((await rdw(home, ['verify', '--json'])).stdout);
      expect(json).toMatchObject({ ok: true, unreferenced: [ORPHAN_FILE], unreferencedBytes: ORPHAN.length });
      expect(json.temp.map((entry: { file: string }) => entry.file)).toEqual(['store/tmp/x.parquet.partial', 'store/tmp/x.parquet.partial.json']);

      const dry = await rdw(home, ['gc', '--dry-run']);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain(`${ORPHAN_FILE}\t${ORPHAN.length}\n`);
      expect(dry.stdout).toContain('store/tmp/x.parquet.partial\t1000\n');
      expect(dry.stdout).toMatch(/Would remove 3 files no release needs \(< 0\.1 MiB\); run rdw gc without --dry-run/);
      expect(await storeFiles(home)).toEqual(before);
      const dryJson = JSON.parse((await rdw(home, ['gc', '--dry-run', '--json'])).stdout);
      expect(dryJson).toMatchObject({ dryRun: true, removed: 0 });
      expect(dryJson.unreferenced).toEqual([{ file: ORPHAN_FILE, sha256: ORPHAN_SHA, bytes: ORPHAN.length }]);

      const gc = await rdw(home, ['gc', '--json']);
      expect(gc.code).toBe(0);
      expect(JSON.parse(gc.stdout)).toMatchObject({ dryRun: false, removed: 3 });
      expect(await storeFiles(home)).toEqual(before.filter((file) => file !== ORPHAN_FILE && !file.startsWith('store/tmp/')));

      const after = await rdw(home, ['verify', '--json']);
      const report = JSON.parse(after.stdout);
      expect(report).toMatchObject({ ok: true, unreferenced: [], temp: [] });
      const shared = report.files.find((file: { sha256: string }) => file.sha256 === digestOf(base.parquet).sha256);
      expect(shared.uses.map((use: { releaseId: string }) => use.releaseId).sort()).toEqual([first.release.id, second.release.id].sort());
      expect(shared.ok).toBe(true);
      expect((await rdw(home, ['gc'])).stdout).toBe('Nothing to remove: every stored file is referenced by a release and store/tmp is empty.\n');
    });
  });

  it('verify keeps exit 3 for a bad referenced file and reports orphans beside it on stderr', async () => {
    await withServed([served('bad one')], async (client, home) => {
      await withOpen(home, (catalog) => pullRelease(catalog, client, served('bad one').release.id));
      await plantOrphans(home);
      const manifest = digestOf(Buffer.from(JSON.stringify(served('bad one').release))).sha256;
      const file = path.join(home, 'store', 'sha256', manifest.slice(0, 2), manifest);
      await chmod(file, 0o644);
      await writeFile(file, '{}');
      const run = await rdw(home, ['verify']);
      expect(run.code).toBe(EXIT_CODES.integrity);
      expect(run.stderr).toContain('1 stored file is referenced by no release');
      expect(run.stderr).toContain(`store/sha256/${manifest.slice(0, 2)}/${manifest}`);
    });
  });

  it('never removes a file an in-flight pull of this process has pinned; removes it once unpinned', async () => {
    await withTempHome(async (home) => {
      await withOpen(home, async (catalog) => {
        await plantOrphans(home);
        await catalog.store.pin(ORPHAN_SHA);
        const pinned = await collectGarbage(catalog);
        expect(pinned.unreferenced).toEqual([]);
        // While a pull of this process runs, store/tmp is not touched either.
        expect(pinned.temp).toEqual([]);
        expect(await storeFiles(home)).toContain(ORPHAN_FILE);
        catalog.store.unpin(ORPHAN_SHA);
        const unpinned = await collectGarbage(catalog);
        expect(unpinned.removed).toBe(3);
        expect(await storeFiles(home)).toEqual([]);
      });
    });
  });

  it('a gc running beside a pull in the same process leaves the pull whole', async () => {
    const releases = [served('beside 1'), served('beside 2', { parquet: await tamperedParquet('SELECT * FROM src ORDER BY row_id DESC') }), served('beside 3')];
    await withServed(releases, async (client, home) => {
      await withOpen(home, async (catalog) => {
        await plantOrphans(home);
        const pull = pullReleases(catalog, client, releases.map((release) => release.release.id), { concurrency: 2, batchSize: 1 });
        const collections = await Promise.all([collectGarbage(catalog), collectGarbage(catalog)]);
        const result = await pull;
        expect(result.failed).toEqual([]);
        expect(collections.some((collection) => collection.unreferenced.some((file) => file.sha256 === ORPHAN_SHA))).toBe(true);
        const report = await verifyStore(catalog);
        expect(report.bad).toEqual([]);
        expect(report.files.length).toBe(6); // 3 manifests, 1 shared schema, 2 distinct parquet files
      });
    });
  });

  it('gc refuses while another process holds the catalog, and removes nothing', async () => {
    await withTempHome(async (home) => {
      await withOpen(home, async () => undefined);
      await plantOrphans(home);
      const before = await storeFiles(home);
      const holder = await holdCatalog(home);
      try {
        const error = await openCatalog(home, { busyTimeoutMs: 300, busyRetryMs: 50 }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(CatalogBusyError);
        const run = await rdw(home, ['gc'], { RDW_CATALOG_WAIT: '2' });
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(new RegExp(`is held by .+ PID ${holder.pid} \\(waited 2 s\\); run again when it has finished, or stop it \\(kill ${holder.pid}\\)\\.\n$`));
        expect(await storeFiles(home)).toEqual(before);
      } finally {
        holder.kill('SIGKILL');
        await new Promise((resolve) => holder.once('exit', resolve));
      }
    });
  }, 40_000);
});
