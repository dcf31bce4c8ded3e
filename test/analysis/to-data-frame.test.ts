// toDataFrame over catalog.arrow's typed table: the frame holds what plain SQL gives (numbers, nulls, days,
// times), and a process without danfojs gets one sentence naming the package (the load stays lazy).

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisMessages, toDataFrame } from '../../src/analysis/index.js';
import { openCatalog, type Catalog } from '../../src/catalog/index.js';
import { createTempHome } from '../support/temp-home.js';
import { REPO_ROOT } from '../support/jupyter.js';

const run = promisify(execFile);
let temp: Awaited<ReturnType<typeof createTempHome>>;
let catalog: Catalog;

beforeAll(async () => {
  temp = await createTempHome();
  catalog = await openCatalog(temp.home);
});

afterAll(async () => {
  await catalog?.close();
  await temp?.remove();
});

const SQL = `SELECT * FROM (VALUES
    ('BTCUSDT', 3::BIGINT, 1.25::DOUBLE, true, DATE '2026-10-31', TIMESTAMP '2026-10-31 12:00:00.5'),
    ('ETHUSDT', NULL, NULL, NULL, NULL, NULL),
    ('SOLUSDT', 9007199254740993::BIGINT, -0.5::DOUBLE, false, DATE '2026-11-01', TIMESTAMP '2026-11-01 00:00:00')
  ) AS t(symbol, n, mean, flag, day, seen_at)`;

describe('toDataFrame(catalog.arrow(sql))', () => {
  it('holds the values and nulls plain SQL gives, in the query column order', async () => {
    const frame = await toDataFrame(await catalog.arrow(SQL));
    const rows = await catalog.query(`SELECT symbol, n::DOUBLE AS n, mean, flag, day::VARCHAR AS day, strftime(seen_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS seen_at FROM (${SQL})`);
    expect(frame.shape).toEqual([3, 6]);
    expect(frame.columns).toEqual(['symbol', 'n', 'mean', 'flag', 'day', 'seen_at']);
    expect(frame.values).toEqual(rows.map((row) => Object.values(row)));
    // Int64 beyond 2^53 becomes the nearest double, as SQL's own ::DOUBLE does (documented).
    expect(frame.values[2]![1]).toBe(9007199254740992);
    expect(frame.values[1]).toEqual(['ETHUSDT', null, null, null, null, null]);
  });

  it('gives an empty frame with the columns for no rows', async () => {
    const frame = await toDataFrame(await catalog.arrow(`SELECT * FROM (${SQL}) WHERE false`));
    expect(frame.shape).toEqual([0, 6]);
    expect(frame.columns).toEqual(['symbol', 'n', 'mean', 'flag', 'day', 'seen_at']);
  });
});

describe('toDataFrame without danfojs', () => {
  it('says which package is missing, in one sentence (exit 1 family), and imports nothing before the call', async () => {
    // A resolve hook that makes `danfojs` unfindable, as in an install without it.
    const hook = `export async function resolve(spec, context, next) {
      if (spec === 'danfojs') { const e = new Error("Cannot find package 'danfojs' imported from x"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }
      return next(spec, context);
    }`;
    const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));`;
    const script = `
      const { toDataFrame } = await import(${JSON.stringify(path.join(REPO_ROOT, 'dist/index.js'))});
      try { await toDataFrame({ rows: [], table: { schema: { fields: [] } } }); console.log('no error'); }
      catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, exitCode: error.exitCode, packageName: error.packageName, message: error.message })); }`;
    const { stdout } = await run(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({
      name: 'OptionalPackageMissingError',
      code: 'RDW_OPTIONAL_PACKAGE_MISSING',
      exitCode: 1,
      packageName: 'danfojs',
      message: analysisMessages.danfojsMissing(),
    });
  });
});
