// modelStudy on the mock's MarketSimulator rows (seed 1, 20 days, a real catalog): the rows it models are the
// rows plain SQL picks, its predictors and targets line up with the split rows (checked by row identity, not
// by position), rowKFoldSplits deals every row into one test fold, and bad options fail with a typed error.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  LeakageError,
  UnknownColumnError,
  defineModelSpec,
  derivedFeature,
} from '../../src/analysis/index.js';
import {
  LogisticRegression,
  defaultModelSpec,
  modelCatalog,
  modelStudy,
  rowKFoldSplits,
  splitRowIdentities,
  type ModelSplitOptions,
} from '../../src/modelling/index.js';
import { MIN_INTERVAL_BLOCKS } from '../../src/analysis/block-jackknife.js';
import { intervalCalibrationNote } from '../../src/analysis/interval-calibration-note.js';
import { CALIBRATED_SPLIT_METHODS, SPLIT_METHODS } from '../../src/contract/index.js';
import { MarketSimulator } from '../../src/mock/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';
import { eventStudy } from '../../src/analysis/index.js';
import { CatalogRecordError, ConnectionSettingError, ShadowedNameError } from '../../src/errors.js';
import { catalogMessages } from '../../src/catalog/messages.js';
import { MARKET_EVENTS_CURRENT_QUERY } from '../../src/catalog/catalog-schema.js';

const DAYS = 20;
const INTERVAL = { confidence: 0.95 };
let fixture: FixtureCatalog;
/** Every current row by plain SQL, keyed `release_id|row_id`. */
let byKey: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: DAYS, label: 'model-study' });
  const rows = (
    await fixture.connection.runAndReadAll(`SELECT release_id, row_id, sample_type, status_1h, feature_pit_eligible, feature_available_at,
      derivative_available_at, sample_time, event_kind, direction, volume_ratio_20, direction_adjusted_return_pct_1h FROM market_events_current`)
  ).getRowObjectsJS();
  byKey = new Map(rows.map((row) => [`${row.release_id}|${row.row_id}`, row]));
}, 120_000);
afterAll(async () => fixture?.close());

/** The plain reading of the default spec's rules: an event row with a complete 1h outcome, point-in-time. */
function eligible(row: Record<string, unknown>): boolean {
  const time = Number(row.sample_time);
  return (
    row.sample_type === 'event' &&
    row.status_1h === 'complete' &&
    row.feature_pit_eligible === true &&
    row.feature_available_at !== null &&
    Number(row.feature_available_at) <= time &&
    (row.derivative_available_at === null || Number(row.derivative_available_at) <= time)
  );
}

/** Every default predictor present: event kind and direction known, volume ratio positive. */
function modelled(row: Record<string, unknown>): boolean {
  return row.event_kind !== null && row.direction !== null && row.volume_ratio_20 !== null && Number(row.volume_ratio_20) > 0;
}

