import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  EmptyStudyError,
  ReleaseNotInCatalogError,
  eventStudy,
  missingnessSummary,
  toDataFrame,
  type EventStudyRow,
} from '../../src/analysis/index.js';
import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../src/spec/index.js';
import { buildFixtureCatalog, type FixtureCatalog } from './support/fixture-catalog.js';
import { SYNTHETIC_EFFECTS, syntheticDays, type SyntheticDay } from './support/synthetic-rows.js';

const DAYS = 60;
const days = syntheticDays({ days: DAYS, seed: 11 });
let catalog: FixtureCatalog;

function fixtureReleases(source: readonly SyntheticDay[]) {
  return source.map((day) => ({ releaseId: day.releaseId, day: day.day, rows: day.rows }));
}

beforeAll(async () => {
  catalog = await buildFixtureCatalog(fixtureReleases(days));
});
afterAll(async () => catalog?.close());

function find(rows: readonly EventStudyRow[], window: string, kind: string, direction: string): EventStudyRow {
  const row = rows.find((r) => r.window === window && r.event_kind === kind && r.direction === direction);
  if (!row) throw new Error(`no row ${window} ${kind} ${direction}`);
  return row;
}

describe('eventStudy: planted effects', () => {
  it('recovers the planted breakout edge inside its CI and finds none (CI covers 0) for volume_spike', async () => {
    const result = await eventStudy(catalog.connection, { window: '1h' });
    expect(result.rows).toHaveLength(6); // 3 kinds x 2 directions
    for (const direction of ['up', 'down']) {
      const breakout = find(result.rows, '1h', 'breakout', direction);
      expect(breakout.ci_low_pct!).toBeLessThan(SYNTHETIC_EFFECTS.breakout);
      expect(breakout.ci_high_pct!).toBeGreaterThan(SYNTHETIC_EFFECTS.breakout);
      expect(breakout.ci_low_pct!).toBeGreaterThan(0);
      const spike = find(result.rows, '1h', 'volume_spike', direction);
      expect(spike.ci_low_pct!).toBeLessThan(0);
      expect(spike.ci_high_pct!).toBeGreaterThan(0);
      expect(spike.ci_low_pct!).toBeLessThanOrEqual(spike.difference_pct!);
      expect(spike.ci_high_pct!).toBeGreaterThanOrEqual(spike.difference_pct!);
    }
  });

  it('signs controls by the group direction (up: +mean, down: -mean)', async () => {
    const result = await eventStudy(catalog.connection);
    const up = find(result.rows, '1h', 'breakout', 'up');
    const down = find(result.rows, '1h', 'breakout', 'down');
    expect(up.control_mean_return_pct).not.toBe(0);
    expect(down.control_mean_return_pct).toBeCloseTo(-up.control_mean_return_pct!, 12);
    expect(up.difference_pct).toBeCloseTo(up.mean_return_pct! - up.control_mean_return_pct!, 12);
  });

  it('is deterministic for a seed and moves with it', async () => {
    const a = await eventStudy(catalog.connection, { bootstrap: { samples: 300, seed: 5 } });
    const b = await eventStudy(catalog.connection, { bootstrap: { samples: 300, seed: 5 } });
    const c = await eventStudy(catalog.connection, { bootstrap: { samples: 300, seed: 6 } });
    expect(b.rows).toEqual(a.rows);
    expect(c.rows.map((r) => r.ci_low_pct)).not.toEqual(a.rows.map((r) => r.ci_low_pct));
    expect(c.rows.map((r) => r.mean_return_pct)).toEqual(a.rows.map((r) => r.mean_return_pct));
  });

  it('groups by symbol with per-symbol controls, over several windows in order', async () => {
    const result = await eventStudy(catalog.connection, { windows: ['24h', '15m'], by: ['event_kind', 'direction', 'symbol'] });
    expect(result.rows).toHaveLength(2 * 3 * 2 * 6);
    expect(result.rows[0]!.window).toBe('15m');
    expect(result.rows.at(-1)!.window).toBe('24h');
    const controls = result.rows.filter((r) => r.window === '15m' && r.event_kind === 'breakout' && r.direction === 'up');
    expect(new Set(controls.map((r) => r.control_n))).toEqual(new Set([24 * DAYS]));
    expect(result.table.schema.fields.map((f) => f.name).slice(0, 4)).toEqual(['window', 'event_kind', 'direction', 'symbol']);
  });

  it('reports the release IDs, calculation versions and coverage it used', async () => {
    const result = await eventStudy(catalog.connection);
    expect(result.metadata.releaseIds).toEqual(days.map((d) => d.releaseId).sort());
    expect(result.metadata.calculationVersions).toEqual(['mev-calc-4']);
    expect(result.metadata.selection).toBe('current');
    expect(result.metadata.rows).toBe(days.reduce((sum, d) => sum + d.rows.length, 0));
    expect(result.coverage).toHaveLength(DAYS * 6);
    expect(result.table.numRows).toBe(result.rows.length);
    expect(result.table.getChild('n_complete')!.get(0)).toBe(result.rows[0]!.n_complete);
  });

  it('converts to a danfojs DataFrame with the table columns', async () => {
    const result = await eventStudy(catalog.connection, { bootstrap: { samples: 50 } });
    const frame = await toDataFrame(result);
    expect(frame.shape).toEqual([result.rows.length, result.table.numCols]);
    expect(frame.columns).toEqual(result.table.schema.fields.map((f) => f.name));
  });
});

