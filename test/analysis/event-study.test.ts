// The event study on real data: MarketSimulator rows (seed 1, 60 days), each day's release built by the
// mock's release builder and imported by the catalog's own import step into an openCatalog catalog.

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy, intervalBlockDays, missingnessSummary, toDataFrame, type EventStudyRow } from '../../src/analysis/index.js';
import { WINDOW_SECONDS } from '../../src/contract/index.js';
import { PLANTED_EFFECTS } from '../../src/mock/index.js';
import { buildSimulatorCatalog, type SimulatorCatalog } from '../support/simulator-catalog.js';

const DAYS = 60;
let sim: SimulatorCatalog;

beforeAll(async () => {
  sim = await buildSimulatorCatalog({ simulator: { seed: 1, days: DAYS }, keepCsv: true });
}, 180_000);
afterAll(async () => sim?.close());

function find(rows: readonly EventStudyRow[], window: string, kind: string, direction?: string): EventStudyRow {
  const row = rows.find((r) => r.window === window && r.event_kind === kind && r.direction === direction);
  if (!row) throw new Error(`no row ${window} ${kind} ${direction}`);
  return row;
}

const width = (row: EventStudyRow) => row.ci_high_pct! - row.ci_low_pct!;

describe('eventStudy on simulator rows: the planted effects (PLANTED_EFFECTS)', () => {
  const planted = PLANTED_EFFECTS.filter((effect) => effect.effectBps !== 0);
  const nulls = PLANTED_EFFECTS.filter((effect) => effect.effectBps === 0);

  it('recovers each planted effect per direction inside its block-jackknife CI, which excludes 0', async () => {
    expect(planted.length).toBeGreaterThan(0);
    for (const effect of planted) {
      const result = await eventStudy(sim.catalog, { window: effect.window });
      for (const direction of effect.directions) {
        const row = find(result.rows, effect.window, effect.eventKind, direction);
        expect(row.n_complete).toBeGreaterThan(2000);
        expect(row.ci_low_pct!).toBeLessThan(effect.effectBps / 100);
        expect(row.ci_high_pct!).toBeGreaterThan(effect.effectBps / 100);
        expect(row.ci_low_pct!).toBeGreaterThan(0);
      }
    }
  });

  it('finds no effect in the null families (directions pooled: CI covers 0), and the planted one pooled too', async () => {
    // Split by direction, a null family's up and down differences carry the same sample drift with opposite
    // signs (events fall in busier hours than controls); pooling the directions cancels it. See docs/analysis.md.
    const result = await eventStudy(sim.catalog, { by: ['event_kind'] });
    expect(result.rows.every((row) => row.direction === undefined)).toBe(true);
    for (const effect of nulls) {
      const row = find(result.rows, effect.window, effect.eventKind);
      expect(row.ci_low_pct!).toBeLessThan(0);
      expect(row.ci_high_pct!).toBeGreaterThan(0);
    }
    for (const effect of planted) {
      const row = find(result.rows, effect.window, effect.eventKind);
      expect(row.ci_low_pct!).toBeGreaterThan(0);
      expect(row.ci_low_pct!).toBeLessThan(effect.effectBps / 100);
      expect(row.ci_high_pct!).toBeGreaterThan(effect.effectBps / 100);
    }
  });

  it('the day-block jackknife is wider than the row-level bootstrap on every group (same point estimates)', async () => {
    const day = await eventStudy(sim.catalog);
    const row = await eventStudy(sim.catalog, { interval: { samples: 1000, method: 'row-bootstrap' } });
    const blockDays = intervalBlockDays(WINDOW_SECONDS['1h']);
    expect(day.metadata.interval.method).toBe('block-jackknife');
    expect(day.metadata.intervalBlocks).toEqual({ '1h': Math.ceil(DAYS / blockDays) });
    expect(day.metadata.intervalBlockDays).toEqual({ '1h': blockDays });
    expect(row.metadata.intervalBlocks).toEqual({});
    expect(day.metadata.intervalDescription).toMatch(/^95% block-jackknife t interval over UTC-day blocks/);
    expect(row.metadata.intervalDescription).toMatch(/^95% percentile bootstrap over single rows .*ignores day clustering/);
    for (const [i, dayRow] of day.rows.entries()) {
      const rowRow = row.rows[i]!;
      expect(dayRow.difference_pct).toBe(rowRow.difference_pct);
      expect(width(dayRow)).toBeGreaterThan(1.1 * width(rowRow));
      expect(dayRow.ci_low_pct!).toBeLessThanOrEqual(dayRow.difference_pct!);
      expect(dayRow.ci_high_pct!).toBeGreaterThanOrEqual(dayRow.difference_pct!);
    }
  });

  it('signs controls by direction (up: +mean, down: -mean) and pools them by the mean sign', async () => {
    const split = await eventStudy(sim.catalog);
    const pooled = await eventStudy(sim.catalog, { by: ['event_kind'], bootstrap: { samples: 10 } });
    const up = find(split.rows, '1h', 'breakout', 'up');
    const down = find(split.rows, '1h', 'breakout', 'down');
    expect(up.raw_control_mean_pct).not.toBe(0);
    expect(down.raw_control_mean_pct).toBe(up.raw_control_mean_pct);
    expect(up.signed_control_mean_pct).toBe(up.raw_control_mean_pct);
    expect(down.signed_control_mean_pct).toBe(-up.raw_control_mean_pct!);
    expect(up.difference_pct).toBeCloseTo(up.mean_return_pct! - up.signed_control_mean_pct!, 12);
    expect(down.difference_pct).toBeCloseTo(down.mean_return_pct! - down.signed_control_mean_pct!, 12);
    const all = find(pooled.rows, '1h', 'breakout');
    const share = (up.n_complete - down.n_complete) / (up.n_complete + down.n_complete);
    expect(all.raw_control_mean_pct).toBe(up.raw_control_mean_pct);
    expect(all.signed_control_mean_pct).toBeCloseTo(share * up.raw_control_mean_pct!, 12);
    expect(all.n_complete).toBe(up.n_complete + down.n_complete);
  });

  it('is deterministic (no draws: a seed changes nothing), the row bootstrap moves with its seed, long windows use multi-day blocks', async () => {
    const options = { windows: ['1h', '7d'] } as const;
    const a = await eventStudy(sim.catalog, options);
    const b = await eventStudy(sim.catalog, { ...options, interval: { seed: 6 } });
    expect(b.rows).toEqual(a.rows);
    const row5 = await eventStudy(sim.catalog, { ...options, interval: { method: 'row-bootstrap', samples: 300, seed: 5 } });
    const row6 = await eventStudy(sim.catalog, { ...options, interval: { method: 'row-bootstrap', samples: 300, seed: 6 } });
    expect(row6.rows.map((r) => r.ci_low_pct)).not.toEqual(row5.rows.map((r) => r.ci_low_pct));
    expect(row6.rows.map((r) => r.mean_return_pct)).toEqual(a.rows.map((r) => r.mean_return_pct));
    expect(a.metadata.intervalBlockDays).toEqual({ '1h': intervalBlockDays(WINDOW_SECONDS['1h']), '7d': intervalBlockDays(WINDOW_SECONDS['7d']) });
    expect(a.metadata.intervalBlockDays['7d']).toBeGreaterThan(1);
    const fixed = await eventStudy(sim.catalog, { ...options, interval: { blockDays: 1 } });
    // Per-group numbers of 1h do not move (its blocks are one day either way); its q-values may (they are
    // adjusted over the 7d groups too, which have an interval with one-day blocks and none with the automatic ones).
    const perGroup = (rows: EventStudyRow[]) => rows.filter((r) => r.window === '1h').map(({ q_value, significant_adjusted, ...rest }) => rest);
    if (intervalBlockDays(WINDOW_SECONDS['1h']) === 1) expect(perGroup(fixed.rows)).toEqual(perGroup(a.rows));
    expect(fixed.rows.filter((r) => r.window === '7d').every((r) => r.ci_low_pct !== null)).toBe(true);
    expect(a.rows.filter((r) => r.window === '7d').every((r) => r.ci_low_pct === null)).toBe(true);
  });

  it('groups by symbol with per-symbol controls and day clusters, over several windows in order', async () => {
    const result = await eventStudy(sim.catalog, { windows: ['24h', '15m'], by: ['event_kind', 'direction', 'symbol'] });
    expect(result.rows).toHaveLength(2 * 3 * 2 * 6);
    expect(result.rows[0]!.window).toBe('15m');
    expect(result.rows.at(-1)!.window).toBe('24h');
    for (const row of result.rows.filter((r) => r.window === '15m' && r.event_kind === 'breakout' && r.direction === 'up')) {
      const controls = sim.rows.filter((r) => r.sample_type === 'control' && r.symbol === row.symbol);
      expect(row.control_n).toBe(controls.length);
      expect(row.control_n_complete).toBe(controls.filter((r) => r.status_15m === 'complete').length);
      expect(row.ci_low_pct).not.toBeNull();
    }
    expect(result.metadata.intervalBlocks['15m']).toBe(Math.ceil(DAYS / intervalBlockDays(WINDOW_SECONDS['15m'])));
    expect(result.table.schema.fields.map((f) => f.name).slice(0, 4)).toEqual(['window', 'event_kind', 'direction', 'symbol']);
  });

  it('reports the release IDs, calculation versions and coverage it used', async () => {
    const result = await eventStudy(sim.catalog, { bootstrap: { samples: 10 } });
    expect(result.metadata.releaseIds).toEqual(sim.releases.map((r) => r.id).sort());
    expect(result.metadata.calculationVersions).toEqual([...new Set(sim.rows.map((r) => r.calculation_version))].sort());
    expect(result.metadata.selection).toBe('current');
    expect(result.metadata.rows).toBe(sim.rows.length);
    expect(result.coverage).toHaveLength(DAYS * 6);
    expect(result.coverage.reduce((s, c) => s + c.rows, 0)).toBe(sim.rows.length);
    expect(result.table.numRows).toBe(result.rows.length);
    expect(result.table.getChild('n_complete')!.get(0)).toBe(result.rows[0]!.n_complete);
  });

  it('converts to a danfojs DataFrame with the table columns', async () => {
    const result = await eventStudy(sim.catalog, { bootstrap: { samples: 50 } });
    const frame = await toDataFrame(result);
    expect(frame.shape).toEqual([result.rows.length, result.table.numCols]);
    expect(frame.columns).toEqual(result.table.schema.fields.map((f) => f.name));
  });
});