describe(`modelStudy on simulator rows (seed 1, ${DAYS} days)`, () => {
  it('refuses a derived predictor that is not a number, or whose SQL fails on a row, with one sentence (not a raw DuckDB error)', async () => {
    const target = defaultModelSpec('1h').target;
    const cases: [string, ReturnType<typeof derivedFeature>, RegExp][] = [
      ['text', derivedFeature('sym', ['symbol'], 'symbol'), /^The feature sym gives VARCHAR values, not numbers, so it cannot be a model column; make it a number/],
      ['a list', derivedFeature('pair', ['price'], '[price, price]'), /^The feature pair gives DOUBLE\[\] values, not numbers/],
      ['an interval', derivedFeature('span', ['price'], 'INTERVAL 1 DAY'), /^The feature span gives INTERVAL values, not numbers/],
      ['error()', derivedFeature('boom', ['price'], "CASE WHEN price > 0 THEN error('boom') ELSE price END"), /^DuckDB could not compute the model's columns \(Invalid Input Error: boom\)/],
      ['a cast that fails', derivedFeature('bad_cast', ['symbol'], "CAST('x' || symbol AS DOUBLE)"), /^DuckDB could not compute the model's columns \(Conversion Error: Could not convert string 'x[A-Z]+USDT' to DOUBLE\)/],
    ];
    for (const [name, feature, message] of cases) {
      const error = await modelStudy(fixture.connection, { spec: defineModelSpec({ target, predictors: ['price', feature] }), interval: INTERVAL }).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(AnalysisOptionError);
      expect((error as Error).message, name).toMatch(message);
    }
    // A boolean or an integer is a number column.
    const result = await modelStudy(fixture.connection, { spec: defineModelSpec({ target, predictors: [derivedFeature('is_btc', ['symbol'], "symbol = 'BTCUSDT'"), derivedFeature('hour', ['sample_time'], "date_part('hour', to_timestamp(sample_time))")] }), interval: INTERVAL });
    expect(result.evaluation.features).toEqual(['is_btc', 'hour']);
  });

  it('a derived target built on a derived input runs, and equals the same target written in one expression', async () => {
    // An adversary's trial: the guard accepted it, then DuckDB said "Referenced column upx not found".
    const up = derivedFeature('upx', ['direction_adjusted_return_pct_1h'], 'direction_adjusted_return_pct_1h > 0');
    const layered = derivedFeature('t2', [up], 'CASE WHEN upx IS NULL THEN NULL WHEN upx THEN 1 ELSE 0 END');
    const direct = derivedFeature('t1', ['direction_adjusted_return_pct_1h'], 'CASE WHEN direction_adjusted_return_pct_1h IS NULL THEN NULL WHEN direction_adjusted_return_pct_1h > 0 THEN 1 ELSE 0 END');
    const predictors = defaultModelSpec('1h').features.predictors;
    const a = await modelStudy(fixture.connection, { spec: defineModelSpec({ target: layered, predictors }), interval: INTERVAL });
    const b = await modelStudy(fixture.connection, { spec: defineModelSpec({ target: direct, predictors }), interval: INTERVAL });
    expect(a.evaluation.pooled.model.auc).toBe(b.evaluation.pooled.model.auc);
    expect(a.evaluation.pooled.rows).toBe(b.evaluation.pooled.rows);
    expect(a.target).toBe('t2');
  });

  it('refuses a connection whose settings change what rdw computes or reads (ConnectionSettingError, exit 2), and runs again once reset', async () => {
    // An adversary's trial: SET default_order = 'DESC' turned trailing windows into look-ahead (AUC 0.47 → 0.84);
    // USE / search_path pointed market_events_current at another database; a TimeZone moves hour(to_timestamp(…)).
    const cases: [string, string, string, string][] = [
      ["SET default_order = 'DESC'", 'RESET default_order', 'default_order', "SET default_order = 'ASC'"],
      ["SET TimeZone = 'Asia/Kolkata'", "SET TimeZone = 'UTC'", 'TimeZone', "SET TimeZone = 'UTC'"],
      // It was refused as "TimeZone = UTC" with the advice to set TimeZone to UTC, which changed nothing.
      ["SET Calendar = 'japanese'", "SET Calendar = 'gregorian'", 'Calendar', "SET Calendar = 'gregorian'"],
      ["SET search_path = 'temp.main,main'", 'RESET search_path', 'search_path', 'RESET search_path'],
      ["ATTACH ':memory:' AS other_db; USE other_db", 'USE ' + (await fixture.connection.runAndReadAll('SELECT current_database() AS db')).getRowObjectsJS()[0]!.db + '; DETACH other_db', 'the current database', "USE the catalog's database"],
    ];
    for (const [set, reset, setting, advice] of cases) {
      await fixture.connection.run(set);
      try {
        const error = await modelStudy(fixture.connection, { interval: INTERVAL }).catch((caught: unknown) => caught);
        expect(error, set).toBeInstanceOf(ConnectionSettingError);
        expect(error, set).toMatchObject({ code: 'RDW_CONNECTION_SETTING', exitCode: 2, setting });
        expect((error as Error).message, set).toContain(advice);
        await expect(eventStudy(fixture.connection), set).rejects.toBeInstanceOf(ConnectionSettingError);
      } finally {
        await fixture.connection.run(reset);
      }
    }
    expect(Number.isFinite((await modelStudy(fixture.connection, { interval: INTERVAL })).evaluation.pooled.model.auc)).toBe(true);
  });

  it("refuses a connection with a macro named like DuckDB's own function, or a temp view named like the catalog's (ShadowedNameError, exit 3)", async () => {
    // The guard reads a feature in an empty database; at run time DuckDB called this macro instead of ln(), and
    // the default spec's ln_volume_ratio_20 read the label (pooled AUC 0.56 became 0.99).
    await fixture.connection.run(
      'CREATE TEMP MACRO ln(x) AS (SELECT CASE WHEN max(direction_adjusted_return_pct_1h) > 0 THEN 1 ELSE -1 END FROM market_events_current m WHERE m.volume_ratio_20 = x)',
    );
    try {
      const error = await modelStudy(fixture.connection, { interval: INTERVAL }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ShadowedNameError);
      expect(error).toMatchObject({ code: 'RDW_SHADOWED_NAME', exitCode: 3, names: ['temp.main.ln()'] });
      expect((error as Error).message).toBe(
        "The catalog's connection defines temp.main.ln(), named like one of DuckDB's own functions, which DuckDB would read instead in rdw's SQL and in derived features; drop it (DROP MACRO temp.main.ln) and run again.",
      );
      await expect(eventStudy(fixture.connection)).rejects.toBeInstanceOf(ShadowedNameError);
    } finally {
      await fixture.connection.run('DROP MACRO temp.main.ln');
    }
    // The catalog's own view replaced (a writable catalog: CREATE OR REPLACE VIEW) is no longer rdw's.
    await fixture.connection.run('CREATE OR REPLACE VIEW market_events_current AS SELECT * FROM market_events');
    try {
      const error = await eventStudy(fixture.connection).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ShadowedNameError);
      expect((error as ShadowedNameError).names).toEqual([expect.stringMatching(/\.main\.market_events_current$/)]);
      expect((error as Error).message).toMatch(/^The catalog's view \S+\.main\.market_events_current is not rdw's any more/);
      await expect(modelStudy(fixture.connection, { interval: INTERVAL })).rejects.toBeInstanceOf(ShadowedNameError);
    } finally {
      await fixture.connection.run(`CREATE OR REPLACE VIEW market_events_current AS\n${MARKET_EVENTS_CURRENT_QUERY}`);
    }
    // Dropped from a catalog rdw made: one sentence naming the view (not DuckDB's "does not exist").
    await fixture.connection.run('DROP VIEW market_events_current');
    try {
      const error = await eventStudy(fixture.connection).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CatalogRecordError);
      expect(error).toMatchObject({ code: 'RDW_CATALOG_RECORD', exitCode: 3, object: 'market_events_current', releaseId: undefined });
      expect((error as Error).message).toBe(catalogMessages.recordViewDiffers('market_events_current', 'missing'));
      await expect(modelStudy(fixture.connection, { interval: INTERVAL })).rejects.toBeInstanceOf(CatalogRecordError);
    } finally {
      await fixture.connection.run(`CREATE OR REPLACE VIEW market_events_current AS\n${MARKET_EVENTS_CURRENT_QUERY}`);
    }
    // A temporary view named like the catalog's current view would replace the rows every study reads.
    await fixture.connection.run('CREATE TEMP VIEW market_events_current AS SELECT * FROM main.market_events_current WHERE symbol = \'BTCUSDT\'');
    try {
      const error = await eventStudy(fixture.connection).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'RDW_SHADOWED_NAME', names: ['temp.main.market_events_current'] });
      expect((error as Error).message).toContain('named like a table or view of the catalog');
      await expect(modelStudy(fixture.connection, { interval: INTERVAL })).rejects.toBeInstanceOf(ShadowedNameError);
    } finally {
      await fixture.connection.run('DROP VIEW temp.main.market_events_current');
    }
    // A macro of a name of its own shadows nothing (a derived feature cannot call it: the guard's database lacks it).
    await fixture.connection.run('CREATE TEMP MACRO my_double(x) AS x * 2');
    try {
      const result = await modelStudy(fixture.connection, { interval: INTERVAL });
      expect(result.evaluation.pooled.model.auc).toBeGreaterThan(0.4);
      expect(result.evaluation.pooled.model.auc).toBeLessThan(0.7);
    } finally {
      await fixture.connection.run('DROP MACRO temp.main.my_double');
    }
  });

  it('models the event rows plain SQL picks: controls counted as not selected, rows with a missing predictor counted per fold', async () => {
    const result = await modelStudy(fixture.connection, { interval: INTERVAL });
    expect(result.window).toBe('1h');
    expect(result.target).toBe('up_1h');
    expect(result.sampleType).toBe('event');
    expect(result.splits.method).toBe('purged-k-fold');
    expect(result.evaluation.features).toEqual(['is_breakout', 'is_volume_spike', 'is_up', 'ln_volume_ratio_20']);
    const all = [...byKey.values()];
    expect(result.splits.total).toBe(all.length);
    expect(result.splits.leftOut.sample_type_not_selected).toBe(all.filter((row) => row.sample_type !== 'event').length);
    const expected = all.filter(eligible);
    expect(result.splits.rows.rowId).toHaveLength(expected.length);
    // purged k-fold tests every eligible row once: the folds' scored rows are the eligible rows with every predictor
    const folds = result.evaluation.folds;
    expect(folds.reduce((sum, fold) => sum + fold.rows, 0)).toBe(expected.filter(modelled).length);
    expect(folds.reduce((sum, fold) => sum + fold.testLeftOut.missingPredictor, 0)).toBe(expected.filter((row) => !modelled(row)).length);
    expect(folds.reduce((sum, fold) => sum + fold.testLeftOut.missingTarget, 0)).toBe(0); // events with a complete outcome have a return
    expect(result.evaluation.pooled.rows).toBe(expected.filter(modelled).length);
  });

  it("lines up predictors and targets with the split rows: each fold's train base rate is the share of up rows among its train identities", async () => {
    const result = await modelStudy(fixture.connection, { interval: INTERVAL });
    for (const [index, fold] of result.evaluation.folds.entries()) {
      const train = splitRowIdentities(result.splits.rows, result.splits.splits[index]!.train)
        .map(({ release_id, row_id }) => byKey.get(`${release_id}|${row_id}`)!)
        .filter(modelled);
      expect(fold.trainRows).toBe(train.length);
      const up = train.filter((row) => Number(row.direction_adjusted_return_pct_1h) > 0).length;
      expect(fold.trainBaseRate).toBeCloseTo(up / train.length, 12);
      // A fold of 4 test days has 4 one-day blocks, fewer than an interval needs: none, and the note says why.
      expect(fold.blocks).toBeLessThan(MIN_INTERVAL_BLOCKS);
      expect([...fold.intervals.model.auc, ...fold.intervals.logLossDifference].every(Number.isNaN)).toBe(true);
    }
    expect(result.evaluation.intervalNote).toMatch(/^No fold shows an interval: /);
    // The pooled row of 5 folds has an interval from the folds' scores (corrected resampled t, whatever the
    // blocks), its p-value from the same t; its test-rows-only jackknife (20 one-day blocks, kept for
    // comparisons) lies around each estimate too.
    const { pooled } = result.evaluation;
    expect(pooled.noInterval).toBeUndefined();
    expect(pooled.overFolds?.folds).toBe(5);
    expect(result.evaluation.interval.description).toContain("pooled: Nadeau–Bengio corrected resampled t over the 5 folds' scores (4 df)");
    expect(result.evaluation.intervalNote).not.toMatch(/pooled row/);
    const [aucLow, aucHigh] = pooled.intervals.model.auc;
    expect(aucLow < pooled.model.auc && pooled.model.auc < aucHigh).toBe(true);
    expect(aucLow > 0.5 || aucHigh < 0.5).toBe(pooled.pValues.auc < 0.05);
    const [dLow, dHigh] = pooled.intervals.logLossDifference;
    expect(dLow > 0 || dHigh < 0).toBe(pooled.pValues.logLossDifference < 0.05);
    for (const [low, high, value] of [
      [...pooled.testRowsOnly!.intervals.model.auc, pooled.model.auc],
      [...pooled.testRowsOnly!.intervals.logLossDifference, pooled.logLossDifference],
    ]) {
      expect(low).toBeLessThan(value!);
      expect(high).toBeGreaterThan(value!);
    }
  });

  it('fits the planted breakout effect: every fold gives is_breakout a positive coefficient', async () => {
    const fitted: LogisticRegression[] = [];
    await modelStudy(fixture.connection, {
      interval: INTERVAL,
      model: () => {
        const model = new LogisticRegression();
        fitted.push(model);
        return model;
      },
    });
    expect(fitted).toHaveLength(5);
    for (const model of fitted) expect(model.coefficients.standardised[0]).toBeGreaterThan(0); // is_breakout is the first predictor
  });

  it('is deterministic: two runs give equal results', async () => {
    const a = await modelStudy(fixture.connection, { interval: INTERVAL, split: { method: 'walk-forward', folds: 3 } });
    const b = await modelStudy(fixture.connection, { interval: INTERVAL, split: { method: 'walk-forward', folds: 3 } });
    expect(b.evaluation).toEqual(a.evaluation);
    expect(a.evaluation.folds).toHaveLength(3);
    // Each split quotes its own calibration figures: walk-forward its own run's, the naive row k-fold none.
    expect(a.evaluation.interval.calibration).toBe(intervalCalibrationNote('model', undefined, 'walk-forward'));
    expect(a.evaluation.interval.calibration).toMatch(/walk-forward splits/);
    const purged = await modelStudy(fixture.connection, { interval: INTERVAL });
    expect(purged.evaluation.interval.calibration).toBe(intervalCalibrationNote('model'));
    expect(purged.evaluation.interval.calibration).not.toMatch(/walk-forward|not measured/);
    // Walk-forward's pooled row: the jackknife over its folds' test days (their scores are not exchangeable);
    // purged k-fold's: the corrected resampled t over the folds.
    expect(a.evaluation.pooled.overFolds).toBeUndefined();
    expect(a.evaluation.interval.description).toContain("pooled: the same over the 3 folds' test days together");
    expect(purged.evaluation.pooled.overFolds?.folds).toBe(5);
    const naive = await modelStudy(fixture.connection, { interval: INTERVAL, split: { method: 'row-k-fold' } });
    expect(naive.evaluation.interval.calibration).toMatch(/intervals on row-k-fold splits are not measured\.$/);
    // Both follow contract's SPLIT_METHODS: each method's pooled interval, and which methods the bench measures.
    expect(naive.evaluation.pooled.overFolds?.folds).toBe(5);
    expect(Object.fromEntries(Object.entries(SPLIT_METHODS).map(([name, m]) => [name, m.pooledInterval]))).toEqual({
      'purged-k-fold': 'folds',
      'walk-forward': 'test-days',
      'row-k-fold': 'folds',
    });
    expect(CALIBRATED_SPLIT_METHODS).toEqual(['purged-k-fold', 'walk-forward']);
  });

  it('runs over a Catalog read-only through modelCatalog, with the same numbers', async () => {
    const direct = await modelStudy(fixture.connection, { interval: INTERVAL });
    const viaCatalog = await modelCatalog(fixture.catalog, { interval: INTERVAL });
    expect(viaCatalog.evaluation).toEqual(direct.evaluation);
  });
});