describe('eventStudy: agrees with hand-written SQL over the CSV of the same rows', () => {
  it('n, n_complete, mean, median and control mean per group', async () => {
    const csv = path.join(catalog.dir, 'rows.csv');
    const rows = days.flatMap((d) => d.rows) as unknown as Record<string, unknown>[];
    const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    await writeFile(csv, [MARKET_EVENT_FIELD_NAMES.join(','), ...rows.map((r) => MARKET_EVENT_FIELD_NAMES.map((n) => cell(r[n])).join(','))].join('\n'));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const reference = (
      await connection.runAndReadAll(`
      WITH t AS (SELECT * FROM read_csv('${csv}', header = true)),
      c AS (SELECT avg(return_pct_1h) AS m FROM t WHERE sample_type = 'control' AND status_1h = 'complete')
      SELECT event_kind, direction, count(*)::INTEGER AS n,
        count(*) FILTER (WHERE status_1h = 'complete')::INTEGER AS n_complete,
        count(*) FILTER (WHERE status_1h = 'gap')::INTEGER AS gaps,
        avg(direction_adjusted_return_pct_1h) FILTER (WHERE status_1h = 'complete') AS mean,
        median(direction_adjusted_return_pct_1h) FILTER (WHERE status_1h = 'complete') AS median,
        any_value(c.m) AS control
      FROM t, c WHERE sample_type = 'event' GROUP BY event_kind, direction ORDER BY event_kind, direction`)
    ).getRowObjectsJS();
    connection.closeSync();
    instance.closeSync();

    const result = await eventStudy(catalog.connection, { bootstrap: { samples: 10 } });
    expect(reference).toHaveLength(result.rows.length);
    for (const expected of reference) {
      const row = find(result.rows, '1h', expected.event_kind as string, expected.direction as string);
      expect(row.n).toBe(expected.n);
      expect(row.n_complete).toBe(expected.n_complete);
      expect(row.missing_gap).toBe(expected.gaps);
      expect(row.mean_return_pct).toBeCloseTo(expected.mean as number, 10);
      expect(row.median_return_pct).toBeCloseTo(expected.median as number, 10);
      const sign = expected.direction === 'up' ? 1 : -1;
      expect(row.control_mean_return_pct).toBeCloseTo(sign * (expected.control as number), 10);
    }
  });
});

