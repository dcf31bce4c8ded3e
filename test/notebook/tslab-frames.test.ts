// Typed frames in a real tslab kernel: a throwaway notebook imports rdw by package name and danfojs's types
// with a plain static import, reads `wb.catalog.arrow<…>(sql)` (column types checked by the compiler: a cell
// fails if they were never/any) and `toDataFrame`, and prints what plain SQL gives; a danfojs group-by annotated
// `DataFrame` runs (the bare one fails: "cannot be named"); `query<T>` and `readMarketEventRows` give typed rows. The same notebook under
// plain `tslab` (no launcher) fails with "Cannot find module 'danfojs'": the launcher is what fixes it.

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKET_EVENTS_CURRENT_VIEW } from '../../src/catalog/index.js';
import { MARKET_EVENT_FIELD_NAMES } from '../../src/contract/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { JUPYTER_PACKAGES, REPO_ROOT, executeNotebook, findJupyterPython, installTslabKernel } from '../support/jupyter.js';
import { cellErrors, printedText, readNotebook } from '../support/notebook-outputs.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const run = promisify(execFile);
const python = await findJupyterPython();
const required = process.env.CI === 'true' || process.env.RDW_REQUIRE_JUPYTER === '1';
const SQL = `SELECT symbol, count(*) AS n, avg(price) AS mean_price FROM ${MARKET_EVENTS_CURRENT_VIEW} GROUP BY symbol ORDER BY symbol`;

/** The notebook's code cells, by id: what a researcher would write. */
const CELLS: Record<string, string> = {
  setup: `import { openWorkbench, toDataFrame, type DataFrameLike } from 'rdw';
import type { DataFrame } from 'danfojs';
import type { Float64, Int64, Utf8 } from 'apache-arrow';
/** true only when A and B are the same type (any and never are not number). */
type Exactly<A, B> = (<G>() => G extends A ? 1 : 2) extends (<G>() => G extends B ? 1 : 2) ? true : false;
const wb = await openWorkbench({ env: process.env, readOnly: true });`,
  typed: `const table = await wb.catalog.arrow<{ symbol: Utf8; n: Int64; mean_price: Float64 }>(${JSON.stringify(SQL)});
const symbol = table.getChild('symbol')!.get(0);
const n = table.getChild('n')!.get(0);
const mean = table.getChild('mean_price')!.get(0);
const exact: [Exactly<typeof symbol, string | null>, Exactly<typeof n, bigint | null>, Exactly<typeof mean, number | null>] = [true, true, true];
const first: string = symbol!;
const price: number = mean!;
// @ts-expect-error a Utf8 column's value is no number (unused, i.e. an error, were it never or any)
const wrong: number = symbol!;
console.log(JSON.stringify({ types: table.schema.fields.map((f) => \`\${f.name} \${f.type}\`), rows: table.numRows, first, n: String(n), price }));`,
  frame: `// toDataFrame is typed DataFrameLike (no .d.ts of rdw names danfojs, issue 19); the value is a whole DataFrame.
const frameExact: Exactly<Awaited<ReturnType<typeof toDataFrame>>, DataFrameLike> = true;
const fits: DataFrameLike = {} as DataFrame;
const frame = (await toDataFrame(table)) as DataFrame;
console.log(JSON.stringify({ shape: frame.shape, columns: frame.columns, values: frame.values }));`,
  // danfojs's agg returns its internal base DataFrame, a type no cell can name: without an annotation tslab
  // (which emits declarations) refuses the cell; annotated with danfojs's exported DataFrame (or rdw's DataFrameLike) it compiles.
  grouped: `const grouped: DataFrame = frame.groupby(['symbol']).agg({ mean_price: 'mean', n: 'sum' });
const like: DataFrameLike = frame.groupby(['symbol']).agg({ n: 'sum' }); // rdw's frame type names it too
console.log(JSON.stringify({ columns: grouped.columns, values: grouped.values }));`,
  // Plain rows typed by the caller (query<T>) and the catalog's Market Events rows typed from the contract.
  rows: `import { readMarketEventRows } from 'rdw';
const counts = await wb.catalog.query<{ symbol: string; n: number }>(${JSON.stringify(SQL.replace('count(*) AS n', 'count(*)::INTEGER AS n').replace(', avg(price) AS mean_price', ''))});
const countsExact: Exactly<typeof counts, { symbol: string; n: number }[]> = true;
const events = await readMarketEventRows(wb.catalog, { limit: 2 });
const eventPrice: number | null = events[0]!.price;
// @ts-expect-error no such column in the contract
void events[0]!.volume;
console.log(JSON.stringify({ counts, keys: Object.keys(events[0]!).length, rows: events.length }));`,
  close: 'await wb.close();',
  // Last: after a failed cell tslab runs no further cell (it aborts the queue).
  inferred: `const inferred = frame.groupby(['symbol']).agg({ mean_price: 'mean' });`,
};

