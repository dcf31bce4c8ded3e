// Issue 31 items 7-9: releases as other producers write them, served over 127.0.0.1 by a server that shares
// no code with src/mock (test/catalog/release-variant-server.ts), pulled with the built CLI (`npm run build`
// first), the catalog read back with plain DuckDB.
// - CSV bytes as CPython's csv.writer writes them (CRLF line ends, quoted fields with line breaks LF and CRLF
//   inside, doubled quotes, commas, True/False), also with a UTF-8 BOM (`encoding='utf-8-sig'`) and with LF
//   line ends; made by test/support/dialect-release.ts and compared byte for byte with python3's own
//   csv.writer output when python3 is installed.
// - Parquet whose all-null columns are of Parquet's Null logical type, as pyarrow writes an all-None column:
//   the bytes are written by parquet-wasm from an Arrow table with Null-typed columns (no pyarrow here); the
//   test checks with DuckDB's parquet_schema() that those columns are INT32 with logical type Null.
// - A manifest whose optional entries are null (`files.schema: null` on an old release, ...).

import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';
import type { Release } from '../../src/contract/index.js';
import { startReleaseVariantServer, VARIANT_SERVER_KEY, type ReleaseVariantServer, type ServedFiles } from '../catalog/release-variant-server.js';
import {
  parquetWithNullColumns,
  pythonCsvBytes,
  releaseIdOf,
  releaseObject,
  releaseRows,
  schemaBytes,
  type PythonCsvOptions,
  type SpecRow,
} from '../support/dialect-release.js';
import { queryCatalog } from '../support/query-catalog.js';
import { runBuiltCli, type BuiltCliRun } from '../support/run-built-cli.js';
import { CONTRACT_FIELDS } from '../support/spec-server/index.js';
import { withTempHome } from '../support/temp-home.js';

const COLUMNS = CONTRACT_FIELDS.map((field) => field.name);

/** Rows with text a csv must quote: line breaks (LF, CRLF), doubled quotes, commas, in two free-text fields. */
function awkwardRows(day: string): SpecRow[] {
  return releaseRows(day).map((row, index) => ({
    ...row,
    venue: ['spot-exchange', 'spot\nexchange', 'spot "main" exchange', 'spot, exchange\r\nline two'][index % 4]!,
    derivative_venue: row.derivative_venue === null ? null : ['derivatives\r\nvenue', 'a "quoted"\nvenue, too', 'derivatives-venue'][index % 3]!,
  }));
}

interface Published {
  id: string;
  rows: SpecRow[];
}

let server: ReleaseVariantServer;

/** Serves a release of `rows` on `day` with `files`; `edit` changes its manifest object. */
function publish(label: string, day: string, rows: SpecRow[], files: ServedFiles, edit: (release: Record<string, unknown>) => void = () => {}): Published {
  const id = releaseIdOf(label);
  const release = releaseObject(id, day, rows, files as Record<string, Buffer>);
  edit(release);
  server.add({ release: release as unknown as Release, files });
  return { id, rows };
}

const csvRelease = (label: string, day: string, options: PythonCsvOptions): Published => {
  const rows = awkwardRows(day);
  return publish(label, day, rows, { csv: pythonCsvBytes(rows, COLUMNS, options), schema: schemaBytes() });
};

beforeAll(async () => {
  server = await startReleaseVariantServer();
});

afterAll(async () => {
  await server?.close();
});

async function rdw(home: string, argv: string[]): Promise<BuiltCliRun> {
  return runBuiltCli([...argv, '--home', home], { env: { RDW_BASE_URL: server.baseUrl, RDW_API_KEY: VARIANT_SERVER_KEY }, cwd: home, timeoutMs: 60_000 });
}

const shown = (run: BuiltCliRun) => `exit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`;

