// catalog.arrow: a typed Arrow table whose column types follow DuckDB's result types and whose values equal
// what plain SQL gives (catalog.query, DuckDB's own JSON conversion), over a real catalog file.

import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type, type Float64, type Int64, type Table, type Utf8 } from 'apache-arrow';
import { CatalogOptionError, MARKET_EVENTS_CURRENT_VIEW } from '../../src/catalog/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { REPO_ROOT } from '../support/jupyter.js';
import { syntheticDays } from '../support/synthetic-rows.js';

let fixture: FixtureCatalog;

beforeAll(async () => {
  const days = syntheticDays({ days: 3, seed: 5 });
  fixture = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
});

afterAll(async () => {
  await fixture?.close();
});

/** TypeScript a researcher writes; `$T` is where the column types go. Each value's type must be exact. */
const TYPED_USE = `import type { Bool, DateDay, Float64, Int64, Utf8 } from 'apache-arrow';
import type { Catalog } from 'rdw';
type Exactly<A, B> = (<G>() => G extends A ? 1 : 2) extends (<G>() => G extends B ? 1 : 2) ? true : false;
export async function use(catalog: Catalog) {
  const table = await catalog.arrow$T('SELECT 1');
  const symbol = table.getChild('symbol')!.get(0);
  const n = table.getChild('n')!.get(0);
  const mean = table.getChild('mean')!.get(0);
  const day = table.getChild('day')!.get(0);
  const flag = table.getChild('flag')!.get(0);
  const exact: [
    Exactly<typeof symbol, string | null>, Exactly<typeof n, bigint | null>, Exactly<typeof mean, number | null>,
    Exactly<typeof day, number | null>, Exactly<typeof flag, boolean | null>,
  ] = [true, true, true, true, true];
  // @ts-expect-error a Utf8 value is no number (were it never or any, this line would compile)
  const wrong: number = symbol!;
  return [exact, wrong];
}`;

