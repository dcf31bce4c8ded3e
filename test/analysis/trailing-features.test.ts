// The point-in-time helpers (trailingMean, trailingChange, trailingRank) against a plain TypeScript recomputation
// that only looks at earlier rows: same symbol, point-in-time, sample_time in [t − hours, t) — rows at t itself
// never count. On MarketSimulator rows (seed 1, a real catalog), through a researcher's own SQL and through
// modelStudy (which computes them over every point-in-time row of its releases, both sample types). The simulator
// gives no two rows of a symbol the same sample_time, so the researcher's SQL reads the rows plus a copy of every
// fifth one at the same time with another value: peers that must not count for each other.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  LeakageError,
  analysisMessages,
  UnknownColumnError,
  checkFeatureSet,
  defineModelSpec,
  derivedFeature,
  pointInTimeReason,
  predictorSelectSql,
  trailingChange,
  trailingFeaturesSql,
  trailingMean,
  trailingRank,
} from '../../src/analysis/index.js';
import { TRAILING_HOURS_MAX } from '../../src/analysis/trailing-features.js';
import { modelStudy } from '../../src/modelling/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

const DAYS = 8;
const HOURS = 6;
let fixture: FixtureCatalog;

interface Row {
  release_id: string;
  row_id: string;
  symbol: string;
  sample_type: string;
  sample_time: number;
  volume_ratio_20: number | null;
  status_1h: string;
  return_pct_1h: number | null;
  feature_pit_eligible: boolean;
  feature_available_at: number | null;
  derivative_available_at: number | null;
  mean: number | null;
  change: number | null;
  rank: number | null;
}

const mean = trailingMean('volume_ratio_20', { hours: HOURS });
const change = trailingChange('volume_ratio_20', { hours: HOURS, name: 'ratio_change' });
const rank = trailingRank('volume_ratio_20', { hours: HOURS, name: 'ratio_rank' });
let rows: Row[];
/** The catalog's rows plus same-time peers (row_id ending in `-peer`). */
const WITH_PEERS = `(SELECT * FROM market_events_current UNION ALL
  SELECT * REPLACE (row_id || '-peer' AS row_id, volume_ratio_20 * 1.5 AS volume_ratio_20) FROM market_events_current WHERE hash(row_id) % 5 = 0)`;
const isPeer = (row: { row_id: string }) => row.row_id.endsWith('-peer');
let catalogRowCache: Row[] | undefined;
const catalogOnly = () => (catalogRowCache ??= rows.filter((row) => !isPeer(row)));

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: DAYS, label: 'trailing-features' });
  const features = await checkFeatureSet([mean, change, rank]);
  rows = (
    await fixture.connection.runAndReadAll(
      `SELECT release_id, row_id, symbol, sample_type, sample_time, volume_ratio_20, status_1h, return_pct_1h, feature_pit_eligible,
        feature_available_at, derivative_available_at, ${predictorSelectSql(features.predictors)}
      FROM ${trailingFeaturesSql(WITH_PEERS, features.predictors)}`,
    )
  )
    .getRowObjectsJS()
    .map((row) => ({ ...row, mean: row[mean.name], change: row.ratio_change, rank: row.ratio_rank }) as unknown as Row);
}, 120_000);
afterAll(async () => fixture?.close());

/** Rows by symbol, in time order (the recomputation reads a symbol's rows only). */
const bySymbolCache = new WeakMap<readonly Row[], Map<string, Row[]>>();
function bySymbol(universe: readonly Row[]): Map<string, Row[]> {
  let map = bySymbolCache.get(universe);
  if (map === undefined) {
    map = new Map();
    for (const row of universe) map.set(row.symbol, [...(map.get(row.symbol) ?? []), row]);
    for (const list of map.values()) list.sort((a, b) => a.sample_time - b.sample_time);
    bySymbolCache.set(universe, map);
  }
  return map;
}

