import { describe, expect, it } from 'vitest';
import { pairAuc } from '../support/pair-auc.js';
import jstatPackage from 'jstat';
import { daysForInterval, MIN_INTERVAL_BLOCKS } from '../../src/analysis/block-jackknife.js';
import { intervalCalibrationNote } from '../../src/analysis/interval-calibration-note.js';
import { modellingMessages } from '../../src/modelling/messages.js';
import { AnalysisOptionError, LeakageError, defineFeatureSet, type FeatureSet } from '../../src/analysis/index.js';
import {
  BaseRateModel,
  LogisticRegression,
  evaluateModel,
  featureMatrix,
  type ModelFold,
} from '../../src/modelling/index.js';
import { plantedRows } from '../support/planted-model-rows.js';
import { thrown } from '../support/thrown.js';

const { jStat } = jstatPackage as unknown as typeof import('jstat');

const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const rowLoss = (y: number, p: number) => -(y === 1 ? Math.log(p) : Math.log(1 - p));

/** The jackknife t interval written out: θ̂ ± t(G−1) · sqrt((G−1)/G · Σ(θ₋g − mean)²). */
function plainInterval(estimate: number, leaveOut: number[], confidence: number) {
  const g = leaveOut.length;
  const mean = meanOf(leaveOut);
  const se = Math.sqrt(((g - 1) / g) * leaveOut.reduce((sum, value) => sum + (value - mean) ** 2, 0));
  const t = jStat.studentt.inv(1 - (1 - confidence) / 2, g - 1);
  return { interval: [estimate - t * se, estimate + t * se] as const, se };
}

/** Every score and its leave-one-block-out values by brute force, then the interval. */
function plainJackknife(y: number[], p: ArrayLike<number>, q: ArrayLike<number>, block: number[], confidence: number) {
  const blocks = [...new Set(block)].sort((a, b) => a - b);
  const rowsOf = (keep: (i: number) => boolean) => y.map((_, i) => i).filter(keep);
  const loss = (scores: ArrayLike<number>, rows: number[]) => meanOf(rows.map((i) => rowLoss(y[i]!, scores[i]!)));
  const right = (scores: ArrayLike<number>, rows: number[]) => meanOf(rows.map((i) => ((scores[i]! > 0.5 ? 1 : 0) === y[i] ? 1 : 0)));
  const all = rowsOf(() => true);
  const without = blocks.map((g) => rowsOf((i) => block[i] !== g));
  const auc = pairAuc(y, p, () => true);
  const aucOut = blocks.map((g) => pairAuc(y, p, (i) => block[i] !== g));
  const aucInterval = plainInterval(auc, aucOut, confidence);
  const tStat = Math.abs(auc - 0.5) / aucInterval.se;
  return {
    auc: aucInterval.interval,
    aucP: 2 * jStat.studentt.cdf(-tStat, blocks.length - 1),
    modelLogLoss: plainInterval(loss(p, all), without.map((rows) => loss(p, rows)), confidence).interval,
    baselineLogLoss: plainInterval(loss(q, all), without.map((rows) => loss(q, rows)), confidence).interval,
    difference: plainInterval(loss(p, all) - loss(q, all), without.map((rows) => loss(p, rows) - loss(q, rows)), confidence).interval,
    modelAccuracy: plainInterval(right(p, all), without.map((rows) => right(p, rows)), confidence).interval,
  };
}

function expectClose(actual: readonly number[], expected: readonly number[]): void {
  expect(actual).toHaveLength(2);
  for (let k = 0; k < 2; k += 1) expect(Math.abs(actual[k]! - expected[k]!)).toBeLessThan(1e-9);
}

const features = defineFeatureSet(['volume_ratio_20', 'taker_buy_fraction', 'oi_usd']);

