// Import judged against the release's own bundled schema and the spec's field list, not against the mock
// (issue 14): variants of the mock's real files that a real service could publish, served over HTTP by a
// small server, pulled by the real client into a real catalog.

import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertPredictors, createAnalysisViews, JOIN_COLUMNS, UnknownColumnError } from '../../src/analysis/index.js';
import { acceptedNotices, exportParquet, openCatalog, pullRelease, SchemaMismatchError, type Catalog, type PullResult } from '../../src/catalog/index.js';
import { importReleases } from '../../src/catalog/import-release.js';
import { MIGRATIONS } from '../../src/catalog/catalog-schema.js';
import { prepareRelease } from '../../src/catalog/pull-release.js';
import { runMigrations } from '../../src/catalog/run-migrations.js';
import { createClient, type RdwClient } from '../../src/client/index.js';
import { runCli } from '../../src/cli/run-cli.js';
import {
  EXIT_CODES,
  MARKET_EVENT_FIELDS,
  PREDICTOR_FIELD_NAMES,
  PRODUCT_VERSION,
  type FieldType,
  type Release,
  type SchemaDocument,
} from '../../src/contract/index.js';
import { contentHash } from '../support/content-hash.js';
import { withTempHome } from '../support/temp-home.js';
import { withCatalog } from '../support/with-catalog.js';
import { useMockReleaseMaterial, type MockReleaseFiles } from '../support/mock-release-files.js';
import { digestOf, startReleaseVariantServer, VARIANT_SERVER_KEY, type ServedRelease } from './release-variant-server.js';

/** The mock's real files of one release, the material every variant is made from. */
type Base = MockReleaseFiles;

const material = useMockReleaseMaterial('rdw-tolerant-', 1);
let base: Base;
let sql: DuckDBConnection;
beforeAll(() => {
  [base] = material.originals as [Base];
  sql = material.sql;
});

const ORIGINAL = () => `read_parquet('${base.parquet}')`;

interface VariantOptions {
  /** Names the variant; its release ID is derived from it. */
  name: string;
  /** SQL producing the data file, reading the original as `src`. Default: the original rows unchanged. */
  select?: string;
  /** Writes the data file as csv (header first) instead of parquet. */
  csv?: boolean;
  /** Edits a copy of the bundled schema; `null` serves no schema. Default: the original schema. */
  schema?: ((document: SchemaDocument) => Record<string, unknown>) | null;
  /** The manifest's product version. Default: the original's. */
  version?: string;
}

interface Variant extends ServedRelease {
  /** Path of the variant's data file (for expected values). */
  dataPath: string;
}

/** A release made from the original's real files by DuckDB, with its manifest's checksums and sizes recomputed. */
async function variant(options: VariantOptions): Promise<Variant> {
  const id = createHash('sha256').update(`variant:${options.name}`).digest('hex');
  const format = options.csv === true ? 'csv' : 'parquet';
  const dataPath = path.join(material.home, `${id}.${format}`);
  const select = (options.select ?? 'SELECT * FROM src').replaceAll('src', ORIGINAL());
  await sql.run(`COPY (${select}) TO '${dataPath}' (${format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT parquet'})`);
  const data = await readFile(dataPath);
  const files: ServedRelease['files'] = { [format]: data };
  const manifestFiles: Record<string, { sha256: string; bytes: number }> = { [format]: digestOf(data) };
  if (options.schema !== null) {
    const document = options.schema === undefined ? base.schema : options.schema(structuredClone(base.schema));
    files.schema = Buffer.from(JSON.stringify(document, null, 2));
    manifestFiles.schema = digestOf(files.schema);
  }
  const release = { ...structuredClone(base.release), id, version: options.version ?? base.release.version, files: manifestFiles } as unknown as Release;
  return { release, files, dataPath };
}

/** Serves `variants`, opens a fresh catalog and a real client on the server, runs `fn`, closes everything. */
async function withVariants<T>(variants: readonly ServedRelease[], fn: (catalog: Catalog, client: RdwClient, home: string) => Promise<T>): Promise<T> {
  const server = await startReleaseVariantServer();
  for (const served of variants) server.add(served);
  try {
    return await withCatalog(async (catalog, home) => {
      const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        return await fn(catalog, client, home);
      } finally {
        await client.close();
      }
    });
  } finally {
    await server.close();
  }
}

