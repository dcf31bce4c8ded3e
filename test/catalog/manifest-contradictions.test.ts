// The manifest's statements checked against its own data and against the /releases listing before anything
// commits (issue 15): variants of the mock's real release whose checksums are right but whose statements
// contradict the rows, served over HTTP by a small server, pulled by the real client into a real catalog.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManifestContradictionError, pullRelease, pullReleases, recordListings, type Catalog } from '../../src/catalog/index.js';
import { LARGEST_PLAN_DAILY_BYTES } from '../../src/catalog/check-manifest-statements.js';
import { importReleases } from '../../src/catalog/import-release.js';
import { prepareRelease } from '../../src/catalog/pull-release.js';
import { createClient, ImpossibleSizeError, type RdwClient } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import { EXIT_CODES, type Release, type SchemaDocument } from '../../src/contract/index.js';
import { withTempHome } from '../support/temp-home.js';
import { withCatalog } from '../support/with-catalog.js';
import { useMockReleaseMaterial, type MockReleaseFiles } from '../support/mock-release-files.js';
import { digestOf, startReleaseVariantServer, VARIANT_SERVER_KEY, type ReleaseVariantServer, type ServedRelease } from './release-variant-server.js';

/** One real release of the mock: its manifest's release object, its parquet file and its bundled schema. */
type Original = MockReleaseFiles;

const material = useMockReleaseMaterial('rdw-contradictions-', 2);
/** The newest and the previous day of the mock. */
let newest: Original;
let previous: Original;
let schema: SchemaDocument;
let sql: DuckDBConnection;
beforeAll(() => {
  [newest, previous] = material.originals as [Original, Original];
  schema = newest.schema;
  sql = material.sql;
});

interface VariantOptions {
  /** Names the variant; its release ID is derived from it. */
  name: string;
  /** Whose rows the data file holds. Default: the newest day's (whose manifest is the variant's). */
  rowsOf?: Original;
  /** SQL producing the data file from the rows, read as `src`. Default: unchanged. */
  select?: string;
  /** Edits the manifest's release object (after the checksums are set). Default: none. */
  edit?: (release: Release & { coverage: Record<string, any> }) => void;
  /** Fields of the `/releases` item that differ from the manifest's. Default: none. */
  listed?: Record<string, unknown>;
  /** Product version of the manifest and its bundled schema. Default: the original's. */
  version?: string;
}

/** The newest release's manifest over a data file made by DuckDB, with checksums and sizes recomputed (always right). */
async function variant(options: VariantOptions): Promise<ServedRelease> {
  const id = createHash('sha256').update(`contradiction:${options.name}`).digest('hex');
  const dataPath = path.join(material.home, `${id}.parquet`);
  const select = (options.select ?? 'SELECT * FROM src').replaceAll('src', `read_parquet('${(options.rowsOf ?? newest).parquet}')`);
  await sql.run(`COPY (${select}) TO '${dataPath}' (FORMAT parquet)`);
  const parquet = await readFile(dataPath);
  const version = options.version ?? newest.release.version;
  const schemaBytes = Buffer.from(JSON.stringify({ ...schema, version }, null, 2));
  const release = structuredClone(newest.release) as Release & { coverage: Record<string, any> };
  Object.assign(release, { id, version, files: { parquet: digestOf(parquet), schema: digestOf(schemaBytes) } });
  // A manifest consistent with the rows it is served with, unless an edit says otherwise.
  release.rows = Number((await sql.runAndReadAll(`SELECT count(*)::DOUBLE AS n FROM read_parquet('${dataPath}')`)).getRowObjectsJson()[0]!.n);
  options.edit?.(release);
  return { release, files: { parquet, schema: schemaBytes }, ...(options.listed === undefined ? {} : { listed: options.listed }) };
}

async function withServer<T>(served: readonly ServedRelease[], fn: (server: ReleaseVariantServer) => Promise<T>): Promise<T> {
  const server = await startReleaseVariantServer();
  for (const release of served) server.add(release);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** Serves `served`, opens a fresh catalog and a real client that has read the listing (unless `list` is false), runs `fn`. */
async function withVariants<T>(
  served: readonly ServedRelease[],
  fn: (catalog: Catalog, client: RdwClient, server: ReleaseVariantServer) => Promise<T>,
  { list = true } = {},
): Promise<T> {
  return withServer(served, (server) =>
    withCatalog(async (catalog, home) => {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        if (list) await client.releases({ limit: 100 });
        return await fn(catalog, client, server);
      } finally {
        await client.close();
      }
    }),
  );
}