/** Every spec field of every row in the catalog equals the row published (by row_id; null stays null). */
async function expectRowsImported(home: string, published: Published): Promise<void> {
  const stored = (await queryCatalog(home, 'SELECT * FROM market_events WHERE release_id = $id', { id: published.id })) ?? [];
  expect(stored.length).toBe(published.rows.length);
  const byRowId = new Map(stored.map((row) => [String(row.row_id), row]));
  const differences: string[] = [];
  for (const row of published.rows) {
    const mine = byRowId.get(String(row.row_id));
    for (const name of COLUMNS) {
      const actual = mine?.[name] ?? null;
      if ((typeof actual === 'bigint' ? Number(actual) : actual) !== row[name]) differences.push(`${String(row.row_id).slice(0, 8)}.${name}: ${JSON.stringify(actual)} != ${JSON.stringify(row[name])}`);
    }
  }
  expect(differences.slice(0, 5)).toEqual([]);
}

describe('csv of the dialects Python and pandas write', () => {
  it("writes the same bytes as python3's csv.writer (when python3 is installed)", async (context) => {
    const python = spawnSync('python3', ['--version']);
    // python3 comes with Jupyter, which .ci/run installs: under CI=true its absence fails, never skips.
    if (python.status !== 0 && process.env.CI === 'true') throw new Error('python3 is missing: install the Debian package python3 (.ci/run installs it with Jupyter).');
    if (python.status !== 0) context.skip();
    const dir = await makeTemporaryFolder('rdw-python-csv-');
    try {
      const rows = awkwardRows('2026-10-01');
      await writeFile(path.join(dir, 'rows.json'), JSON.stringify({ columns: COLUMNS, rows }));
      const script = [
        'import csv, json, sys',
        'data = json.load(open(sys.argv[1]))',
        "for name, kw, enc in [('crlf', {}, 'utf-8'), ('bom', {}, 'utf-8-sig'), ('lf', {'lineterminator': '\\n'}, 'utf-8'),",
        "                      ('all', {'quoting': csv.QUOTE_ALL}, 'utf-8'), ('nonnumeric', {'quoting': csv.QUOTE_NONNUMERIC}, 'utf-8')]:",
        "    with open(sys.argv[2] + '/' + name + '.csv', 'w', newline='', encoding=enc) as f:",
        '        w = csv.writer(f, **kw)',
        "        w.writerow(data['columns'])",
        "        for row in data['rows']: w.writerow([row[c] for c in data['columns']])",
      ].join('\n');
      const run = spawnSync('python3', ['-c', script, path.join(dir, 'rows.json'), dir], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      expect(await readFile(path.join(dir, 'crlf.csv'))).toEqual(pythonCsvBytes(rows, COLUMNS));
      expect(await readFile(path.join(dir, 'bom.csv'))).toEqual(pythonCsvBytes(rows, COLUMNS, { bom: true }));
      expect(await readFile(path.join(dir, 'lf.csv'))).toEqual(pythonCsvBytes(rows, COLUMNS, { lineTerminator: '\n' }));
      expect(await readFile(path.join(dir, 'all.csv'))).toEqual(pythonCsvBytes(rows, COLUMNS, { quoting: 'all' }));
      expect(await readFile(path.join(dir, 'nonnumeric.csv'))).toEqual(pythonCsvBytes(rows, COLUMNS, { quoting: 'nonnumeric' }));
    } finally {
      await removeTree(dir);
    }
  });

  it('imports CRLF + quoted line breaks, the same with a BOM, and LF line ends: every value equal to the rows written', async () => {
    const crlf = csvRelease('csv-crlf', '2026-10-01', {});
    const bom = csvRelease('csv-bom', '2026-10-02', { bom: true });
    const lf = csvRelease('csv-lf', '2026-10-03', { lineTerminator: '\n' });
    await withTempHome(async (home) => {
      const run = await rdw(home, ['pull', crlf.id, bom.id, lf.id]);
      expect(run.code, shown(run)).toBe(0);
      expect(run.stderr, shown(run)).not.toMatch(/state machine|CSV Error/);
      for (const published of [crlf, bom, lf]) await expectRowsImported(home, published);
      // The quoted line breaks arrived as written (an independent look at two values).
      const venues = (await queryCatalog(home, 'SELECT DISTINCT venue FROM market_events ORDER BY venue')) ?? [];
      expect(venues.map((row) => row.venue)).toEqual(['spot\nexchange', 'spot "main" exchange', 'spot, exchange\r\nline two', 'spot-exchange'].sort());
      const formats = (await queryCatalog(home, "SELECT count(*)::INTEGER AS n FROM release_files WHERE format = 'csv'")) ?? [];
      expect(formats[0]?.n).toBe(3);
    });
  }, 90_000);

  it('imports QUOTE_ALL and QUOTE_NONNUMERIC files, whose "" is a missing value (numbers and text), every value equal', async () => {
    const all = csvRelease('csv-quote-all', '2026-10-05', { quoting: 'all' });
    const nonnumeric = csvRelease('csv-quote-nonnumeric', '2026-10-06', { quoting: 'nonnumeric' });
    // The rows hold a missing number, written "" (without one the case would test nothing).
    const numbers = new Set(CONTRACT_FIELDS.filter((field) => field.type === 'number').map((field) => field.name));
    expect(all.rows.some((row) => COLUMNS.some((name) => numbers.has(name) && row[name] === null))).toBe(true);
    expect(pythonCsvBytes(all.rows, COLUMNS, { quoting: 'all' }).toString('utf8')).toMatch(/,"",/);
    await withTempHome(async (home) => {
      const run = await rdw(home, ['pull', all.id, nonnumeric.id]);
      expect(run.code, shown(run)).toBe(0);
      for (const published of [all, nonnumeric]) await expectRowsImported(home, published);
    });
  }, 90_000);

  it('imports CR-only line ends too (lineterminator=\'\\r\', not RFC 4180), a quoted CRLF in the first row', async () => {
    const rows = awkwardRows('2026-10-04').map((row, index) => (index === 0 ? { ...row, venue: 'spot\r\nexchange' } : row));
    const published = publish('csv-cr', '2026-10-04', rows, { csv: pythonCsvBytes(rows, COLUMNS, { lineTerminator: '\r' }), schema: schemaBytes() });
    await withTempHome(async (home) => {
      const run = await rdw(home, ['pull', published.id]);
      expect(run.code, shown(run)).toBe(0);
      await expectRowsImported(home, published);
    });
  }, 60_000);
});

describe("parquet columns of Parquet's Null type", () => {
  const NULL_COLUMNS = ['derivative_venue', 'funding_hourly_pct'];

  /** Rows whose NULL_COLUMNS are all null, as a release without any derivatives observation that day. */
  const nullRows = (day: string) => releaseRows(day).map((row) => ({ ...row, ...Object.fromEntries(NULL_COLUMNS.map((name) => [name, null])) }));

  it('is what pyarrow writes: INT32 with the logical type Null (parquet_schema), which DuckDB describes as INTEGER', async () => {
    const dir = await makeTemporaryFolder('rdw-null-parquet-');
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const file = path.join(dir, 'null.parquet');
      await writeFile(file, parquetWithNullColumns(nullRows('2026-10-05'), NULL_COLUMNS));
      const connection = await instance.connect();
      const schema = (await connection.runAndReadAll(`SELECT name, type, logical_type FROM parquet_schema('${file}') WHERE name IN ('derivative_venue', 'funding_hourly_pct', 'venue') ORDER BY name`)).getRowObjectsJS();
      expect(schema).toEqual([
        { name: 'derivative_venue', type: 'INT32', logical_type: 'NullType()' },
        { name: 'funding_hourly_pct', type: 'INT32', logical_type: 'NullType()' },
        { name: 'venue', type: 'BYTE_ARRAY', logical_type: 'StringType()' },
      ]);
      const described = (await connection.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${file}')) WHERE column_name = 'derivative_venue'`)).getRowObjectsJS();
      expect(described).toEqual([{ column_name: 'derivative_venue', column_type: 'INTEGER' }]);
      connection.closeSync();
    } finally {
      instance.closeSync();
      await removeTree(dir);
    }
  });

  it('imports Null-typed nullable fields (a string and a number) as NULL, reports them once, every other value equal', async () => {
    const rows = nullRows('2026-10-05');
    const published = publish('parquet-null', '2026-10-05', rows, { parquet: Buffer.from(parquetWithNullColumns(rows, NULL_COLUMNS)), schema: schemaBytes() });
    await withTempHome(async (home) => {
      const run = await rdw(home, ['pull', published.id]);
      expect(run.code, shown(run)).toBe(0);
      expect(run.stderr).toMatch(/stores the nullable fields derivative_venue, funding_hourly_pct as Parquet's Null type \(no values\); imported as NULL/);
      await expectRowsImported(home, published);
      const nulls = (await queryCatalog(home, 'SELECT count(derivative_venue)::INTEGER AS venues, count(funding_hourly_pct)::INTEGER AS funding, count(*)::INTEGER AS n FROM market_events')) ?? [];
      expect(nulls).toEqual([{ venues: 0, funding: 0, n: rows.length }]);
      const accepted = (await queryCatalog(home, 'SELECT accepted::VARCHAR AS accepted FROM releases')) ?? [];
      expect(JSON.parse(String(accepted[0]?.accepted))).toEqual({ nullTypedFields: NULL_COLUMNS });
    });
  }, 60_000);

  it('refuses a Null-typed field the spec says is never null (feature_pit_eligible): exit 3 naming it, nothing imported', async () => {
    const rows = releaseRows('2026-10-06').map((row) => ({ ...row, feature_pit_eligible: null }));
    const published = publish('parquet-null-never', '2026-10-06', rows, { parquet: Buffer.from(parquetWithNullColumns(rows, ['feature_pit_eligible'])) });
    await withTempHome(async (home) => {
      const run = await rdw(home, ['pull', published.id]);
      expect(run.code, shown(run)).toBe(3);
      expect(run.stderr).toMatch(/feature_pit_eligible is of Parquet's Null type \(no values\), and it is never null/);
      expect((await queryCatalog(home, 'SELECT count(*)::INTEGER AS n FROM releases'))?.[0]?.n).toBe(0);
    });
  }, 60_000);
});

describe('a manifest whose optional entries are null', () => {
  it('imports an old release with files.schema: null (and null json entry, coverage part, sample_time range, limitations) like the absent ones', async () => {
    const day = '2026-10-07';
    const rows = releaseRows(day);
    const parquet = Buffer.from(parquetWithNullColumns(rows, []));
    const withNulls = publish('manifest-nulls', day, rows, { parquet }, (release) => {
      (release.files as Record<string, unknown>).schema = null;
      (release.files as Record<string, unknown>).json = null;
      (release.coverage as Record<string, unknown>).samples = null;
      release.min_sample_time = null;
      release.limitations = null;
    });
    const absent = publish('manifest-absent', '2026-10-08', releaseRows('2026-10-08'), { parquet: Buffer.from(parquetWithNullColumns(releaseRows('2026-10-08'), [])) }, (release) => {
      delete (release.coverage as Record<string, unknown>).samples;
      delete release.min_sample_time;
      delete release.limitations;
    });
    await withTempHome(async (home) => {
      const listing = await rdw(home, ['releases']);
      expect(listing.code, shown(listing)).toBe(0);
      const run = await rdw(home, ['pull', withNulls.id, absent.id]);
      expect(run.code, shown(run)).toBe(0);
      await expectRowsImported(home, withNulls);
      await expectRowsImported(home, absent);
      const recorded = (await queryCatalog(home, 'SELECT id, schema_sha256, min_sample_time, limitations::VARCHAR AS limitations, (coverage->>\'samples\') AS samples FROM releases ORDER BY day')) ?? [];
      expect(recorded.map(({ id: _, ...rest }) => rest)).toEqual([
        { schema_sha256: null, min_sample_time: null, limitations: '[]', samples: null },
        { schema_sha256: null, min_sample_time: null, limitations: '[]', samples: null },
      ]);
      const files = (await queryCatalog(home, 'SELECT format FROM release_files ORDER BY release_id, format')) ?? [];
      expect(files.map((row) => row.format)).toEqual(['manifest', 'parquet', 'manifest', 'parquet']);
    });
  }, 60_000);
});
