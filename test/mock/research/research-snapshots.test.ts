import { beforeAll, describe, expect, it } from 'vitest';
import { ResearchOptionError, researchSnapshots, type ResearchSnapshotSet } from '../../../src/mock/research/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { PLANS, RESEARCH_DATASETS, RESEARCH_LIMITATIONS, RESEARCH_SCOPE, UsageError, researchDataset } from '../../../src/contract/index.js';
import { sqlString, withDuckDbFiles } from '../../support/duckdb-files.js';

const ENVELOPE_KEYS = [
  'key',
  'generated_at',
  'updated',
  'stale',
  'refresh_seconds',
  'calculation_version',
  'source',
  'source_url',
  'window',
  'summary',
  'items',
  'limitation',
];
const DUCKDB_TYPE = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN' } as const;

describe('research snapshots', () => {
  let simulator: MarketSimulator;
  let at: number;
  let set: ResearchSnapshotSet;

  beforeAll(() => {
    simulator = new MarketSimulator({ seed: 1, days: 10 });
    at = simulator.options.now + 120;
    set = researchSnapshots(simulator, at);
  });

  it.each(RESEARCH_DATASETS.map((d) => [d.id]))('%s has the spec envelope, its own columns and an honest stale flag', (id) => {
    const spec = researchDataset(id)!;
    const snapshot = set.snapshot(id)!;
    expect(Object.keys(snapshot)).toEqual(ENVELOPE_KEYS);
    expect(snapshot.key).toBe(id);
    expect(snapshot.refresh_seconds).toBe(spec.refresh_seconds);
    expect(snapshot.calculation_version).toBe(spec.calculation_version);
    expect([snapshot.source, snapshot.source_url]).toEqual([spec.source, spec.source_url]);
    expect(snapshot.limitation).toEqual(spec.limitation);
    expect(snapshot.generated_at % spec.refresh_seconds).toBe(0);
    expect(snapshot.generated_at).toBeLessThanOrEqual(at);
    expect(snapshot.generated_at).toBeGreaterThan(at - spec.refresh_seconds);
    expect(snapshot.items.length).toBeGreaterThan(0);
    for (const item of snapshot.items) {
      expect(Object.keys(item)).toEqual(spec.columns.map((c) => c.name));
      expect(item.calculation_version).toBe(spec.calculation_version);
    }
    expect(snapshot.updated).not.toBeNull();
    expect(snapshot.updated!).toBeLessThanOrEqual(snapshot.generated_at);
    expect(snapshot.stale).toBe(at - snapshot.updated! > spec.freshness_seconds);
  });

  it('marks the lagging listing calendar stale and the fresh market breadth not stale', () => {
    expect(set.snapshot('listing-calendar')!.stale).toBe(true);
    expect(set.snapshot('market-breadth')!.stale).toBe(false);
  });

  it('takes market-breadth prices, 24-hour change and turnover from the archived candles', () => {
    const snapshot = set.snapshot('market-breadth')!;
    const t = snapshot.generated_at;
    const day = new Date((t - 1) * 1000).toISOString().slice(0, 10);
    const previous = new Date((t - 1 - 86400) * 1000).toISOString().slice(0, 10);
    for (const item of snapshot.items) {
      const candles = [...simulator.candles(item.symbol as 'BTCUSDT', previous), ...simulator.candles(item.symbol as 'BTCUSDT', day)]
        .filter((c) => !c.missing && !c.invalid_price && c.close_time <= t && c.archived_at <= t)
        .sort((a, b) => a.open_time - b.open_time);
      const last = candles.at(-1)!;
      expect(item.price).toBe(last.close);
      expect(item.source_time).toBe(last.close_time);
      const window = candles.filter((c) => c.close_time > last.close_time - 86400);
      expect(item.volume_24h).toBeCloseTo(window.reduce((sum, c) => sum + c.quote_volume, 0), 1);
      const reference = candles.filter((c) => c.close_time <= last.close_time - 86400).at(-1);
      if (reference && item.change_24h !== null) expect(item.change_24h).toBeCloseTo(100 * (last.close / reference.close - 1), 3);
    }
  });

  it('writes CSV whose header is the dataset columns and whose rows equal the items (read with DuckDB)', async () => {
    await withDuckDbFiles(async (duck) => {
      for (const spec of RESEARCH_DATASETS) {
        const csv = set.csv(spec.id)!;
        expect(csv.split('\n')[0]).toBe(spec.columns.map((c) => c.name).join(','));
        const path = await duck.write(`${spec.id}.csv`, csv);
        const columns = `{${spec.columns.map((c) => `${sqlString(c.name)}: ${sqlString(DUCKDB_TYPE[c.type])}`).join(', ')}}`;
        const rows = await duck.query(`SELECT * FROM read_csv(${sqlString(path)}, header = true, columns = ${columns})`);
        expect(rows, spec.id).toEqual(set.snapshot(spec.id)!.items);
      }
    });
  });

  it('serves live pages only for datasets with a page key, with the same snapshot and CSV', () => {
    for (const spec of RESEARCH_DATASETS) {
      if (spec.live_page_key) {
        expect(set.live(spec.live_page_key)).toEqual(set.snapshot(spec.id));
        expect(set.liveCsv(spec.live_page_key)).toBe(set.csv(spec.id));
      }
    }
    expect(set.live('volatility-regime')).toBeUndefined();
    expect(set.snapshot('no-such-dataset')).toBeUndefined();
    expect(set.csv('no-such-dataset')).toBeUndefined();
    expect(set.liveCsv('no-such-page')).toBeUndefined();
  });

  it('builds the free catalog with same-origin paths and the limits passed in', () => {
    const limits = { keys: PLANS.free.keys, rpm: PLANS.free.rpm, daily_bytes: PLANS.free.daily_bytes };
    const catalog = set.catalog(limits);
    expect(catalog.scope).toBe(RESEARCH_SCOPE);
    expect(catalog.limits).toEqual(limits);
    expect(catalog.limitations).toEqual(RESEARCH_LIMITATIONS);
    expect(catalog.datasets.map((d) => [d.id, d.calculation_version, d.json_url, d.csv_url])).toEqual(
      RESEARCH_DATASETS.map((d) => [d.id, d.calculation_version, `/v1/research/${d.id}`, `/v1/research/${d.id}/csv`]),
    );
  });

  it('classifies volatility regimes once the archive holds enough history, and counts them in the summary', () => {
    expect(set.snapshot('volatility-regime')!.items.every((item) => item.regime === null)).toBe(true);
    const long = researchSnapshots(new MarketSimulator({ seed: 1, days: 40 }), at).snapshot('volatility-regime')!;
    const regimes = long.items.map((item) => item.regime);
    for (const regime of regimes) expect(['calm', 'normal', 'turbulent']).toContain(regime);
    for (const item of long.items) expect(item.realized_vol_7d_pct as number).toBeGreaterThan(0);
    expect(long.summary).toEqual({
      calm: regimes.filter((r) => r === 'calm').length,
      normal: regimes.filter((r) => r === 'normal').length,
      turbulent: regimes.filter((r) => r === 'turbulent').length,
      unclassified: 0,
    });
  });

  it('is deterministic for the same simulator and time', () => {
    const again = researchSnapshots(new MarketSimulator({ seed: 1, days: 10 }), at);
    for (const spec of RESEARCH_DATASETS) expect(again.csv(spec.id)).toBe(set.csv(spec.id));
  });

  it.each([[Number.NaN], ['2026-11-01' as unknown as number]])('refuses a snapshot time of %s naming it', (value) => {
    let error: unknown;
    try {
      researchSnapshots(simulator, value);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as ResearchOptionError).code).toBe('RDW_RESEARCH_OPTION');
    expect((error as ResearchOptionError).option).toBe('at');
  });
});