describe('rowKFoldSplits', () => {
  it('deals every eligible row into exactly one test fold, trains on all the others, purges nothing; the seed moves the deal', async () => {
    const a = await rowKFoldSplits(fixture.connection, { folds: 4, seed: 3 });
    const b = await rowKFoldSplits(fixture.connection, { folds: 4, seed: 3 });
    const c = await rowKFoldSplits(fixture.connection, { folds: 4, seed: 4 });
    const count = a.rows.rowId.length;
    const tested = new Uint8Array(count);
    for (const split of a.splits) {
      expect(split.train.length + split.test.length).toBe(count);
      expect(split.purged + split.embargoed + split.unused).toBe(0);
      for (const index of split.test) tested[index]! += 1;
      expect(Math.abs(split.test.length - count / 4)).toBeLessThanOrEqual(1);
    }
    expect(tested.every((times) => times === 1)).toBe(true);
    expect(b.splits.map((split) => Array.from(split.test))).toEqual(a.splits.map((split) => Array.from(split.test)));
    expect(c.splits[0]!.test).not.toEqual(a.splits[0]!.test);
    expect(a.method).toBe('row-k-fold');
  });

  it('deals any number of folds: 300 folds (more than a byte holds) still test every row once', async () => {
    const many = await rowKFoldSplits(fixture.connection, { folds: 300, seed: 1 });
    const count = many.rows.rowId.length;
    expect(count).toBeGreaterThan(300);
    const tested = new Uint16Array(count);
    for (const split of many.splits) {
      expect(Math.abs(split.test.length - count / 300)).toBeLessThanOrEqual(1);
      for (const index of split.test) tested[index]! += 1;
    }
    expect(tested.every((times) => times === 1)).toBe(true);
  });
});

