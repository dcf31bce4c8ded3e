// Group-by over rdw's frames skips missing outcomes exactly as SQL does (issue 28): groupStats over
// toDataFrame's frame (and over the Arrow table and a study result) equals plain SQL per group on simulator rows
// with pending and gap outcomes, where danfojs's own groupby().agg() counts each missing outcome as a 0 return.

import type { DataFrame } from 'danfojs';
import { tableFromJSON } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisOptionError, GROUP_STATS, UnknownColumnError, analysisMessages, eventStudy, groupStats, toDataFrame } from '../../src/analysis/index.js';
import { buildSimulatorCatalog, type SimulatorCatalog } from '../support/simulator-catalog.js';

let sim: SimulatorCatalog;
beforeAll(async () => {
  sim = await buildSimulatorCatalog({ simulator: { seed: 1, days: 20 }, keepRows: false });
}, 180_000);
afterAll(async () => sim?.close());

const ROWS = `SELECT event_kind, direction, status_1h, return_pct_1h, return_pct_24h FROM market_events WHERE sample_type = 'event'`;
const VALUES = ['return_pct_1h', 'return_pct_24h'];

/** Plain SQL per event_kind × direction: count(x) is the non-missing count, avg/median/stddev skip nulls. */
async function sqlGroups(): Promise<Record<string, unknown>[]> {
  const stats = VALUES.map(
    (x) => `count(${x})::INTEGER AS ${x}_count, (count(*) - count(${x}))::INTEGER AS ${x}_missing, avg(${x}) AS ${x}_mean,
      sum(${x}) AS ${x}_sum, min(${x}) AS ${x}_min, max(${x}) AS ${x}_max, median(${x}) AS ${x}_median, stddev_samp(${x}) AS ${x}_std`,
  );
  return sim.catalog.query(`SELECT event_kind, direction, ${stats.join(', ')} FROM (${ROWS}) GROUP BY ALL ORDER BY event_kind, direction`);
}

function expectEqualRows(actual: readonly Record<string, unknown>[], expected: readonly Record<string, unknown>[]): void {
  expect(actual.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
  for (const [i, row] of expected.entries()) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value === 'number' && !Number.isInteger(value)) expect(actual[i]![key], `${i} ${key}`).toBeCloseTo(value, 10);
      else expect(actual[i]![key], `${i} ${key}`).toBe(value);
    }
  }
}