describe('eventStudy: agrees with hand-written SQL over the release CSV files', () => {
  it('n, n_complete, gaps, pending, mean, median and control mean per group', async () => {
    // The release files, concatenated (one header) so DuckDB sniffs the types once.
    const texts = await Promise.all(sim.releases.map((r) => readFile(path.join(sim.csvDir, `${r.day}.csv`), 'utf8')));
    const header = texts[0]!.slice(0, texts[0]!.indexOf('\n') + 1);
    expect(texts.every((text) => text.startsWith(header))).toBe(true);
    const csv = path.join(sim.home, 'all-releases.csv');
    await writeFile(csv, header + texts.map((text) => text.slice(header.length)).join(''));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const reference = (
      await connection.runAndReadAll(`
      WITH t AS (SELECT * FROM read_csv('${csv.replaceAll("'", "''")}', header = true)),
      c AS (SELECT avg(return_pct_1h) AS m FROM t WHERE sample_type = 'control' AND status_1h = 'complete')
      SELECT event_kind, direction, count(*)::INTEGER AS n,
        count(*) FILTER (WHERE status_1h = 'complete')::INTEGER AS n_complete,
        count(*) FILTER (WHERE status_1h = 'gap')::INTEGER AS gaps,
        count(*) FILTER (WHERE status_1h = 'pending')::INTEGER AS pending,
        avg(direction_adjusted_return_pct_1h) FILTER (WHERE status_1h = 'complete') AS mean,
        median(direction_adjusted_return_pct_1h) FILTER (WHERE status_1h = 'complete') AS median,
        any_value(c.m) AS control
      FROM t, c WHERE sample_type = 'event' GROUP BY event_kind, direction ORDER BY event_kind, direction`)
    ).getRowObjectsJS();
    connection.closeSync();
    instance.closeSync();

    const result = await eventStudy(sim.catalog, { bootstrap: { samples: 10 } });
    expect(reference).toHaveLength(result.rows.length);
    expect(reference.reduce((s, r) => s + (r.pending as number), 0)).toBeGreaterThan(0); // the newest day's last hour
    for (const expected of reference) {
      const row = find(result.rows, '1h', expected.event_kind as string, expected.direction as string);
      expect(row.n).toBe(expected.n);
      expect(row.n_complete).toBe(expected.n_complete);
      expect(row.missing_gap).toBe(expected.gaps);
      expect(row.missing_pending).toBe(expected.pending);
      expect(row.mean_return_pct).toBeCloseTo(expected.mean as number, 10);
      expect(row.median_return_pct).toBeCloseTo(expected.median as number, 10);
      const sign = expected.direction === 'up' ? 1 : -1;
      expect(row.raw_control_mean_pct).toBeCloseTo(expected.control as number, 10);
      expect(row.signed_control_mean_pct).toBeCloseTo(sign * (expected.control as number), 10);
    }
  });
});