/** Type errors of `source` compiled as a module of this checkout (imports 'rdw' → dist/index.d.ts), as "TS<code> text". */
function typeErrors(source: string): string[] {
  const file = path.join(REPO_ROOT, 'test', 'catalog', 'typed-use.ts');
  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, types: ['node'], paths: { rdw: ['./dist/index.d.ts'] }, baseUrl: REPO_ROOT,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.fileExists = (name) => name === file || fileExists(name);
  host.getSourceFile = (name, version, ...rest) => (name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

/** Arrow type id and text of every column, by name. */
const typesOf = (table: Table) => Object.fromEntries(table.schema.fields.map((f) => [f.name, `${Type[f.typeId]} ${String(f.type)}`]));

describe('catalog.arrow on Market Events rows', () => {
  const sql = `SELECT symbol, day, price, feature_pit_eligible, funding_hourly_pct,
      to_timestamp(sample_time)::TIMESTAMP AS sampled, CAST(extract(hour FROM to_timestamp(sample_time)) AS INTEGER) AS hour
    FROM ${MARKET_EVENTS_CURRENT_VIEW} ORDER BY row_id`;

  it('types each column from DuckDB and holds the same values as plain SQL', async () => {
    const table = await fixture.catalog.arrow(sql);
    const rows = await fixture.catalog.query(sql);
    expect(rows.length).toBeGreaterThan(100);
    expect(table.numRows).toBe(rows.length);
    expect(typesOf(table)).toEqual({
      symbol: 'Utf8 Utf8',
      day: 'Date Date32<DAY>',
      price: 'Float Float64',
      feature_pit_eligible: 'Bool Bool',
      funding_hourly_pct: 'Float Float64',
      sampled: 'Timestamp Timestamp<MICROSECOND, UTC>',
      hour: 'Int Int32',
    });
    const nulls = rows.filter((row) => row.funding_hourly_pct === null).length;
    expect(table.getChild('funding_hourly_pct')!.nullCount).toBe(nulls);
    rows.forEach((row, i) => {
      const arrow = table.get(i)!.toJSON();
      expect(arrow.symbol).toBe(row.symbol);
      expect(new Date(arrow.day as number).toISOString().slice(0, 10)).toBe(row.day);
      expect(arrow.price).toBe(row.price);
      expect(arrow.feature_pit_eligible).toBe(row.feature_pit_eligible);
      expect(arrow.funding_hourly_pct).toBe(row.funding_hourly_pct);
      // DuckDB's JSON shows a TIMESTAMP as "YYYY-MM-DD HH:MM:SS[.ffffff]"; Arrow gives epoch ms (with µs as a fraction).
      expect(new Date(arrow.sampled as number).toISOString().replace('T', ' ').replace(/(\.000)?Z$/, '')).toBe(
        String(row.sampled).replace(/(\.\d{3})\d*$/, '$1'),
      );
      expect(arrow.hour).toBe(row.hour);
    });
  });

  it('keeps BIGINT counts as Int64 (bigint values) and a sum() of BIGINT (HUGEINT) as Int64', async () => {
    const table = await fixture.catalog.arrow<{ symbol: Utf8; n: Int64; total: Int64 }>(
      `SELECT symbol, count(*) AS n, sum(CAST(price AS BIGINT)) AS total FROM ${MARKET_EVENTS_CURRENT_VIEW} GROUP BY symbol ORDER BY symbol`,
    );
    const rows = await fixture.catalog.query(
      `SELECT symbol, count(*)::VARCHAR AS n, sum(CAST(price AS BIGINT))::VARCHAR AS total FROM ${MARKET_EVENTS_CURRENT_VIEW} GROUP BY symbol ORDER BY symbol`,
    );
    expect(typesOf(table)).toEqual({ symbol: 'Utf8 Utf8', n: 'Int Int64', total: 'Int Int64' });
    expect(table.toArray().map((r) => [r.symbol, String(r.n), String(r.total)])).toEqual(rows.map((r) => [r.symbol, r.n, r.total]));
    expect(typeof table.getChild('n')!.get(0)).toBe('bigint');
  });

  it('types the columns for TypeScript through the generic (compiled here, against the built declarations)', () => {
    const generic = '<{ symbol: Utf8; n: Int64; mean: Float64; day: DateDay; flag: Bool }>';
    expect(typeErrors(TYPED_USE.replace('$T', generic))).toEqual([]);
    // Without the generic the columns are untyped: the same code no longer compiles (the check can fail).
    const untyped = typeErrors(TYPED_USE.replace('$T', ''));
    expect(untyped.length).toBeGreaterThanOrEqual(5);
    expect(untyped.every((text) => /^TS(2322|2578)/.test(text))).toBe(true);
  });
});

describe('catalog.arrow on literal SQL', () => {
  it('maps every documented DuckDB type, keeps NULLs as nulls and µs in timestamps', async () => {
    const table = await fixture.catalog.arrow(`
      SELECT * FROM (VALUES
        (1.5::DOUBLE, 7::BIGINT, 3::INTEGER, true, 'a', DATE '2026-10-31', TIMESTAMP '2026-10-31 12:34:56.123456',
         TIMESTAMPTZ '2026-10-31 12:00:00+00', 2.25::DECIMAL(9,2), 1.5::FLOAT, 2::SMALLINT, 3::TINYINT, 4::UBIGINT, NULL),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)
      ) AS t(d, b, i, flag, s, day, ts, tz, dec, f, sm, ti, ub, nothing)`);
    expect(typesOf(table)).toEqual({
      d: 'Float Float64',
      b: 'Int Int64',
      i: 'Int Int32',
      flag: 'Bool Bool',
      s: 'Utf8 Utf8',
      day: 'Date Date32<DAY>',
      ts: 'Timestamp Timestamp<MICROSECOND, UTC>',
      tz: 'Timestamp Timestamp<MICROSECOND, UTC>',
      dec: 'Float Float64',
      f: 'Float Float32',
      sm: 'Int Int16',
      ti: 'Int Int8',
      ub: 'Int Uint64',
      nothing: 'Int Int32', // DuckDB types an all-NULL VALUES column as INTEGER
    });
    expect(table.get(0)!.toJSON()).toEqual({
      d: 1.5, b: 7n, i: 3, flag: true, s: 'a', day: Date.UTC(2026, 9, 31), ts: Date.UTC(2026, 9, 31, 12, 34, 56, 123) + 0.456,
      tz: Date.UTC(2026, 9, 31, 12), dec: 2.25, f: 1.5, sm: 2, ti: 3, ub: 4n, nothing: null,
    });
    expect(table.getChild('ts')!.data[0]!.values[0]).toBe(BigInt(Date.UTC(2026, 9, 31, 12, 34, 56)) * 1000n + 123_456n);
    expect(Object.values(table.get(1)!.toJSON())).toEqual(Array(14).fill(null));
    // A float column holds NaN under a null, so a plain `toArray()` never reads a null as 0.
    expect(Array.from(table.getChild('d')!.toArray() as Float64Array)).toEqual([1.5, Number.NaN]);
  });

  it('keeps the column types of an empty result', async () => {
    const table = await fixture.catalog.arrow<{ price: Float64; day: Utf8 }>(
      `SELECT price, day FROM ${MARKET_EVENTS_CURRENT_VIEW} WHERE false`,
    );
    expect(table.numRows).toBe(0);
    expect(typesOf(table)).toEqual({ price: 'Float Float64', day: 'Date Date32<DAY>' });
  });

  it('takes named parameters like query', async () => {
    const table = await fixture.catalog.arrow('SELECT $x::INTEGER + 1 AS y', { x: 41 });
    expect(table.getChild('y')!.get(0)).toBe(42);
  });

  it('refuses a type it does not convert, and a HUGEINT beyond Int64, naming the column (exit 2)', async () => {
    const list = await fixture.catalog.arrow('SELECT [1, 2] AS pair').catch((error: unknown) => error);
    expect(list).toBeInstanceOf(CatalogOptionError);
    expect(list).toMatchObject({ code: 'RDW_CATALOG_OPTION', exitCode: 2 });
    expect((list as Error).message).toBe(
      'Column "pair" has DuckDB type INTEGER[], which catalog.arrow does not turn into an Arrow column; CAST it in the SQL (e.g. to VARCHAR or DOUBLE).',
    );
    const huge = await fixture.catalog.arrow('SELECT 170141183460469231731687303715884105727::HUGEINT AS big').catch((error: unknown) => error);
    expect(huge).toBeInstanceOf(CatalogOptionError);
    expect((huge as Error).message).toMatch(/^Column "big" holds a HUGEINT beyond/);
    // The catalog stays usable after a refusal.
    expect((await fixture.catalog.arrow('SELECT 1::HUGEINT AS one')).getChild('one')!.get(0)).toBe(1n);
  });
});