/** A folder holding the notebook and a node_modules that links rdw (this checkout), danfojs and apache-arrow. */
async function throwawayNotebook(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rdw-tslab-frames-'));
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(REPO_ROOT, path.join(dir, 'node_modules', 'rdw'));
  for (const name of ['danfojs', 'apache-arrow']) await symlink(path.join(REPO_ROOT, 'node_modules', name), path.join(dir, 'node_modules', name));
  const cells = Object.entries(CELLS).map(([id, source]) => ({ cell_type: 'code', id, metadata: {}, execution_count: null, outputs: [], source }));
  const metadata = { kernelspec: { name: 'tslab', display_name: 'TypeScript', language: 'typescript' } };
  const file = path.join(dir, 'frames.ipynb');
  await writeFile(file, JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata, cells }, null, 1));
  return file;
}

/** Plain `tslab install` (tslab's own kernel, without the launcher) under a fresh prefix; the JUPYTER_PATH. */
async function installPlainTslab(): Promise<string> {
  const prefix = await mkdtemp(path.join(os.tmpdir(), 'rdw-plain-tslab-'));
  const tslab = path.join(REPO_ROOT, 'node_modules', '.bin', 'tslab');
  await run(tslab, ['install', `--python=${python!}`, `--binary=${tslab}`, `--prefix=${prefix}`]);
  return path.join(prefix, 'share', 'jupyter');
}

describe('typed frames in tslab', () => {
  it('finds Jupyter, or is allowed to go without it outside CI', () => {
    if (!python && required) throw new Error(`Jupyter is missing: install the Debian packages ${JUPYTER_PACKAGES} (apt-get update first).`);
    expect(Object.keys(CELLS)).toEqual(['setup', 'typed', 'frame', 'grouped', 'rows', 'close', 'inferred']);
  });

  describe.runIf(python !== undefined)('a throwaway notebook', () => {
    let fixture: FixtureCatalog;
    let notebook = '';
    let env: Record<string, string | undefined> = {};
    let expected: { symbol: string; n: string; mean_price: number }[] = [];

    beforeAll(async () => {
      fixture = await buildFixtureCatalog(syntheticDays({ days: 2, seed: 11 }).map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
      // Plain SQL, independently of Arrow: counts as text, means as DuckDB's doubles.
      expected = (await fixture.catalog.query(SQL.replace('count(*) AS n', 'count(*)::VARCHAR AS n'))) as typeof expected;
      await fixture.detach();
      notebook = await throwawayNotebook();
      env = { ...process.env, RDW_HOME: fixture.dir, RDW_BASE_URL: undefined, RDW_SITE_URL: undefined, RDW_API_KEY: undefined };
    }, 60_000);

    afterAll(async () => {
      await fixture?.close();
    });

    it('under the kernel rdw kernel install registers: typed columns, a typed DataFrame, the SQL values', async () => {
      const kernel = await installTslabKernel(python!);
      const outputDir = await mkdtemp(path.join(os.tmpdir(), 'rdw-tslab-frames-out-'));
      const executed = await readNotebook(
        await executeNotebook(python!, notebook, { jupyterPath: kernel.dataDir, outputDir, env, allowErrors: true }).finally(() => kernel.dispose()),
      );
      expect(cellErrors(executed)).toEqual([]);
      const printed = Object.fromEntries(printedText(executed).map((cell) => [cell.id, cell.text]));
      expect(printed.setup).toBe('');
      expect(expected.length).toBeGreaterThan(1);
      // tslab prints a cell's compile or run error as text: a cell that failed shows it here.
      expect(printed.typed, printed.typed).toMatch(/^\{.*\}\n$/);
      expect(printed.frame, printed.frame).toMatch(/^\{.*\}\n$/);
      expect(JSON.parse(printed.typed!)).toEqual({
        types: ['symbol Utf8', 'n Int64', 'mean_price Float64'],
        rows: expected.length,
        first: expected[0]!.symbol,
        n: expected[0]!.n,
        price: expected[0]!.mean_price,
      });
      expect(JSON.parse(printed.frame!)).toEqual({
        shape: [expected.length, 3],
        columns: ['symbol', 'n', 'mean_price'],
        values: expected.map((row) => [row.symbol, Number(row.n), row.mean_price]),
      });
      expect(printed.rows, printed.rows).toMatch(/^\{.*\}\n$/);
      expect(JSON.parse(printed.rows!)).toEqual({
        counts: expected.map((row) => ({ symbol: row.symbol, n: Number(row.n) })),
        keys: 2 + MARKET_EVENT_FIELD_NAMES.length,
        rows: 2,
      });
      expect(printed.inferred).toMatch(/The inferred type of 'inferred' cannot be named/);
      expect(printed.grouped, printed.grouped).toMatch(/^\{.*\}\n$/);
      // One row per symbol in the frame, so each group's mean and sum are that row's values.
      expect(JSON.parse(printed.grouped!)).toEqual({
        columns: ['symbol', 'mean_price_mean', 'n_sum'],
        values: expected.map((row) => [row.symbol, row.mean_price, Number(row.n)]),
      });
    }, 300_000);

    it("fails under plain tslab (Node10 resolution): Cannot find module 'danfojs'", async () => {
      const jupyterPath = await installPlainTslab();
      const outputDir = await mkdtemp(path.join(os.tmpdir(), 'rdw-tslab-frames-plain-'));
      const executed = await readNotebook(await executeNotebook(python!, notebook, { jupyterPath, outputDir, env, allowErrors: true }));
      const setup = printedText(executed).find((cell) => cell.id === 'setup')!;
      expect(setup.text).toMatch(/Cannot find module 'danfojs'/);
    }, 300_000);
  });
});