describe('eventStudy: pending and gap outcomes are missing, never zero', () => {
  // Make every 4th complete 1h breakout-up outcome pending (or gap), with null returns or with 0 stored.
  function degrade(source: readonly SyntheticDay[], status: 'pending' | 'gap', stored: number | null) {
    let index = 0;
    const changed: MarketEventRow[] = [];
    const out = source.map((day) => ({
      ...day,
      rows: day.rows.map((row) => {
        if (row.event_kind !== 'breakout' || row.direction !== 'up' || row.status_1h !== 'complete' || index++ % 4 !== 0) return row;
        const copy = { ...row, status_1h: status, return_pct_1h: stored, direction_adjusted_return_pct_1h: stored, mfe_pct_1h: stored, mae_pct_1h: stored };
        changed.push(copy);
        return copy;
      }),
    }));
    return { days: out, changed: changed.length };
  }

  async function studyOf(source: readonly SyntheticDay[]) {
    const built = await buildFixtureCatalog(fixtureReleases(source));
    try {
      return find((await eventStudy(built.connection, { bootstrap: { samples: 20 } })).rows, '1h', 'breakout', 'up');
    } finally {
      await built.close();
    }
  }

  it('changes n_complete and missingness, and the mean is that of the remaining complete rows', async () => {
    const original = find((await eventStudy(catalog.connection, { bootstrap: { samples: 20 } })).rows, '1h', 'breakout', 'up');
    const pendingNull = degrade(days, 'pending', null);
    const pendingZero = degrade(days, 'pending', 0);
    const gapZero = degrade(days, 'gap', 0);
    const [a, b, c] = [await studyOf(pendingNull.days), await studyOf(pendingZero.days), await studyOf(gapZero.days)];
    expect(pendingNull.changed).toBeGreaterThan(20);

    expect(a.n).toBe(original.n);
    expect(a.n_complete).toBe(original.n_complete - pendingNull.changed);
    expect(a.missing_pending).toBe(original.missing_pending + pendingNull.changed);
    expect(c.missing_gap).toBe(original.missing_gap + gapZero.changed);

    // Independent mean over the rows still complete.
    const remaining = pendingNull.days
      .flatMap((d) => d.rows)
      .filter((r) => r.event_kind === 'breakout' && r.direction === 'up' && r.status_1h === 'complete')
      .map((r) => r.direction_adjusted_return_pct_1h!);
    const mean = remaining.reduce((s, v) => s + v, 0) / remaining.length;
    expect(a.mean_return_pct).toBeCloseTo(mean, 10);

    // A stored 0 under a pending/gap status changes nothing: the statistics equal the null case.
    for (const other of [b, c]) {
      expect(other.mean_return_pct).toBeCloseTo(a.mean_return_pct!, 12);
      expect(other.median_return_pct).toBeCloseTo(a.median_return_pct!, 12);
      expect(other.hit_rate).toBeCloseTo(a.hit_rate!, 12);
      expect(other.median_mae_pct).toBeCloseTo(a.median_mae_pct!, 12);
    }
    // Counting those rows as zero returns would have moved the mean (the test can fail).
    const zeroCounted = (mean * remaining.length) / (remaining.length + pendingNull.changed);
    expect(Math.abs(zeroCounted - a.mean_return_pct!)).toBeGreaterThan(0.01);
  });

  it('missingnessSummary lists every status per window and sample type', async () => {
    const cells = await missingnessSummary(catalog.connection, { windows: ['1h', '7d'] });
    expect(cells).toHaveLength(2 * 2 * 5);
    const pending7d = cells.find((c) => c.window === '7d' && c.sample_type === 'control' && c.status === 'pending')!;
    expect(pending7d.rows).toBe(24 * 6); // the last day's controls
    const total1h = cells.filter((c) => c.window === '1h').reduce((s, c) => s + c.rows, 0);
    expect(total1h).toBe(days.reduce((s, d) => s + d.rows.length, 0));
  });
});

describe('eventStudy: release selection', () => {
  it('reads exact release IDs, and the current view keeps only the newest revision of a day', async () => {
    const base = syntheticDays({ days: 3, seed: 3 });
    const revised = { ...base[1]!, releaseId: 'f'.repeat(64), rows: base[1]!.rows.filter((r) => r.sample_type === 'control') };
    const built = await buildFixtureCatalog([...fixtureReleases(base), { releaseId: revised.releaseId, day: revised.day, rows: revised.rows, generatedAt: 99 }]);
    try {
      const current = await eventStudy(built.connection, { bootstrap: { samples: 20 } });
      expect(current.metadata.releaseIds).toContain(revised.releaseId);
      expect(current.metadata.releaseIds).not.toContain(base[1]!.releaseId);
      const pinned = await eventStudy(built.connection, { releases: [base[0]!.releaseId], bootstrap: { samples: 20 } });
      expect(pinned.metadata.releaseIds).toEqual([base[0]!.releaseId]);
      expect(pinned.metadata.selection).toBe('releases');
      expect(pinned.metadata.rows).toBe(base[0]!.rows.length);
      await expect(eventStudy(built.connection, { releases: ['0'.repeat(64)] })).rejects.toBeInstanceOf(ReleaseNotInCatalogError);
      await expect(eventStudy(built.connection, { releases: [] })).rejects.toBeInstanceOf(EmptyStudyError);
    } finally {
      await built.close();
    }
  });

  it.each([
    [{ window: '2h' }],
    [{ windows: [] }],
    [{ by: ['event_kind'] }],
    [{ by: ['direction', 'venue'] }],
    [{ releases: ['not-an-id'] }],
    [{ bootstrap: { samples: 0 } }],
    [{ bootstrap: { confidence: 1 } }],
    [{ bootstrap: { seed: 1.5 } }],
  ])('refuses bad options %j with AnalysisOptionError', async (options) => {
    await expect(eventStudy(catalog.connection, options as never)).rejects.toMatchObject({ code: 'RDW_ANALYSIS_OPTION' });
    await expect(eventStudy(catalog.connection, options as never)).rejects.toBeInstanceOf(AnalysisOptionError);
  });
});