describe('group-by over rdw frames: missing outcomes skipped as SQL does', () => {
  it('the rows hold pending and gap outcomes whose values are missing (what the comparison needs)', async () => {
    const [counts] = await sim.catalog.query(`SELECT count(*) FILTER (WHERE status_1h = 'pending')::INTEGER AS pending,
      count(*) FILTER (WHERE status_1h = 'gap')::INTEGER AS gap, (count(*) - count(return_pct_1h))::INTEGER AS missing_1h,
      (count(*) - count(return_pct_24h))::INTEGER AS missing_24h FROM (${ROWS})`);
    expect(counts!.pending).toBeGreaterThan(0);
    expect(counts!.gap).toBeGreaterThan(0);
    expect(counts!.missing_1h).toBeGreaterThan(0);
    expect(counts!.missing_24h).toBeGreaterThan(counts!.missing_1h as number);
  });

  it("danfojs's own groupby().agg() counts a missing outcome and adds it as 0 (why groupStats exists)", async () => {
    const frame = (await toDataFrame(await sim.catalog.arrow(ROWS))) as DataFrame;
    const danfo = frame.groupby(['event_kind', 'direction']).agg({ return_pct_1h: ['mean', 'count'] });
    const sql = await sqlGroups();
    const rows = danfo.values as unknown[][];
    const column = (name: string) => danfo.columns.indexOf(name);
    let wrong = 0;
    for (const expected of sql) {
      const row = rows.find((r) => r[column('event_kind')] === expected.event_kind && r[column('direction')] === expected.direction)!;
      const groupRows = (expected.return_pct_1h_count as number) + (expected.return_pct_1h_missing as number);
      expect(row[column('return_pct_1h_count')]).toBe(groupRows); // every row, missing included
      // sum over the non-missing values divided by every row: the missing ones entered as 0
      expect(row[column('return_pct_1h_mean')]).toBeCloseTo((expected.return_pct_1h_sum as number) / groupRows, 10);
      if (expected.return_pct_1h_missing !== 0) wrong++;
    }
    expect(wrong).toBeGreaterThan(0);
  });

  it('groupStats over the frame equals SQL per group: count, missing, mean, sum, min, max, median, std', async () => {
    const table = await sim.catalog.arrow(ROWS);
    const frame = await toDataFrame(table);
    const options = { by: ['event_kind', 'direction'], values: VALUES, stats: GROUP_STATS };
    const expected = await sqlGroups();
    expect(expected.some((row) => (row.return_pct_1h_missing as number) > 0)).toBe(true);
    expectEqualRows(groupStats(frame, options), expected);
    expectEqualRows(groupStats(table, options), expected); // the Arrow table itself: no danfojs needed
  });

  it('defaults to count and mean; no keys is one group of every row', async () => {
    const frame = await toDataFrame(await sim.catalog.arrow(ROWS));
    expect(Object.keys(groupStats(frame, { by: ['direction'], values: ['return_pct_1h'] })[0]!)).toEqual([
      'direction', 'return_pct_1h_count', 'return_pct_1h_mean',
    ]);
    const [all] = await sim.catalog.query(`SELECT count(return_pct_1h)::INTEGER AS return_pct_1h_count, avg(return_pct_1h) AS return_pct_1h_mean FROM (${ROWS})`);
    expectEqualRows(groupStats(frame, { values: ['return_pct_1h'] }), [all!]);
  });

  it("over a study result's frame: a statistic without complete outcomes stays missing (null), never 0", async () => {
    const result = await eventStudy(sim.catalog, { windows: ['1h', '7d'], bootstrap: { samples: 10 } });
    const stats = groupStats(await toDataFrame(result), { by: ['window'], values: ['mean_return_pct'], stats: ['count', 'missing', 'mean'] });
    const expected = ['1h', '7d'].map((window) => {
      const rows = result.rows.filter((row) => row.window === window);
      const present = rows.map((row) => row.mean_return_pct).filter((x): x is number => x !== null);
      return { window, mean_return_pct_count: present.length, mean_return_pct_missing: rows.length - present.length,
        mean_return_pct_mean: present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length };
    });
    expect([...stats].sort((a, b) => String(a.window).localeCompare(String(b.window)))).toEqual(expected);
  });

  it('missing keys form their own group, last; an all-missing group has count 0 and null statistics', async () => {
    const table = await sim.catalog.arrow(`SELECT * FROM (VALUES ('b', 1.5::DOUBLE), (NULL, 2.0), ('a', NULL), ('b', NULL), ('b', 3.5)) t(k, x)`);
    expect(groupStats(table, { by: ['k'], values: ['x'], stats: ['count', 'missing', 'mean', 'sum', 'min', 'median', 'std'] })).toEqual([
      { k: 'a', x_count: 0, x_missing: 1, x_mean: null, x_sum: null, x_min: null, x_median: null, x_std: null },
      { k: 'b', x_count: 2, x_missing: 1, x_mean: 2.5, x_sum: 5, x_min: 1.5, x_median: 2.5, x_std: Math.SQRT2 },
      { k: null, x_count: 1, x_missing: 0, x_mean: 2, x_sum: 2, x_min: 2, x_median: 2, x_std: null },
    ]);
  });

  it('refuses an unknown column, an unknown statistic, no value column and a text value column, naming them', async () => {
    const table = await sim.catalog.arrow(ROWS);
    const fails = (options: Parameters<typeof groupStats>[1]) => {
      try {
        groupStats(table, options);
      } catch (error) {
        return error as Error & { code: string };
      }
      throw new Error('no error');
    };
    const unknown = fails({ by: ['kind'], values: ['return_pct_1h'] });
    expect(unknown).toBeInstanceOf(UnknownColumnError);
    expect(unknown.message).toContain('"kind"');
    const stat = fails({ values: ['return_pct_1h'], stats: ['avg' as never] });
    expect(stat).toBeInstanceOf(AnalysisOptionError);
    expect(stat.message).toContain('"avg"');
    expect(fails({ values: [] })).toBeInstanceOf(AnalysisOptionError);
    const text = fails({ values: ['status_1h'] });
    expect(text).toBeInstanceOf(AnalysisOptionError);
    expect(text.message).toContain('"status_1h"');
  });
});

describe('groupStats column names are the source own columns only', () => {
  const table = tableFromJSON([
    { k: 'a', x: 1 },
    { k: 'b', x: 3 },
  ]);

  it.each([
    ['values: toString', { values: ['toString'] }, 'toString'],
    ['values: __proto__', { values: ['__proto__'] }, '__proto__'],
    ['by: constructor', { by: ['constructor'], values: ['x'] }, 'constructor'],
    ['by: hasOwnProperty', { by: ['hasOwnProperty'], values: ['x'] }, 'hasOwnProperty'],
  ] as const)('refuses %s, a name every object inherits, as an unknown column', (_name, options, column) => {
    let thrown: unknown;
    try {
      groupStats(table, options as Parameters<typeof groupStats>[1]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnknownColumnError);
    expect((thrown as UnknownColumnError).code).toBe('RDW_UNKNOWN_COLUMN');
    expect((thrown as Error).message).toBe(analysisMessages.groupStatsUnknownColumn(column, ['k', 'x']));
  });

  it('still summarises the own columns', () => {
    expect(groupStats(table, { by: ['k'], values: ['x'] })).toEqual([
      { k: 'a', x_count: 1, x_mean: 1 },
      { k: 'b', x_count: 1, x_mean: 3 },
    ]);
  });
});