/** The plain recomputation of one row: the earlier point-in-time values of its symbol within the window. */
function recomputed(row: Row, universe: readonly Row[] = rows): { mean: number | null; change: number | null; rank: number | null } {
  const earlier = bySymbol(universe)
    .get(row.symbol)!
    .filter(
      (other) =>
        other.sample_time < row.sample_time &&
        other.sample_time >= row.sample_time - HOURS * 3600 &&
        other.volume_ratio_20 !== null &&
        pointInTimeReason(other) === null,
    )
    .sort((a, b) => a.sample_time - b.sample_time || a.volume_ratio_20! - b.volume_ratio_20!);
  if (earlier.length === 0) return { mean: null, change: null, rank: null };
  const values = earlier.map((other) => other.volume_ratio_20!);
  const now = row.volume_ratio_20;
  return {
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
    change: now === null ? null : now - values[0]!,
    rank: now === null ? null : values.reduce((sum, value) => sum + (value < now ? 1 : value === now ? 0.5 : 0), 0) / values.length,
  };
}

function expectClose(actual: number | null, expected: number | null, what: string): void {
  if (expected === null) expect(actual, what).toBeNull();
  else expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(1e-9 * Math.max(1, Math.abs(expected)));
}

describe(`trailing features over ${HOURS} hours (simulator seed 1, ${DAYS} days)`, () => {
  it('equal a plain recomputation from strictly earlier point-in-time rows of the same symbol, in a researcher\'s own SQL', () => {
    expect(rows.length).toBeGreaterThan(3000);
    let valued = 0;
    for (const row of rows) {
      const expected = recomputed(row);
      const what = `${row.symbol} ${row.sample_time} ${row.row_id.slice(0, 8)}`;
      expectClose(row.mean, expected.mean, `mean ${what}`);
      expectClose(row.change, expected.change, `change ${what}`);
      expectClose(row.rank, expected.rank, `rank ${what}`);
      if (expected.rank !== null) valued += 1;
    }
    expect(valued).toBeGreaterThan(rows.length / 2);
    // The exclusions the recomputation makes are exercised: rows sharing a symbol and sample_time, and rows that
    // are not point-in-time (their values never count for later rows).
    const peers = rows.filter(isPeer);
    expect(peers.length).toBeGreaterThan(rows.length / 10);
    expect(peers.filter((row) => row.rank !== null && row.rank !== recomputed(row, catalogOnly()).rank).length).toBeGreaterThan(0);
    expect(rows.some((row) => pointInTimeReason(row) !== null && row.volume_ratio_20 !== null)).toBe(true);
  });

  it('a later row never changes an earlier row\'s value: the same features over rows up to day 5 only are equal on those rows', async () => {
    const features = await checkFeatureSet([mean, change, rank]);
    const cut = Math.min(...rows.map((row) => row.sample_time)) + 5 * 86_400;
    const early = (
      await fixture.connection.runAndReadAll(
        `SELECT release_id, row_id, ${predictorSelectSql(features.predictors)}
        FROM ${trailingFeaturesSql(`(SELECT * FROM ${WITH_PEERS} WHERE sample_time < ${cut})`, features.predictors)}`,
      )
    ).getRowObjectsJS();
    const full = new Map(rows.map((row) => [`${row.release_id}|${row.row_id}`, row]));
    expect(early.length).toBeGreaterThan(1000);
    for (const row of early) {
      const whole = full.get(`${row.release_id}|${row.row_id}`)!;
      // Equal up to the order DuckDB sums in.
      expectClose(row[mean.name] as number | null, whole.mean, 'mean');
      expectClose(row.ratio_change as number | null, whole.change, 'change');
      expectClose(row.ratio_rank as number | null, whole.rank, 'rank');
    }
  });

  it('modelStudy computes them over every point-in-time row of its releases before keeping the eligible ones', async () => {
    const target = derivedFeature('up_1h', ['return_pct_1h'], 'CASE WHEN return_pct_1h IS NULL THEN NULL WHEN return_pct_1h > 0 THEN 1 ELSE 0 END');
    const spec = defineModelSpec({ target, predictors: [mean, derivedFeature('ln_mean', [mean], `ln(${mean.name})`)] });
    const result = await modelStudy(fixture.connection, { spec, split: { method: 'row-k-fold', folds: 3 }, bootstrap: { samples: 50, seed: 1 } });
    // Every eligible row is in one test fold; those with a target and no trailing value (or ln of a non-positive one) are left out.
    const catalogRows = catalogOnly();
    const eligible = catalogRows.filter((row) => row.status_1h === 'complete' && pointInTimeReason(row) === null && row.return_pct_1h !== null);
    const missing = eligible.filter((row) => {
      const value = recomputed(row, catalogRows).mean;
      return value === null || value <= 0;
    }).length;
    const leftOut = result.evaluation.folds.reduce((sum, fold) => sum + fold.testLeftOut.missingPredictor, 0);
    expect(missing).toBeGreaterThan(0);
    expect(leftOut).toBe(missing);
    expect(result.evaluation.folds.reduce((sum, fold) => sum + fold.rows, 0)).toBe(eligible.length - missing);
  });

  it('summarise only numeric predictor fields, with a positive window and a name that is no row field', () => {
    expect(() => trailingMean('return_pct_1h', { hours: 1 })).toThrow(LeakageError);
    expect(() => trailingMean('event_kind', { hours: 1 })).toThrow(AnalysisOptionError);
    expect(() => trailingMean('no_such_field', { hours: 1 })).toThrow(UnknownColumnError);
    expect(() => trailingMean('price', { hours: 0 })).toThrow(AnalysisOptionError);
    expect(() => trailingMean('price', { hours: 2, name: 'price' })).toThrow(AnalysisOptionError);
    expect(() => trailingMean('price', { hours: 2, name: 'a"b' })).toThrow(AnalysisOptionError);
    expect(trailingRank('price', { hours: 1.5 }).name).toBe('trailing_rank_price_1_5h');
  });

  it.each([
    ['a string', '6', analysisMessages.trailingHoursNotNumber('6')],
    ['missing', undefined, analysisMessages.trailingHoursNotNumber(undefined)],
    ['below one second', 1e-7, analysisMessages.trailingHoursOutOfRange(1e-7, TRAILING_HOURS_MAX)],
    ['zero', 0, analysisMessages.trailingHoursOutOfRange(0, TRAILING_HOURS_MAX)],
    ['not finite', Number.NaN, analysisMessages.trailingHoursOutOfRange(Number.NaN, TRAILING_HOURS_MAX)],
    ['above the maximum', 1e21, analysisMessages.trailingHoursOutOfRange(1e21, TRAILING_HOURS_MAX)],
  ])('refuse hours that is %s, naming hours (not a default name the user never gave)', (_case, hours, message) => {
    for (const helper of [trailingMean, trailingChange, trailingRank]) {
      let thrown: unknown;
      try {
        helper('price', { hours } as unknown as { hours: number });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(AnalysisOptionError);
      expect(thrown).toMatchObject({ code: 'RDW_ANALYSIS_OPTION', option: 'hours', message });
    }
  });

  it('say a string hours was a string, and state the range of hours', () => {
    expect(analysisMessages.trailingHoursNotNumber('6')).toContain("not '6' (a string)");
    expect(analysisMessages.trailingHoursOutOfRange(1e21, TRAILING_HOURS_MAX)).toMatch(/hours must be .*1 second.* 100,000 hours, not 1e\+21\./);
  });

  it('accept hours from one second to the maximum, with a default name without an exponent', () => {
    expect(trailingMean('price', { hours: 1 / 3600 }).name).toMatch(/^trailing_mean_price_0_000\d+h$/);
    expect(trailingMean('price', { hours: TRAILING_HOURS_MAX }).name).toBe('trailing_mean_price_100000h');
  });

  it('are trusted because rdw wrote their SQL: a copy of one with the same SQL is read like any derived feature, and refused', async () => {
    const copy = derivedFeature(mean.name, ['volume_ratio_20'], mean.sql);
    await expect(checkFeatureSet([copy])).rejects.toThrow(UnknownColumnError);
  });
});