const count = async (catalog: Catalog, query: string): Promise<number> => Number((await catalog.query(`SELECT (${query})::DOUBLE AS n`))[0]!.n);

async function expectNotImported(catalog: Catalog, id: string): Promise<void> {
  for (const [table, column] of [['releases', 'id'], ['release_files', 'release_id'], ['market_events', 'release_id']]) {
    expect(await count(catalog, `SELECT count(*) FROM ${table} WHERE ${column} = '${id}'`), table).toBe(0);
  }
}

async function refusal(promise: Promise<unknown>): Promise<ManifestContradictionError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ManifestContradictionError);
  return error as ManifestContradictionError;
}

const short = (id: string) => `${id.slice(0, 12)}…`;
/** A value set's first key with a non-zero count, and another key of the same set. */
const firstCounted = (counts: Record<string, number>) => Object.keys(counts).find((key) => counts[key]! > 0)!;

describe('a manifest contradicted by its own rows', () => {
  it('refuses a manifest whose day is not the day of its rows, naming both days (exit 3, nothing imported)', async () => {
    const served = await variant({ name: 'day 1999', edit: (release) => void (release.day = '1999-01-01') });
    await withVariants([served], async (catalog, client) => {
      const error = await refusal(pullRelease(catalog, client, served.release.id));
      expect(error).toMatchObject({ code: 'RDW_MANIFEST_CONTRADICTION', exitCode: EXIT_CODES.integrity, field: 'day' });
      expect(error.message).toBe(
        `Release ${short(served.release.id)} was not imported: its manifest says day 1999-01-01 but its rows' sample_time fall on ${newest.release.day}.`,
      );
      await expectNotImported(catalog, served.release.id);
    });
  });

  it("refuses another day's parquet served under an ID whose manifest is otherwise consistent with it", async () => {
    // rows, sample_time range and coverage agree with the other day's rows: only the day gives it away
    const served = await variant({
      name: 'other day',
      rowsOf: previous,
      edit: (release) => Object.assign(release, {
        rows: previous.release.rows,
        min_sample_time: previous.release.min_sample_time,
        max_sample_time: previous.release.max_sample_time,
        coverage: previous.release.coverage,
      }),
    });
    await withVariants([served], async (catalog, client) => {
      const error = await refusal(pullRelease(catalog, client, served.release.id));
      expect(error.field).toBe('day');
      expect(error.message).toContain(`its manifest says day ${newest.release.day} but its rows' sample_time fall on ${previous.release.day}`);
      await expectNotImported(catalog, served.release.id);
    });
  });

  type Edit = (release: Release & { coverage: Record<string, any> }) => void;
  const cases: { name: string; field: string; edit?: Edit; select?: string; version?: string; message: RegExp }[] = [
    { name: 'min_sample_time', field: 'min_sample_time', edit: (r) => void (r.min_sample_time! -= 1), message: /min_sample_time \S+ but its rows' smallest sample_time is / },
    { name: 'max_sample_time', field: 'max_sample_time', edit: (r) => void (r.max_sample_time! += 1), message: /max_sample_time \S+ but its rows' largest sample_time is / },
    { name: 'coverage.symbols', field: 'coverage.symbols', edit: (r) => void r.coverage.symbols.pop(), message: /coverage\.symbols .* but its rows' symbols are / },
    { name: 'coverage.samples', field: 'coverage.samples', edit: (r) => void (r.coverage.samples.event += 1), message: /coverage\.samples\.event \d+ but \d+ of its rows have sample_type event/ },
    {
      name: 'coverage.feature_status',
      field: 'coverage.feature_status',
      edit: (r) => void (r.coverage.feature_status[firstCounted(r.coverage.feature_status)] -= 1),
      message: /coverage\.feature_status\.\w+ \d+ but \d+ of its rows have feature_status/,
    },
    {
      name: 'coverage.taker_status',
      field: 'coverage.taker_status',
      edit: (r) => void (r.coverage.taker_status[firstCounted(r.coverage.taker_status)] += 2),
      message: /coverage\.taker_status\.\w+ \d+ but \d+ of its rows have taker_status/,
    },
    {
      name: 'coverage.outcomes of one window',
      field: 'coverage.outcomes.24h',
      edit: (r) => void (r.coverage.outcomes['24h'][firstCounted(r.coverage.outcomes['24h'])] -= 1),
      message: /coverage\.outcomes\.24h\.\w+ \d+ but \d+ of its rows have status_24h/,
    },
    { name: 'coverage.samples with a value no row has', field: 'coverage.samples', edit: (r) => void (r.coverage.samples.spike = 3), message: /coverage\.samples\.spike 3 but 0 of its rows have sample_type spike/ },
    { name: 'dataset (rows of another dataset)', field: 'dataset', select: `SELECT * REPLACE ('market-events-v2' AS dataset) FROM src`, message: /dataset market-events-v1 but its rows' dataset is market-events-v2/ },
    { name: 'version (rows of another calculation_version)', field: 'version', version: 'mev-calc-7', message: /version mev-calc-7 but its rows' calculation_version is mev-calc-4/ },
    {
      // the right number of rows, but one sample twice (the largest row_id's row carries the smallest's ID)
      name: 'rows (one sample on two rows)',
      field: 'rows',
      select: `SELECT * REPLACE (CASE WHEN row_id = (SELECT max(row_id) FROM src) THEN (SELECT min(row_id) FROM src) ELSE row_id END AS row_id) FROM src`,
      message: /rows (\d+) but they are \d+ samples: row_id [0-9a-f]{12}… is on 2 rows, and each row is one sample\.$/,
    },
  ];
  for (const { name, field, edit, select, version, message } of cases) {
    it(`refuses a manifest whose ${name} the rows contradict: exit 3 naming ${field}, nothing imported`, async () => {
      const served = await variant({ name, ...(edit === undefined ? {} : { edit }), ...(select === undefined ? {} : { select }), ...(version === undefined ? {} : { version }) });
      await withVariants([served], async (catalog, client) => {
        const error = await refusal(pullRelease(catalog, client, served.release.id));
        expect(error).toMatchObject({ code: 'RDW_MANIFEST_CONTRADICTION', exitCode: EXIT_CODES.integrity, field });
        expect(error.message).toMatch(message);
        expect(error.message).toMatch(new RegExp(`^Release ${served.release.id.slice(0, 12)}… was not imported: its manifest says `));
        await expectNotImported(catalog, served.release.id);
      });
    });
  }

  it('refuses a manifest rows count its file does not hold (exit 3, the row-count gate), nothing imported', async () => {
    const served = await variant({ name: 'rows', edit: (release) => void (release.rows += 1) });
    await withVariants([served], async (catalog, client) => {
      const error = (await pullRelease(catalog, client, served.release.id).catch((caught: unknown) => caught)) as { code: string; exitCode: number };
      expect(error).toMatchObject({ code: 'RDW_ROW_COUNT_MISMATCH', exitCode: EXIT_CODES.integrity });
      await expectNotImported(catalog, served.release.id);
    });
  });

  it('imports a release whose coverage.symbols also names a pair without rows that day (names, not a claim of rows)', async () => {
    const wider = await variant({ name: 'wider symbols', edit: (release) => void release.coverage.symbols.push('ADAUSDT') });
    await withVariants([wider], async (catalog, client) => {
      expect(await pullRelease(catalog, client, wider.release.id)).toMatchObject({ status: 'imported', rows: newest.release.rows });
    });
  });

  it('imports the honest variant, and a release without coverage or sample_time range (not checked, not invented)', async () => {
    const honest = await variant({ name: 'honest' });
    const bare = await variant({
      name: 'bare',
      edit: (release) => {
        delete (release as Partial<typeof release>).coverage;
        delete release.min_sample_time;
        delete release.max_sample_time;
      },
    });
    await withVariants([honest, bare], async (catalog, client) => {
      expect(await pullRelease(catalog, client, honest.release.id)).toMatchObject({ status: 'imported', rows: newest.release.rows });
      expect(await pullRelease(catalog, client, bare.release.id)).toMatchObject({ status: 'imported', rows: newest.release.rows });
      const rows = await catalog.query(`SELECT id, min_sample_time, max_sample_time, coverage::VARCHAR AS coverage FROM releases ORDER BY import_order`);
      expect(rows).toEqual([
        { id: honest.release.id, min_sample_time: newest.release.min_sample_time, max_sample_time: newest.release.max_sample_time, coverage: JSON.stringify(newest.release.coverage) },
        { id: bare.release.id, min_sample_time: null, max_sample_time: null, coverage: 'null' },
      ]);
      expect(await count(catalog, 'SELECT count(*) FROM market_events')).toBe(2 * newest.release.rows);
    });
  });

  it('refuses the contradicting release inside a group-commit batch; the others of the batch commit', async () => {
    const first = await variant({ name: 'batch honest 1' });
    const bad = await variant({ name: 'batch day', edit: (release) => void (release.day = '1999-01-01') });
    const last = await variant({ name: 'batch honest 2' });
    await withVariants([first, bad, last], async (catalog, client) => {
      const result = await pullReleases(catalog, client, [first.release.id, bad.release.id, last.release.id], { concurrency: 3, batchSize: 3 });
      expect(result.pulled.map((pulled) => pulled.id)).toEqual([first.release.id, last.release.id]);
      expect(result.failed.map(({ id, error }) => [id, (error as ManifestContradictionError).code, (error as ManifestContradictionError).field])).toEqual([
        [bad.release.id, 'RDW_MANIFEST_CONTRADICTION', 'day'],
      ]);
      await expectNotImported(catalog, bad.release.id);
      expect(await count(catalog, 'SELECT count(*) FROM market_events')).toBe(2 * newest.release.rows);
    });
  });
});

describe('one transaction for a batch', () => {
  it('rolls the batch back on a contradiction found by its one aggregate, then imports each on its own: only the contradicted one fails', async () => {
    const served = [
      await variant({ name: 'one batch honest 1' }),
      await variant({ name: 'one batch max', edit: (release) => void (release.max_sample_time! += 0.5) }),
      await variant({ name: 'one batch honest 2', rowsOf: previous, edit: (release) => Object.assign(release, { day: previous.release.day, min_sample_time: previous.release.min_sample_time, max_sample_time: previous.release.max_sample_time, coverage: previous.release.coverage }) }),
    ];
    await withVariants(served, async (catalog, client) => {
      const prepared = [];
      for (const { release } of served) prepared.push(await prepareRelease(catalog, client, release.id));
      const outcomes = await importReleases(catalog, prepared.map((entry) => entry.item));
      expect(outcomes[0]).toBe(true);
      expect(outcomes[1]).toBeInstanceOf(ManifestContradictionError);
      expect(outcomes[1]).toMatchObject({ code: 'RDW_MANIFEST_CONTRADICTION', field: 'max_sample_time' });
      expect(outcomes[2]).toBe(true);
      expect(await catalog.query('SELECT id FROM releases ORDER BY import_order')).toEqual([{ id: served[0]!.release.id }, { id: served[2]!.release.id }]);
      expect(await count(catalog, 'SELECT count(*) FROM market_events')).toBe(newest.release.rows + previous.release.rows);
      await expectNotImported(catalog, served[1]!.release.id);
    });
  });
});

describe('a manifest contradicted by the /releases listing or by any budget', () => {
  it('refuses file checksums that differ from the listing item of the same ID (the file matching the manifest): nothing imported', async () => {
    const served = await variant({ name: 'listing sha' });
    served.listed = { files: { ...served.release.files, parquet: { sha256: 'ab'.repeat(32), bytes: served.release.files.parquet!.bytes } } };
    await withVariants([served], async (catalog, client, server) => {
      const error = await refusal(pullRelease(catalog, client, served.release.id));
      expect(error).toMatchObject({ code: 'RDW_MANIFEST_CONTRADICTION', exitCode: EXIT_CODES.integrity, field: 'files.parquet' });
      expect(error.message).toBe(
        `Release ${short(served.release.id)} was not imported: its manifest says files.parquet.sha256 ${served.release.files.parquet!.sha256} but the /releases listing says ${'ab'.repeat(32)}.`,
      );
      await expectNotImported(catalog, served.release.id);
    });
  });

  it('refuses a listed file size or day that differs from the manifest', async () => {
    const size = await variant({ name: 'listing bytes' });
    size.listed = { files: { ...size.release.files, schema: { ...size.release.files.schema!, bytes: size.release.files.schema!.bytes + 1 } } };
    const day = await variant({ name: 'listing day', listed: { day: '2001-02-03' } });
    await withVariants([size, day], async (catalog, client) => {
      expect((await refusal(pullRelease(catalog, client, size.release.id))).field).toBe('files.schema');
      const dayError = await refusal(pullRelease(catalog, client, day.release.id));
      expect(dayError.field).toBe('day');
      expect(dayError.message).toContain(`its manifest says day ${newest.release.day} but the /releases listing says 2001-02-03`);
      await expectNotImported(catalog, size.release.id);
      await expectNotImported(catalog, day.release.id);
    });
  });

  it("checks the catalog's recorded listing (day, version) when this process read no listing", async () => {
    const served = await variant({ name: 'recorded listing' });
    await withVariants(
      [served],
      async (catalog, client) => {
        await recordListings(catalog, [{ id: served.release.id, day: '2001-02-03', version: served.release.version }]);
        expect(client.listedRelease(served.release.id)).toBeUndefined();
        const error = await refusal(pullRelease(catalog, client, served.release.id));
        expect(error.field).toBe('day');
        expect(error.message).toContain(`its manifest says day ${newest.release.day} but the /releases listing says 2001-02-03`);
        await expectNotImported(catalog, served.release.id);
      },
      { list: false },
    );
  });

  it('does not compare what the listing leaves out (no files, no version): the release imports', async () => {
    const served = await variant({ name: 'sparse listing', listed: { files: undefined, version: undefined } });
    await withVariants([served], async (catalog, client) => {
      expect(client.listedRelease(served.release.id)).toEqual({ id: served.release.id, day: served.release.day });
      expect(await pullRelease(catalog, client, served.release.id)).toMatchObject({ status: 'imported' });
    });
  });

  it('calls a file size no plan could download in a day (10^12 bytes) an integrity failure, exit 3 not 5, before any download', async () => {
    const served = await variant({ name: 'terabyte', edit: (release) => void (release.files.parquet!.bytes = 10 ** 12) });
    await withVariants([served], async (catalog, client, server) => {
      const error = await refusal(pullRelease(catalog, client, served.release.id));
      expect(error).toMatchObject({ code: 'RDW_MANIFEST_CONTRADICTION', exitCode: EXIT_CODES.integrity, field: 'files.parquet.bytes' });
      // the variant server reports 50 GiB a day, more than the spec's largest plan: that is the bound
      expect(error.message).toContain(`the parquet file is 1000000000000 bytes, more than the largest daily byte allowance (${50 * 2 ** 30} bytes) could ever download`);
      expect(50 * 2 ** 30).toBeGreaterThan(LARGEST_PLAN_DAILY_BYTES);
      expect(server.log.filter((entry) => /\/(parquet|schema)$/.test(entry))).toEqual([]);
      await expectNotImported(catalog, served.release.id);
    });
  });
});

describe('a client download of a size no allowance could hold', () => {
  it('is refused as an integrity failure (exit 3) without a request, where a size within the plans is sent', async () => {
    const served = await variant({ name: 'client terabyte' });
    await withVariants([served], async (_catalog, client, server) => {
      const digest = served.release.files.parquet!;
      const dest = path.join(material.home, 'client-terabyte.parquet');
      const error = await client.download(served.release.id, 'parquet', dest, { expected: { ...digest, bytes: 10 ** 12 } }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ImpossibleSizeError);
      expect(error).toMatchObject({ code: 'RDW_IMPOSSIBLE_SIZE', exitCode: EXIT_CODES.integrity });
      expect((error as Error).message).toBe(
        `The parquet file of release ${short(served.release.id)} is said to be 1000000000000 bytes, more than the largest daily byte allowance (${50 * 2 ** 30} bytes) could ever download; the service's statement is wrong, nothing was sent.`,
      );
      expect(server.log.filter((entry) => entry.endsWith('/parquet'))).toEqual([]);
      expect(await client.download(served.release.id, 'parquet', dest, { expected: digest })).toEqual(digest);
    });
  });
});

describe('rdw pull', () => {
  it('exits 3 with one sentence for a contradicted release, imports the honest one, and --latest checks the listing', async () => {
    const honest = await variant({ name: 'cli honest' });
    const forged = await variant({ name: 'cli forged', listed: { files: { parquet: { sha256: 'cd'.repeat(32), bytes: 1 } } } });
    const dated = await variant({ name: 'cli dated', edit: (release) => void (release.day = '1999-01-01') });
    await withServer([honest, forged, dated], async (server) => {
      await withTempHome(async (home) => {
        let stdout = '';
        let stderr = '';
        const code = await runCli(['pull', '--latest', '3', '--home', home], {
          env: { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: VARIANT_SERVER_KEY },
          stdout: { write: (text) => void (stdout += text), isTTY: false },
          stderr: { write: (text) => void (stderr += text), isTTY: false },
          cwd: home,
        });
        expect(code).toBe(EXIT_CODES.integrity);
        expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^imported ${honest.release.id.slice(0, 12)} `))]);
        expect(stderr).toContain(`rdw: Release ${short(forged.release.id)} was not imported: its manifest says files.parquet.sha256 `);
        expect(stderr).toContain(`rdw: Release ${short(dated.release.id)} was not imported: its manifest says day 1999-01-01 but its rows' sample_time fall on ${newest.release.day}.`);
        expect(stderr).not.toMatch(/\n\s+at /);
      });
    });
  });
});