describe('modelStudy refuses bad options with a typed error', () => {
  const up = derivedFeature('up_1h', ['return_pct_1h'], 'return_pct_1h > 0');
  it.each([
    ['a window that is not the target window', { spec: defaultModelSpec('1h'), window: '4h' as const }, AnalysisOptionError, 'window'],
    ['a text predictor', { spec: defineModelSpec({ target: up, predictors: ['symbol'] }) }, AnalysisOptionError, 'symbol'],
    ['a target that is not 0/1', { spec: defineModelSpec({ target: 'return_pct_1h', predictors: ['volume_ratio_20'] }) }, AnalysisOptionError, 'target'],
    ['an unknown split method', { split: { method: 'k-fold' } as unknown as ModelSplitOptions }, AnalysisOptionError, 'split.method'],
    ['an unknown sample type', { sampleType: 'both' as unknown as 'event' }, AnalysisOptionError, 'sampleType'],
  ])('%s', async (_name, options, errorClass, option) => {
    const error = await modelStudy(fixture.connection, { interval: INTERVAL, ...options }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errorClass);
    expect((error as AnalysisOptionError).option).toBe(option);
    expect((error as AnalysisOptionError).code).toBe('RDW_ANALYSIS_OPTION');
  });

  it('a hand-built spec with a label among the predictors', async () => {
    const spec = { target: up, features: { predictors: ['mfe_pct_1h'], names: ['mfe_pct_1h'] } };
    const error = await modelStudy(fixture.connection, { interval: INTERVAL, spec }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LeakageError);
    expect((error as LeakageError).column).toBe('mfe_pct_1h');
  });

  it('a target that is not 0/1 is named, with the row and its value', async () => {
    const spec = defineModelSpec({ target: 'return_pct_1h', predictors: ['volume_ratio_20'] });
    const error = (await modelStudy(fixture.connection, { interval: INTERVAL, spec }).catch((caught: unknown) => caught)) as AnalysisOptionError;
    expect(error.message).toMatch(/^The target return_pct_1h must be 1, 0 or null \(missing\) for every row, but row \d+ gives -?\d/);
  });

  it('a hand-built spec whose target is no label: UnknownColumnError, not a crash', async () => {
    const spec = { target: 'volume_ratio_20', features: { predictors: ['taker_buy_fraction'], names: ['taker_buy_fraction'] } };
    const error = await modelStudy(fixture.connection, { interval: INTERVAL, spec }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownColumnError);
    expect((error as UnknownColumnError).message).toContain('volume_ratio_20');
  });

  it('a target that is no label is refused when the spec is defined', () => {
    expect(() => defineModelSpec({ target: 'volume_ratio_20', predictors: ['taker_buy_fraction'] })).toThrow(UnknownColumnError);
  });
});
