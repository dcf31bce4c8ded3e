import { readFile } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy, type EventStudyResult } from '../../src/analysis/index.js';
import { writeStudyReport } from '../../src/report/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { syntheticDays } from '../support/synthetic-rows.js';

const days = syntheticDays({ days: 5, seed: 2 });
let catalog: FixtureCatalog;
let result: EventStudyResult;
let files: Awaited<ReturnType<typeof writeStudyReport>>;

beforeAll(async () => {
  catalog = await buildFixtureCatalog(days.map((d) => ({ releaseId: d.releaseId, day: d.day, rows: d.rows })));
  result = await eventStudy(catalog.connection, { windows: ['1h', '7d'], bootstrap: { samples: 100 } });
  files = await writeStudyReport(result, `${catalog.dir}/report`);
});
afterAll(async () => catalog?.close());

describe('writeStudyReport', () => {
  it('writes a CSV that DuckDB reads back to the same rows, with empty cells (not 0) for missing statistics', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const rows = (await connection.runAndReadAll(`SELECT * FROM read_csv('${files.csv}', header = true)`)).getRowObjectsJS();
    connection.closeSync();
    instance.closeSync();
    expect(rows).toHaveLength(result.rows.length);
    expect(Object.keys(rows[0]!)).toEqual(result.table.schema.fields.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const expected = result.rows[i]!;
      expect(row.window).toBe(expected.window);
      expect(Number(row.n_complete)).toBe(expected.n_complete);
      if (expected.mean_return_pct === null) expect(row.mean_return_pct).toBeNull();
      else expect(row.mean_return_pct).toBeCloseTo(expected.mean_return_pct, 12);
    }
  });

  it('writes JSON with the rows and the release IDs and calculation versions', async () => {
    const json = JSON.parse(await readFile(files.json, 'utf8'));
    expect(json.rows).toEqual(JSON.parse(JSON.stringify(result.rows)));
    expect(json.metadata.releaseIds).toEqual(days.map((d) => d.releaseId).sort());
    expect(json.metadata.calculationVersions).toEqual(['mev-calc-4']);
  });

  it('writes the three SVG charts', async () => {
    for (const file of [files.effectSvg, files.missingnessSvg, files.coverageSvg]) {
      expect((await readFile(file, 'utf8')).startsWith('<svg')).toBe(true);
    }
    expect(await readFile(files.coverageSvg, 'utf8')).toContain('BTCUSDT');
  });

  it('writes a self-contained report.html: inline SVG, no script, no URL but SVG namespaces', async () => {
    const html = await readFile(files.html, 'utf8');
    expect(html.match(/<svg/g)).toHaveLength(3);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\((?!#)/i); // url(#…) is an in-document gradient
    const withoutNamespaces = html.replace(/\sxmlns(:\w+)?="[^"]*"/g, '');
    expect(withoutNamespaces).not.toMatch(/https?:\/\//i);
    expect(withoutNamespaces).not.toMatch(/(src|href)\s*=/i);
    for (const id of result.metadata.releaseIds) expect(html).toContain(id);
    expect(html).toContain('mev-calc-4');
  });
});