/** Walk-forward-like folds by day blocks: train on the days before, test on the next block. */
function dayFolds(dayIndex: readonly number[], days: number, folds: number): ModelFold[] {
  const size = Math.floor(days / (folds + 1));
  return Array.from({ length: folds }, (_, f) => {
    const testStart = (f + 1) * size;
    const train: number[] = [];
    const test: number[] = [];
    dayIndex.forEach((day, i) => {
      if (day < testStart) train.push(i);
      else if (day < testStart + size) test.push(i);
    });
    return { fold: f + 1, train: Uint32Array.from(train), test: Uint32Array.from(test) };
  });
}

describe('evaluateModel', () => {
  it('refuses a label among the features with LeakageError, even in a hand-built feature set', () => {
    const data = plantedRows(4, 10, 1);
    expect(() => defineFeatureSet(['volume_ratio_20', 'return_pct_1h'])).toThrow(LeakageError);
    const handBuilt: FeatureSet = { predictors: ['volume_ratio_20', 'return_pct_1h'], names: ['volume_ratio_20', 'return_pct_1h'] };
    expect(() => featureMatrix(data.rows, handBuilt)).toThrow(LeakageError);
    expect(() => evaluateModel(data, handBuilt, dayFolds(data.dayIndex, 4, 1))).toThrow(LeakageError);
    try {
      featureMatrix(data.rows, handBuilt);
    } catch (error) {
      expect((error as LeakageError).code).toBe('RDW_LABEL_LEAKAGE');
      expect((error as LeakageError).column).toBe('return_pct_1h');
    }
  });

  it('beats the base rate where an effect was planted: pooled log-loss difference interval below 0, AUC interval above 0.5', () => {
    const data = plantedRows(60, 150, 11);
    const result = evaluateModel(data, features, dayFolds(data.dayIndex, 60, 4), {});
    expect(result.model).toBe('logistic-l2');
    expect(result.baseline).toBe('base-rate');
    expect(result.folds.map((fold) => fold.fold)).toEqual([1, 2, 3, 4]);
    expect(result.pooled.rows).toBe(4 * 12 * 150);
    expect(result.pooled.days).toBe(48);
    for (const fold of result.folds) expect(fold.baseline.auc).toBe(0.5); // one score per fold
    expect(result.pooled.testRowsOnly!.intervals.logLossDifference[1]).toBeLessThan(0);
    expect(result.pooled.testRowsOnly!.intervals.model.auc[0]).toBeGreaterThan(0.6);
    const [low, high] = result.pooled.testRowsOnly!.intervals.model.auc;
    expect(low).toBeLessThanOrEqual(result.pooled.model.auc);
    expect(high).toBeGreaterThanOrEqual(result.pooled.model.auc);
  });

  it('finds nothing where nothing was planted: the log-loss difference interval holds 0 or lies above it', () => {
    const data = plantedRows(60, 150, 12, 0);
    const result = evaluateModel(data, features, dayFolds(data.dayIndex, 60, 4), {});
    expect(result.pooled.testRowsOnly!.intervals.logLossDifference[1]).toBeGreaterThanOrEqual(0);
    expect(result.pooled.testRowsOnly!.intervals.model.auc[0]).toBeLessThan(0.5);
    expect(result.pooled.testRowsOnly!.intervals.model.auc[1]).toBeGreaterThan(0.5);
  });

  it('leaves out and counts rows with a missing target or predictor; the baseline predicts the train base rate', () => {
    const data = plantedRows(10, 20, 2);
    data.target[0] = null; // train, fold 1
    data.target[100] = null; // test, fold 1 (day 5)
    data.rows[1]!.oi_usd = null; // train
    data.rows[101]!.volume_ratio_20 = Number.NaN; // test
    const folds: ModelFold[] = [{ fold: 1, train: Uint32Array.from({ length: 100 }, (_, i) => i), test: Uint32Array.from({ length: 100 }, (_, i) => 100 + i) }];
    const result = evaluateModel(data, features, folds, {});
    const [fold] = result.folds;
    expect(fold!.trainLeftOut).toEqual({ missingTarget: 1, missingPredictor: 1 });
    expect(fold!.testLeftOut).toEqual({ missingTarget: 1, missingPredictor: 1 });
    expect(fold!.trainRows).toBe(98);
    expect(fold!.rows).toBe(98);
    const kept = Array.from({ length: 100 }, (_, i) => i).filter((i) => i !== 0 && i !== 1);
    const rate = kept.reduce((sum, i) => sum + (data.target[i] as number), 0) / kept.length;
    expect(fold!.trainBaseRate).toBeCloseTo(rate, 15);
    const baseline = new BaseRateModel();
    const { matrix } = featureMatrix(data.rows, features, kept);
    baseline.fit(matrix, Float64Array.from(kept, (i) => data.target[i] as number));
    expect(baseline.rate).toBeCloseTo(rate, 15);
  });

  it('is deterministic; the old `bootstrap` key still sets the level and block length, its samples and seed change nothing', () => {
    const data = plantedRows(30, 50, 4);
    const folds = dayFolds(data.dayIndex, 30, 2);
    const a = evaluateModel(data, features, folds, { interval: { confidence: 0.9, blockDays: 1 } });
    expect(evaluateModel(data, features, folds, { interval: { confidence: 0.9, blockDays: 1 } })).toEqual(a);
    const alias = evaluateModel(data, features, folds, { bootstrap: { samples: 200, seed: 9, confidence: 0.9, blockDays: 1 } });
    expect(alias).toEqual(a);
    expect(a.interval).toEqual({
      method: 'block-jackknife',
      confidence: 0.9,
      blockDays: 1,
      minBlocks: MIN_INTERVAL_BLOCKS,
      description: "90% block-jackknife t intervals over 1-day blocks of test days (G−1 df, fitted models fixed); pooled: Nadeau–Bengio corrected resampled t over the 2 folds' scores (1 df)",
      calibration: intervalCalibrationNote('model'),
    });
    // A wider level widens every interval around the same estimate.
    const wide = evaluateModel(data, features, folds, { interval: { confidence: 0.99 } });
    expect(wide.pooled.model).toEqual(a.pooled.model);
    expect(wide.pooled.testRowsOnly!.intervals.model.auc[0]).toBeLessThan(a.pooled.testRowsOnly!.intervals.model.auc[0]);
    expect(wide.pooled.testRowsOnly!.intervals.model.auc[1]).toBeGreaterThan(a.pooled.testRowsOnly!.intervals.model.auc[1]);
  });

  it('fold intervals are the block jackknife of the SAME fitted fold model (no refit), equal to a plain recomputation', () => {
    const data = plantedRows(40, 30, 8);
    const folds = dayFolds(data.dayIndex, 40, 1); // train days 0-19, test days 20-39
    const blockDays = 2;
    const result = evaluateModel(data, features, folds, { interval: { blockDays } });
    const fold = folds[0]!;
    // The fold's model, fitted as evaluateModel fits it (every row complete here), predicts its test rows.
    const { matrix: train } = featureMatrix(data.rows, features, Array.from(fold.train));
    const { matrix: test } = featureMatrix(data.rows, features, Array.from(fold.test));
    const model = new LogisticRegression();
    model.fit(train, Float64Array.from(fold.train, (i) => data.target[i] as number));
    const p = model.predict(test);
    const baseline = new BaseRateModel();
    baseline.fit(train, Float64Array.from(fold.train, (i) => data.target[i] as number));
    const q = baseline.predict(test);
    const y = Array.from(fold.test, (i) => data.target[i] as number);
    const block = Array.from(fold.test, (i) => Math.floor((data.dayIndex[i]! - 20) / blockDays));
    const expected = plainJackknife(y, p, q, block, 0.95);
    const scored = result.folds[0]!;
    expect(scored.blocks).toBe(10);
    expectClose(scored.intervals.model.auc, expected.auc);
    expectClose(scored.intervals.model.logLoss, expected.modelLogLoss);
    expectClose(scored.intervals.baseline.logLoss, expected.baselineLogLoss);
    expectClose(scored.intervals.logLossDifference, expected.difference);
    expectClose(scored.intervals.model.accuracy, expected.modelAccuracy);
    expect(scored.pValues.auc).toBeCloseTo(expected.aucP, 9);
  });

  it('pooled AUC counts pairs within a fold only (fold models are not one ranking); its interval is the jackknife of those pairs', () => {
    const data = plantedRows(40, 30, 9);
    const folds = dayFolds(data.dayIndex, 40, 3);
    const result = evaluateModel(data, features, folds);
    // Every test row with its fold's model's score, its fold and its day, from the folds' own predictions.
    const rows: { y: number; p: number; fold: number; day: number }[] = [];
    for (const fold of folds) {
      const { matrix: train } = featureMatrix(data.rows, features, Array.from(fold.train));
      const { matrix: test } = featureMatrix(data.rows, features, Array.from(fold.test));
      const model = new LogisticRegression();
      model.fit(train, Float64Array.from(fold.train, (i) => data.target[i] as number));
      const p = model.predict(test);
      fold.test.forEach((i, k) => rows.push({ y: data.target[i] as number, p: p[k]!, fold: fold.fold, day: data.dayIndex[i]! }));
    }
    const y = rows.map((r) => r.y);
    const p = rows.map((r) => r.p);
    const sameFoldAuc = (keep: (i: number) => boolean) => pairAuc(y, p, keep, (i, j) => rows[i]!.fold === rows[j]!.fold);
    const pooled = result.pooled;
    expect(pooled.model.auc).toBeCloseTo(sameFoldAuc(() => true), 12);
    expect(Math.abs(pooled.model.auc - pairAuc(y, p, () => true))).toBeGreaterThan(1e-6); // not the AUC of all pairs
    const firstDay = Math.min(...rows.map((r) => r.day));
    const blocks = [...new Set(rows.map((r) => r.day - firstDay))].sort((a, b) => a - b); // 1-day blocks
    const leaveOut = blocks.map((g) => sameFoldAuc((i) => rows[i]!.day - firstDay !== g));
    expect(pooled.overFolds?.folds).toBe(3); // the shown pooled interval comes from the folds (corrected-resampled-t.test.ts)
    expectClose(pooled.testRowsOnly!.intervals.model.auc, plainInterval(pooled.model.auc, leaveOut, 0.95).interval);
  });

  it("pooledInterval 'test-days' (walk-forward's): the pooled row shows the jackknife over every fold's test days, and says so", () => {
    const data = plantedRows(40, 30, 9);
    const folds = dayFolds(data.dayIndex, 40, 3);
    const byFolds = evaluateModel(data, features, folds);
    const byDays = evaluateModel(data, features, folds, { pooledInterval: 'test-days' });
    // The same fits and scores; the shown pooled intervals and p-values are k-fold's unshown test-rows jackknife.
    expect(byDays.folds).toEqual(byFolds.folds);
    expect(byDays.pooled.model).toEqual(byFolds.pooled.model);
    expect(byDays.pooled.intervals).toEqual(byFolds.pooled.testRowsOnly!.intervals);
    expect(byDays.pooled.pValues).toEqual(byFolds.pooled.testRowsOnly!.pValues);
    expect(byDays.pooled.overFolds).toBeUndefined();
    expect(byDays.pooled.testRowsOnly).toBeUndefined();
    expect(byDays.interval.description).toContain("pooled: the same over the 3 folds' test days together");
    const error = thrown(() => evaluateModel(data, features, folds, { pooledInterval: 'days' as never })) as AnalysisOptionError;
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error!.option).toBe('pooledInterval');
    expect(error!.message).toBe('The model option pooledInterval must be one of folds, test-days, not days.');
  });

  it('gives no interval (NaN) to a fold with fewer blocks than MIN_INTERVAL_BLOCKS, and says how many more test days it needs', () => {
    const data = plantedRows(40, 30, 6);
    const blockDays = 2;
    const needed = daysForInterval(blockDays, MIN_INTERVAL_BLOCKS);
    // Two folds of needed − 2 test days each: MIN_INTERVAL_BLOCKS − 1 blocks per fold; pooled, twice as many.
    const testDays = needed - 2;
    const folds: ModelFold[] = [0, 1].map((f) => {
      const first = 40 - (2 - f) * testDays;
      return {
        fold: f + 1,
        train: Uint32Array.from(data.dayIndex.flatMap((d, i) => (d < 40 - 2 * testDays ? [i] : []))),
        test: Uint32Array.from(data.dayIndex.flatMap((d, i) => (d >= first && d < first + testDays ? [i] : []))),
      };
    });
    const result = evaluateModel(data, features, folds, { interval: { blockDays } });
    const flat = (scored: typeof result.pooled) => [
      ...scored.intervals.model.auc,
      ...scored.intervals.model.logLoss,
      ...scored.intervals.model.accuracy,
      ...scored.intervals.baseline.logLoss,
      ...scored.intervals.baseline.accuracy,
      ...scored.intervals.logLossDifference,
      scored.pValues.auc,
      scored.pValues.logLossDifference,
    ];
    for (const fold of result.folds) {
      expect(fold.blocks).toBe(MIN_INTERVAL_BLOCKS - 1);
      expect(fold.noInterval).toBe('too_few_blocks');
      expect(flat(fold).every(Number.isNaN)).toBe(true);
      expect(Number.isFinite(fold.model.auc)).toBe(true); // the scores themselves stay
    }
    // The pooled row of several folds has its interval from the folds' scores (Nadeau & Bengio), blocks or not:
    // written out here from the folds' scores, rows and train rows.
    expect(result.pooled.noInterval).toBeUndefined();
    expect(result.pooled.overFolds?.folds).toBe(result.folds.length);
    const j = result.folds.length;
    const ratio = result.folds.reduce((sum, fold) => sum + fold.rows, 0) / result.folds.reduce((sum, fold) => sum + fold.trainRows, 0);
    const plainOverFolds = (estimate: number, scores: number[], nullValue: number, [min, max] = [-Infinity, Infinity]) => {
      const mean = meanOf(scores);
      const se = Math.sqrt((1 / j + ratio) * (scores.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (j - 1)));
      const t = jStat.studentt.inv(0.975, j - 1);
      return { interval: [Math.max(min, estimate - t * se), Math.min(max, estimate + t * se)], p: 2 * jStat.studentt.cdf(-Math.abs(estimate - nullValue) / se, j - 1) };
    };
    const pooledAuc = plainOverFolds(result.pooled.model.auc, result.folds.map((fold) => fold.model.auc), 0.5, [0, 1]);
    const pooledDifference = plainOverFolds(result.pooled.logLossDifference, result.folds.map((fold) => fold.logLossDifference), 0);
    expectClose(result.pooled.intervals.model.auc, pooledAuc.interval);
    expectClose(result.pooled.intervals.logLossDifference, pooledDifference.interval);
    // A log loss is ≥ 0: the interval is cut there (few folds and a wide t reach below it here).
    expectClose(result.pooled.intervals.model.logLoss, plainOverFolds(result.pooled.model.logLoss, result.folds.map((fold) => fold.model.logLoss), 0, [0, Infinity]).interval);
    expect(Math.abs(result.pooled.pValues.auc - pooledAuc.p)).toBeLessThan(1e-9);
    expect(Math.abs(result.pooled.pValues.logLossDifference - pooledDifference.p)).toBeLessThan(1e-9);
    expect(flat({ ...result.pooled, ...result.pooled.testRowsOnly! }).some(Number.isNaN)).toBe(false);
    expect(result.interval.description).toBe(modellingMessages.modelIntervalMethod(0.95, blockDays, { over: 'folds', folds: j }));
    expect(result.interval.description).toContain(`pooled: Nadeau–Bengio corrected resampled t over the ${j} folds' scores (${j - 1} df)`);
    expect(result.intervalNote).toBe(
      `No fold shows an interval: ${testDays} test days (the shortest fold's) make ${MIN_INTERVAL_BLOCKS - 1} blocks of ${blockDays} days, and an interval needs ${MIN_INTERVAL_BLOCKS} blocks (${needed} test days per fold); give each fold 2+ more test days (pull about 4 more days, ${2 * needed} in all).`,
    );
  });

  it.each([
    [{ confidence: 1 }, 'interval.confidence', 'The model option interval.confidence must be a number strictly between 0 and 1, not 1.'],
    [{ blockDays: 0 }, 'interval.blockDays', 'The model option interval.blockDays must be an integer from 1 to 10,000, not 0.'],
    [{ blockDays: 1.5 }, 'interval.blockDays', 'The model option interval.blockDays must be an integer from 1 to 10,000, not 1.5.'],
  ])('refuses interval %j with AnalysisOptionError (%s), under the old bootstrap key too', (interval, option, message) => {
    const data = plantedRows(4, 10, 1);
    const folds = dayFolds(data.dayIndex, 4, 1);
    for (const options of [{ interval }, { bootstrap: interval }]) {
      const error = thrown(() => evaluateModel(data, features, folds, options)) as AnalysisOptionError;
      expect(error).toBeInstanceOf(AnalysisOptionError);
      expect(error!.option).toBe(option);
      expect(error!.message).toBe(message);
    }
  });

  it('says a fold fitted on no row has no scores, and the pooled row none either, instead of blaming one class', () => {
    // Session 37 left this: 'auto' embargo at 7d on a short span leaves folds 1-2 untrained, and the note said
    // "undefined (one class only) or every fold scores alike", a cause that was not this one.
    const data = plantedRows(60, 150, 11);
    const trained = dayFolds(data.dayIndex, 60, 3);
    const folds = trained.map((fold, f) => (f < 2 ? { ...fold, train: new Uint32Array(0) } : fold));
    const result = evaluateModel(data, features, folds);
    expect(result.folds.map((fold) => fold.trainRows)).toEqual([0, 0, expect.any(Number)]);
    expect(result.folds[2]!.trainRows).toBeGreaterThan(0);
    for (const fold of result.folds.slice(0, 2)) expect([fold.model.auc, fold.logLossDifference].every(Number.isNaN)).toBe(true);
    expect(Number.isFinite(result.folds[2]!.model.auc)).toBe(true);
    expect([result.pooled.model.auc, result.pooled.logLossDifference].every(Number.isNaN)).toBe(true);
    expect(result.intervalNote).toBe(
      'Folds 1, 2 have no scores: no row was left to train on (every other row was purged or embargoed around their test days, or misses a value), and the pooled row, which pools every fold, has none either; pull more days.',
    );
    const allUntrained = evaluateModel(data, features, trained.map((fold) => ({ ...fold, train: new Uint32Array(0) })));
    expect(allUntrained.intervalNote).toMatch(/^No fold has scores: no row was left to train on \(every other row was purged or embargoed around their test days/);
  });

  it('refuses a target that is not 0, 1 or missing, naming the row (a return passed where a class was meant)', () => {
    const data = plantedRows(4, 10, 1);
    data.target[7] = 0.25;
    const folds: ModelFold[] = [{ fold: 1, train: Uint32Array.from({ length: 20 }, (_, i) => i), test: Uint32Array.from({ length: 20 }, (_, i) => 20 + i) }];
    const error = thrown(() => evaluateModel(data, features, folds, {})) as AnalysisOptionError;
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error!.option).toBe('target');
    expect(error!.message).toBe(
      "The target target must be 1, 0 or null (missing) for every row, but row 7 gives 0.25; derive a binary target, e.g. derivedFeature('up', ['return_pct_1h'], 'return_pct_1h > 0').",
    );
    // Named when the data names it.
    expect(() => evaluateModel({ ...data, targetName: 'up_1h' }, features, folds)).toThrow(/^The target up_1h must be .* row 7 gives 0\.25;/);
  });
});