const count = async (catalog: Catalog, query: string): Promise<number> => Number((await catalog.query(`SELECT (${query})::DOUBLE AS n`))[0]!.n);

/** The catalog's rows of one release joined to another table's rows by row_id. */
const joined = (id: string, other: string) => `market_events m JOIN ${other} o USING (row_id) WHERE m.release_id = '${id}'`;

async function expectNothingImported(catalog: Catalog): Promise<void> {
  for (const table of ['releases', 'release_files', 'market_events', 'market_event_extras']) {
    expect(await count(catalog, `SELECT count(*) FROM ${table}`), table).toBe(0);
  }
  expect(await readdir(catalog.store.tempDir)).toEqual([]);
}

/** A schema edit: every field's type written with another word, `nullable` and `description` left out. */
const WORDS: Record<FieldType, string> = { string: 'utf8', number: 'float64', integer: 'int64', boolean: 'bool' };

describe('number fields in other numeric types', () => {
  const widened = {
    event_recorded_at: 'DECIMAL(18,3)',
    reference_start: 'INTEGER',
    price_time: 'BIGINT',
    quote_volume_5m: 'FLOAT',
    derivative_time: 'UBIGINT',
    missing_candles_1h: 'SMALLINT',
  } as const;

  it('imports BIGINT, INTEGER, SMALLINT, UBIGINT, DECIMAL and FLOAT columns as DOUBLE with their values, and reports them', async () => {
    const replace = Object.entries(widened).map(([field, type]) => `CAST(${field} AS ${type}) AS ${field}`).join(', ');
    const served = await variant({ name: 'widened', select: `SELECT * REPLACE (${replace}) FROM src` });
    await withVariants([served], async (catalog, client) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(result).toMatchObject({ status: 'imported', rows: base.release.rows, format: 'parquet' });
      // Reported in spec order, with the file's types.
      const order = MARKET_EVENT_FIELDS.map((field) => field.name);
      const expected = Object.entries(widened).map(([field, type]) => ({ field, type })).sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
      expect(result.accepted).toEqual({ widened: expected });
      const [stored] = await catalog.query(`SELECT accepted::VARCHAR AS accepted FROM releases WHERE id = $id`, { id: served.release.id });
      expect(JSON.parse(String(stored!.accepted))).toEqual({ widened: expected });

      // The catalog's columns stay DOUBLE; every value equals the file's value as a DOUBLE.
      const types = await catalog.query(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'market_events' AND list_contains($names::VARCHAR[], column_name)`, {
        names: `[${Object.keys(widened).join(',')}]`,
      });
      expect(types.map((row) => row.data_type)).toEqual(Object.keys(widened).map(() => 'DOUBLE'));
      for (const field of Object.keys(widened)) {
        expect(await count(catalog, `SELECT count(*) FROM ${joined(served.release.id, `read_parquet('${served.dataPath}')`)} AND m.${field} IS DISTINCT FROM CAST(o.${field} AS DOUBLE)`), field).toBe(0);
      }
      // An integral time imported from BIGINT equals the DOUBLE original exactly.
      expect(await count(catalog, `SELECT count(*) FROM ${joined(served.release.id, ORIGINAL())} AND m.price_time IS DISTINCT FROM o.price_time`)).toBe(0);
      expect(await count(catalog, `SELECT count(m.price_time) FROM market_events m`)).toBeGreaterThan(0);
      // The other columns are untouched: the whole content equals the variant file read as DOUBLE.
      const back = Object.keys(widened).map((field) => `CAST(${field} AS DOUBLE) AS ${field}`).join(', ');
      expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, `(SELECT * REPLACE (${back}) FROM read_parquet('${served.dataPath}'))`));
    });
  });
});

describe("the bundled schema's type words", () => {
  it('reads utf8, float64, bool, int64, a nullable list and other cases as the spec types; missing nullable and description are accepted', async () => {
    const served = await variant({
      name: 'type-words',
      schema: (document) => {
        const fields: Record<string, unknown> = {};
        for (const field of MARKET_EVENT_FIELDS) fields[field.name] = { type: WORDS[field.type] };
        fields.price = { type: 'int64' }; // an integer word where the spec says number
        fields.oi_usd = { type: ['number', 'null'] };
        fields.symbol = { type: 'VARCHAR' };
        fields.venue = 'Utf8'; // the word itself as the field's value
        fields.trigger_threshold = ['null', 'double'];
        return { dataset: document.dataset, version: document.version, fields };
      },
    });
    await withVariants([served], async (catalog, client) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, ORIGINAL()));
      const words = result.accepted!.typeWords!;
      expect(words).toHaveLength(MARKET_EVENT_FIELDS.length);
      expect(words).toContainEqual({ field: 'row_id', word: 'utf8', type: 'string' });
      expect(words).toContainEqual({ field: 'trigger_value', word: 'float64', type: 'number' });
      expect(words).toContainEqual({ field: 'feature_pit_eligible', word: 'bool', type: 'boolean' });
      expect(words).toContainEqual({ field: 'price', word: 'int64', type: 'integer' });
      expect(words).toContainEqual({ field: 'oi_usd', word: 'number|null', type: 'number' });
      expect(words).toContainEqual({ field: 'symbol', word: 'VARCHAR', type: 'string' });
      expect(words).toContainEqual({ field: 'venue', word: 'Utf8', type: 'string' });
      expect(words).toContainEqual({ field: 'trigger_threshold', word: 'null|double', type: 'number' });
      const notices = acceptedNotices([result]);
      expect(notices.map((notice) => notice.kind)).toEqual(['type_words']);
      expect(notices[0]!.message).toMatch(/^The bundled schema of 1 release uses other type words \(utf8 as string, .*\); read as the spec's types\.$/);
    });
  });
});

describe('fields beyond the spec', () => {
  it("keeps each row's extra values as JSON in market_event_extras, reports them, and never lets them reach market_events, predictors or exports", async () => {
    const served = await variant({
      name: 'extras',
      select: `SELECT *, round(price * 0.001, 6) AS spread_bps, 'note-' || left(row_id, 8) AS venue_note, [symbol, sample_type] AS tags FROM src`,
      schema: (document) => ({
        ...document,
        fields: { ...document.fields, spread_bps: { type: 'float64', description: 'new' }, venue_note: { type: 'utf8' }, tags: { type: 'list<utf8>' } },
      }),
    });
    await withVariants([served], async (catalog, client, home) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(result.accepted).toEqual({
        extraFields: [
          { field: 'spread_bps', type: 'DOUBLE' },
          { field: 'venue_note', type: 'VARCHAR' },
          { field: 'tags', type: 'VARCHAR[]' },
        ],
      });
      expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, ORIGINAL()));
      // Every row has its extra values, joined on (release_id, row_id).
      const extras = `market_events m JOIN market_event_extras x USING (release_id, row_id)`;
      expect(await count(catalog, 'SELECT count(*) FROM market_event_extras')).toBe(base.release.rows);
      expect(await count(catalog, `SELECT count(*) FROM ${extras} WHERE (x.extra_fields->>'venue_note') = 'note-' || left(m.row_id, 8)`)).toBe(base.release.rows);
      expect(await count(catalog, `SELECT count(*) FROM ${extras} WHERE ((x.extra_fields->>'spread_bps'))::DOUBLE IS NOT DISTINCT FROM round(m.price * 0.001, 6)`)).toBe(base.release.rows);
      expect(await count(catalog, `SELECT count(*) FROM ${extras} WHERE (x.extra_fields->>'$.tags[0]') = m.symbol AND (x.extra_fields->>'$.tags[1]') = m.sample_type`)).toBe(base.release.rows);

      // market_events keeps exactly release_id, day and the spec's fields.
      const columns = await catalog.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'market_events' ORDER BY ordinal_position`);
      expect(columns.map((row) => row.column_name)).toEqual(['release_id', 'day', ...MARKET_EVENT_FIELDS.map((field) => field.name)]);
      // The analysis views hold only spec predictors; the leakage guard does not know the extra names.
      await catalog.exclusive((connection) => createAnalysisViews(connection));
      const predictors = await catalog.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'mev_predictors' ORDER BY ordinal_position`);
      expect(predictors.map((row) => row.column_name)).toEqual([...JOIN_COLUMNS, ...PREDICTOR_FIELD_NAMES]);
      for (const name of ['spread_bps', 'venue_note', 'tags', 'extra_fields']) expect(() => assertPredictors([name])).toThrow(UnknownColumnError);
      // Export still writes the spec's columns.
      const exported = await exportParquet(catalog, path.join(home, 'export'));
      expect(exported.rows).toBe(base.release.rows);
      const exportedColumns = await catalog.query(`SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet('${exported.dir}/*/*.parquet', hive_partitioning = true))`);
      expect(exportedColumns.map((row) => row.column_name).sort()).toEqual(['release_id', 'day', ...MARKET_EVENT_FIELDS.map((field) => field.name)].sort());
    });
  });
});

describe('nullable spec fields a release does not carry', () => {
  it('imports an absent nullable field as NULL (missing, never zero) and reports it', async () => {
    const served = await variant({
      name: 'absent',
      select: 'SELECT * EXCLUDE (oi_usd) FROM src',
      schema: (document) => {
        const { oi_usd: _dropped, ...fields } = document.fields;
        return { ...document, fields };
      },
    });
    await withVariants([served], async (catalog, client) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(result.accepted).toEqual({ absentFields: ['oi_usd'] });
      expect(await count(catalog, 'SELECT count(*) FROM market_events WHERE oi_usd IS NULL')).toBe(base.release.rows);
      expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, `(SELECT * REPLACE (NULL::DOUBLE AS oi_usd) FROM ${ORIGINAL()})`));
    });
  });
});

describe('releases that cannot be imported', () => {
  const withSpread = (document: SchemaDocument) => ({ ...document, fields: { ...document.fields, spread_bps: { type: 'float64' } } });
  const cases: { name: string; options: Omit<VariantOptions, 'name'>; message: RegExp }[] = [
    { name: 'text in a number field', options: { select: 'SELECT * REPLACE (CAST(price AS VARCHAR) AS price) FROM src' }, message: /price is VARCHAR, which cannot hold a number/ },
    { name: 'a timestamp in a time field', options: { select: 'SELECT * REPLACE (to_timestamp(sample_time)::TIMESTAMP AS sample_time) FROM src' }, message: /sample_time is TIMESTAMP, which cannot hold a number/ },
    { name: 'a list in a number field', options: { select: 'SELECT * REPLACE ([price] AS price) FROM src' }, message: /price is DOUBLE\[\], which cannot hold a number/ },
    {
      name: 'a never-null field left out',
      options: {
        select: 'SELECT * EXCLUDE (feature_pit_eligible) FROM src',
        schema: (document) => {
          const { feature_pit_eligible: _dropped, ...fields } = document.fields;
          return { ...document, fields };
        },
      },
      message: /missing feature_pit_eligible, which is never null/,
    },
    { name: 'a bundled schema typing a number field as text', options: { schema: (d) => ({ ...d, fields: { ...d.fields, price: { type: 'utf8' } } }) }, message: /price is utf8, not number/ },
    { name: 'a bundled schema type word rdw does not know for a spec field', options: { schema: (d) => ({ ...d, fields: { ...d.fields, sample_time: { type: 'timestamp' } } }) }, message: /sample_time has the type word "timestamp", which is not a number/ },
    { name: 'a bundled schema listing a field the file lacks', options: { schema: withSpread }, message: /the bundled schema lists spread_bps, the parquet file has no such column/ },
    { name: 'a file column the bundled schema lacks', options: { select: 'SELECT *, 1.5 AS spread_bps FROM src' }, message: /spread_bps is in the parquet file but not in its bundled schema/ },
    { name: 'a bundled schema of another product version than the manifest', options: { version: 'mev-calc-7' }, message: /is product version "mev-calc-4", but its manifest says "mev-calc-7"/ },
    {
      name: 'a null in a never-null field',
      options: { select: 'SELECT * REPLACE (CASE WHEN row_id = (SELECT min(row_id) FROM src) THEN NULL ELSE feature_pit_eligible END AS feature_pit_eligible) FROM src' },
      message: /feature_pit_eligible is null in a row, and the spec says it never is/,
    },
    {
      name: 'a csv value that is not a number',
      options: { csv: true, select: `SELECT * REPLACE (CASE WHEN row_id = (SELECT min(row_id) FROM src) THEN 'abc' ELSE CAST(price AS VARCHAR) END AS price) FROM src` },
      message: /csv line \d+: Error when converting column "price"\. Could not convert string "abc" to 'DOUBLE'\)\. Nothing was imported\.$/,
    },
    { name: 'a column named like the one rdw reserves', options: { select: 'SELECT *, 1 AS rdw_source_file FROM src', schema: (d) => ({ ...d, fields: { ...d.fields, rdw_source_file: { type: 'int64' } } }) }, message: /rdw_source_file is reserved/ },
  ];
  for (const { name, options, message } of cases) {
    it(`refuses ${name}: exit 3, one sentence naming the field, nothing imported`, async () => {
      const served = await variant({ name: `refused ${name}`, ...options });
      await withVariants([served], async (catalog, client) => {
        const error = await pullRelease(catalog, client, served.release.id).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SchemaMismatchError);
        expect((error as SchemaMismatchError).exitCode).toBe(EXIT_CODES.integrity);
        expect((error as Error).message).toMatch(message);
        expect((error as Error).message).not.toContain('\n');
        await expectNothingImported(catalog);
      });
    });
  }
});

describe('a new product version', () => {
  it('imports mev-calc-7 as given, records it on the release and its rows, and reports it once', async () => {
    const served = await variant({
      name: 'version',
      version: 'mev-calc-7',
      select: `SELECT * REPLACE ('mev-calc-7' AS calculation_version) FROM src`,
      schema: (document) => ({ ...document, version: 'mev-calc-7' }),
    });
    await withVariants([served], async (catalog, client) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(result).toMatchObject({ status: 'imported', version: 'mev-calc-7', accepted: { version: 'mev-calc-7' } });
      expect(await catalog.query('SELECT version, accepted->>$key AS accepted FROM releases', { key: '$.version' })).toEqual([{ version: 'mev-calc-7', accepted: 'mev-calc-7' }]);
      expect(await catalog.query('SELECT DISTINCT calculation_version AS v FROM market_events')).toEqual([{ v: 'mev-calc-7' }]);
      const notices = acceptedNotices([result, { ...result, id: 'x'.repeat(64) }]);
      expect(notices).toEqual([
        {
          kind: 'product_version',
          releases: [served.release.id, 'x'.repeat(64)],
          message: `2 releases are product version mev-calc-7, not ${PRODUCT_VERSION} that this rdw was written for; imported as given (recorded in releases.version; each row keeps its calculation_version).`,
        },
      ]);
    });
  });
});

describe('CSV releases', () => {
  it('match the header by name: reordered columns, an extra and an absent field import like the parquet file', async () => {
    const names = MARKET_EVENT_FIELDS.map((field) => field.name).filter((name) => name !== 'oi_usd').reverse();
    const served = await variant({
      name: 'csv',
      csv: true,
      select: `SELECT 'a,"b"' AS note, ${names.join(', ')} FROM src`,
      schema: (document) => {
        const { oi_usd: _dropped, ...fields } = document.fields;
        return { ...document, fields: { ...fields, note: { type: 'string' } } };
      },
    });
    await withVariants([served], async (catalog, client) => {
      const result = await pullRelease(catalog, client, served.release.id);
      expect(result).toMatchObject({ format: 'csv', rows: base.release.rows, accepted: { absentFields: ['oi_usd'], extraFields: [{ field: 'note', type: 'string' }] } });
      expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, `(SELECT * REPLACE (NULL::DOUBLE AS oi_usd) FROM ${ORIGINAL()})`));
      expect(await count(catalog, `SELECT count(*) FROM market_event_extras WHERE (extra_fields->>'note') = 'a,"b"'`)).toBe(base.release.rows);
    });
  });
});

describe('a batch of files with different column types and sets', () => {
  it("imports each release with its own values in one transaction (no file is read with another file's types)", async () => {
    // First in the batch: price as BIGINT. Read in one scan with the others, their fractional prices would be
    // cast to BIGINT; grouped by column signature, each keeps its own.
    const variants = [
      await variant({ name: 'batch integer price', select: 'SELECT * REPLACE (CAST(round(price) AS BIGINT) AS price) FROM src' }),
      await variant({ name: 'batch original' }),
      await variant({ name: 'batch extras', select: 'SELECT *, 2.5 AS spread_bps FROM src', schema: (d) => ({ ...d, fields: { ...d.fields, spread_bps: { type: 'double' } } }) }),
      await variant({ name: 'batch absent', select: 'SELECT * EXCLUDE (oi_usd) FROM src', schema: null }),
      await variant({ name: 'batch original again' }),
    ];
    await withVariants(variants, async (catalog, client) => {
      const items = [];
      for (const served of variants) items.push((await prepareRelease(catalog, client, served.release.id)).item);
      expect(await importReleases(catalog, items)).toEqual([true, true, true, true, true]);
      const expected = [
        `(SELECT * REPLACE (CAST(price AS DOUBLE) AS price) FROM read_parquet('${variants[0]!.dataPath}'))`,
        ORIGINAL(),
        ORIGINAL(),
        `(SELECT * REPLACE (NULL::DOUBLE AS oi_usd) FROM ${ORIGINAL()})`,
        ORIGINAL(),
      ];
      for (const [i, served] of variants.entries()) {
        expect(await contentHash(catalog, `market_events WHERE release_id = '${served.release.id}'`), served.dataPath).toEqual(await contentHash(catalog, expected[i]!));
      }
      // The original's fractional prices survived the batch.
      expect(await count(catalog, `SELECT count(*) FROM market_events WHERE release_id = '${variants[1]!.release.id}' AND price <> round(price)`)).toBeGreaterThan(0);
      expect(await catalog.query(`SELECT DISTINCT release_id, extra_fields->>'spread_bps' AS v FROM market_event_extras`)).toEqual([{ release_id: variants[2]!.release.id, v: '2.5' }]);
    });
  });
});

describe('rdw pull', () => {
  it('prints one stderr line per kind of accepted difference and carries them in --json', async () => {
    const first = await variant({
      name: 'cli version words extras',
      version: 'mev-calc-7',
      select: `SELECT * REPLACE ('mev-calc-7' AS calculation_version), 'x' AS venue_note FROM src`,
      schema: (document) => ({ ...document, version: 'mev-calc-7', fields: { ...document.fields, price: { type: 'float64' }, venue_note: { type: 'utf8' } } }),
    });
    const second = await variant({
      name: 'cli widened absent',
      version: 'mev-calc-7',
      select: `SELECT * EXCLUDE (oi_usd) REPLACE ('mev-calc-7' AS calculation_version, CAST(price_time AS BIGINT) AS price_time) FROM src`,
      schema: null,
    });
    const server = await startReleaseVariantServer();
    server.add(first);
    server.add(second);
    try {
      const run = async (home: string, argv: string[]) => {
        let stdout = '';
        let stderr = '';
        const code = await runCli([...argv, '--home', home], {
          env: { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: VARIANT_SERVER_KEY },
          stdout: { write: (text) => void (stdout += text), isTTY: false },
          stderr: { write: (text) => void (stderr += text), isTTY: false },
          cwd: home,
        });
        return { code, stdout, stderr };
      };
      const ids = [first.release.id, second.release.id];
      await withTempHome(async (home) => {
        const plain = await run(home, ['pull', ...ids]);
        expect(plain.code).toBe(0);
        const lines = plain.stderr.split('\n').filter((line) => line.startsWith('rdw: '));
        const expected = [
          /^rdw: 2 releases are product version mev-calc-7, not mev-calc-4/,
          /^rdw: 1 release stores number fields in other numeric types \(price_time BIGINT\); imported as DOUBLE\.$/,
          /^rdw: 1 release carries fields beyond the spec \(venue_note VARCHAR\); kept per row as JSON in market_event_extras/,
          /^rdw: 1 release lacks the nullable fields oi_usd; imported as NULL/,
          /^rdw: The bundled schema of 1 release uses other type words \(float64 as number\)/,
        ];
        for (const pattern of expected) expect(lines.filter((line) => pattern.test(line)), String(pattern)).toHaveLength(1);
        expect(plain.stdout.trim().split('\n')).toHaveLength(2);
      });
      await withTempHome(async (home) => {
        const json = await run(home, ['pull', ...ids, '--json']);
        expect(json.code).toBe(0);
        const parsed = JSON.parse(json.stdout) as { pulled: PullResult[]; accepted: { kind: string; releases: string[] }[] };
        expect(parsed.accepted.map((notice) => [notice.kind, notice.releases])).toEqual([
          ['product_version', ids],
          ['widened', [second.release.id]],
          ['extra_fields', [first.release.id]],
          ['absent_fields', [second.release.id]],
          ['type_words', [first.release.id]],
        ]);
        expect(parsed.pulled.map((pulled) => pulled.accepted?.version)).toEqual(['mev-calc-7', 'mev-calc-7']);
        // A second pull finds both present: nothing new to report.
        const again = await run(home, ['pull', ...ids, '--json']);
        expect((JSON.parse(again.stdout) as { accepted: unknown[] }).accepted).toEqual([]);
      });
    } finally {
      await server.close();
    }
  });
});

describe('a catalog written before releases.accepted and market_event_extras', () => {
  it('is migrated on open: its releases and rows stay, accepted is NULL, and a new pull records extras', async () => {
    await withTempHome(async (home) => {
      // Schema version 1 only, holding one release's rows.
      const instance = await DuckDBInstance.create(path.join(home, 'catalog.duckdb'));
      const connection = await instance.connect();
      await runMigrations(connection, new Date(), MIGRATIONS.slice(0, 1));
      const old = 'o'.repeat(64);
      await connection.run(`INSERT INTO releases (id, dataset, version, day, generated_at, rows, manifest_sha256, imported_at, import_order)
        VALUES ('${old}', 'market-events-v1', 'mev-calc-4', DATE '${base.release.day}', 1, ${base.release.rows}, '${'0'.repeat(64)}', TIMESTAMP '2026-01-01 00:00:00', 1)`);
      await connection.run(`INSERT INTO market_events SELECT '${old}', DATE '${base.release.day}', * FROM ${ORIGINAL()}`);
      connection.closeSync();
      instance.closeSync();

      const catalog = await openCatalog(home);
      try {
        expect(await catalog.query('SELECT version::INTEGER AS v FROM schema_migrations ORDER BY 1')).toEqual(MIGRATIONS.map((m) => ({ v: m.version })));
        expect(await catalog.query('SELECT id, accepted FROM releases')).toEqual([{ id: old, accepted: null }]);
        expect(await contentHash(catalog, 'market_events')).toEqual(await contentHash(catalog, ORIGINAL()));
        expect(await count(catalog, 'SELECT count(*) FROM market_events_current')).toBe(base.release.rows);
      } finally {
        await catalog.close();
      }
      const served = await variant({ name: 'after migration', select: 'SELECT *, 1 AS lot FROM src', schema: null });
      const server = await startReleaseVariantServer();
      server.add(served);
      const reopened = await openCatalog(home);
      const client = createClient({ baseUrl: server.baseUrl, apiKey: VARIANT_SERVER_KEY, home, retry: { baseDelayMs: 1, jitterMs: 1, maxRetries: 0 } });
      try {
        await pullRelease(reopened, client, served.release.id);
        expect(await count(reopened, `SELECT count(*) FROM market_event_extras WHERE release_id = '${served.release.id}' AND (extra_fields->>'lot') = '1'`)).toBe(base.release.rows);
      } finally {
        await client.close();
        await reopened.close();
        await server.close();
      }
    });
  });
});