describe('eventStudy: pending and gap outcomes are missing, never zero (real rows made pending)', () => {
  // Copies of the current rows where every 4th complete 1h breakout-up outcome (by row_id) is made pending
  // or gap, with NULL or 0 stored in its values; studied through AnalysisSource's currentView.
  async function degraded(name: string, status: 'pending' | 'gap', stored: 'NULL' | '0') {
    const connection = sim.catalog.connection;
    await connection.run(`CREATE OR REPLACE TEMP TABLE ${name} AS SELECT * FROM market_events_current`);
    const changed = await connection.run(`UPDATE ${name} SET status_1h = '${status}',
        return_pct_1h = ${stored}, direction_adjusted_return_pct_1h = ${stored}, mfe_pct_1h = ${stored}, mae_pct_1h = ${stored}
      WHERE row_id IN (SELECT row_id FROM (
        SELECT row_id, row_number() OVER (ORDER BY row_id) AS k FROM ${name}
        WHERE event_kind = 'breakout' AND direction = 'up' AND status_1h = 'complete') WHERE k % 4 = 0)`);
    const result = await eventStudy({ connection, currentView: name }, { bootstrap: { samples: 20 } });
    return { row: find(result.rows, '1h', 'breakout', 'up'), changed: changed.rowsChanged };
  }

  it('changes n_complete and missingness, and the mean is that of the remaining complete rows', async () => {
    const original = find((await eventStudy(sim.catalog, { bootstrap: { samples: 20 } })).rows, '1h', 'breakout', 'up');
    const a = await degraded('pending_null', 'pending', 'NULL');
    const b = await degraded('pending_zero', 'pending', '0');
    const c = await degraded('gap_zero', 'gap', '0');
    expect(a.changed).toBeGreaterThan(500);

    expect(a.row.n).toBe(original.n);
    expect(a.row.n_complete).toBe(original.n_complete - a.changed);
    expect(a.row.missing_pending).toBe(original.missing_pending + a.changed);
    expect(c.row.missing_gap).toBe(original.missing_gap + c.changed);

    // Independent mean over the rows still complete (JS over the simulator rows, same selection rule).
    const complete = sim.rows
      .filter((r) => r.sample_type === 'event' && r.event_kind === 'breakout' && r.direction === 'up' && r.status_1h === 'complete')
      .sort((x, y) => (x.row_id < y.row_id ? -1 : x.row_id > y.row_id ? 1 : 0));
    const remaining = complete.filter((_, i) => (i + 1) % 4 !== 0).map((r) => r.direction_adjusted_return_pct_1h!);
    expect(remaining.length).toBe(a.row.n_complete);
    const mean = remaining.reduce((s, v) => s + v, 0) / remaining.length;
    expect(a.row.mean_return_pct).toBeCloseTo(mean, 10);

    // A stored 0 under a pending/gap status changes nothing: the statistics equal the null case.
    for (const other of [b.row, c.row]) {
      expect(other.mean_return_pct).toBe(a.row.mean_return_pct);
      expect(other.median_return_pct).toBe(a.row.median_return_pct);
      expect(other.hit_rate).toBe(a.row.hit_rate);
      expect(other.median_mae_pct).toBe(a.row.median_mae_pct);
      expect([other.ci_low_pct, other.ci_high_pct]).toEqual([a.row.ci_low_pct, a.row.ci_high_pct]);
    }
    // Counting those rows as zero returns would have moved the mean (so the test can fail).
    const zeroCounted = (mean * remaining.length) / (remaining.length + a.changed);
    expect(Math.abs(zeroCounted - a.row.mean_return_pct!)).toBeGreaterThan(0.01);
  });

  it('missingnessSummary lists every status per window and sample type, matching the rows', async () => {
    const cells = await missingnessSummary(sim.catalog, { windows: ['1h', '7d'] });
    expect(cells).toHaveLength(2 * 2 * 5);
    const pending7d = cells.find((c) => c.window === '7d' && c.sample_type === 'control' && c.status === 'pending')!;
    expect(pending7d.rows).toBe(sim.rows.filter((r) => r.sample_type === 'control' && r.status_7d === 'pending').length);
    expect(pending7d.rows).toBeGreaterThan(0);
    const total1h = cells.filter((c) => c.window === '1h').reduce((s, c) => s + c.rows, 0);
    expect(total1h).toBe(sim.rows.length);
  });
});
