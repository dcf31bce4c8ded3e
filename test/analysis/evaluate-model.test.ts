import { describe, expect, it } from 'vitest';
import {
  AnalysisOptionError,
  BaseRateModel,
  LeakageError,
  defineFeatureSet,
  evaluateModel,
  featureMatrix,
  type FeatureSet,
  type ModelFold,
} from '../../src/analysis/index.js';
import { plantedRows } from '../support/planted-model-rows.js';

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
    const result = evaluateModel(data, features, dayFolds(data.dayIndex, 60, 4), { bootstrap: { samples: 300 } });
    expect(result.model).toBe('logistic-l2');
    expect(result.baseline).toBe('base-rate');
    expect(result.folds.map((fold) => fold.fold)).toEqual([1, 2, 3, 4]);
    expect(result.pooled.rows).toBe(4 * 12 * 150);
    expect(result.pooled.days).toBe(48);
    for (const fold of result.folds) expect(fold.baseline.auc).toBe(0.5); // one score per fold
    expect(result.pooled.intervals.logLossDifference[1]).toBeLessThan(0);
    expect(result.pooled.intervals.model.auc[0]).toBeGreaterThan(0.6);
    const [low, high] = result.pooled.intervals.model.auc;
    expect(low).toBeLessThanOrEqual(result.pooled.model.auc);
    expect(high).toBeGreaterThanOrEqual(result.pooled.model.auc);
  });

  it('finds nothing where nothing was planted: the log-loss difference interval holds 0 or lies above it', () => {
    const data = plantedRows(60, 150, 12, 0);
    const result = evaluateModel(data, features, dayFolds(data.dayIndex, 60, 4), { bootstrap: { samples: 300 } });
    expect(result.pooled.intervals.logLossDifference[1]).toBeGreaterThanOrEqual(0);
    expect(result.pooled.intervals.model.auc[0]).toBeLessThan(0.5);
    expect(result.pooled.intervals.model.auc[1]).toBeGreaterThan(0.5);
  });

  it('leaves out and counts rows with a missing target or predictor; the baseline predicts the train base rate', () => {
    const data = plantedRows(10, 20, 2);
    data.target[0] = null; // train, fold 1
    data.target[100] = null; // test, fold 1 (day 5)
    data.rows[1]!.oi_usd = null; // train
    data.rows[101]!.volume_ratio_20 = Number.NaN; // test
    const folds: ModelFold[] = [{ fold: 1, train: Uint32Array.from({ length: 100 }, (_, i) => i), test: Uint32Array.from({ length: 100 }, (_, i) => 100 + i) }];
    const result = evaluateModel(data, features, folds, { bootstrap: { samples: 50 } });
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

  it('is deterministic for a seed, and the seed moves only the intervals', () => {
    const data = plantedRows(20, 50, 4);
    const folds = dayFolds(data.dayIndex, 20, 3);
    const a = evaluateModel(data, features, folds, { bootstrap: { samples: 200, seed: 9 } });
    const b = evaluateModel(data, features, folds, { bootstrap: { samples: 200, seed: 9 } });
    const c = evaluateModel(data, features, folds, { bootstrap: { samples: 200, seed: 10 } });
    expect(b).toEqual(a);
    const withoutIntervals = (folds: typeof a.folds) => folds.map(({ intervals: _intervals, ...rest }) => rest);
    expect(withoutIntervals(c.folds)).toEqual(withoutIntervals(a.folds));
    expect(c.pooled.model).toEqual(a.pooled.model);
    expect(c.pooled.intervals).not.toEqual(a.pooled.intervals);
    // each fold draws with its own seed: fold intervals differ between folds' seeds and from the pooled draws
    expect(c.folds[0]!.intervals).not.toEqual(a.folds[0]!.intervals);
  });

  it('gives no interval (NaN) where every draw would be the sample itself: one block as long as all days, or a one-day fold', () => {
    const data = plantedRows(20, 40, 6);
    const folds = dayFolds(data.dayIndex, 20, 3);
    const whole = evaluateModel(data, features, folds, { bootstrap: { samples: 20, blockDays: 15 } });
    expect(whole.pooled.days).toBe(15);
    const flat = (scored: typeof whole.pooled) => [
      ...scored.intervals.model.auc,
      ...scored.intervals.model.logLoss,
      ...scored.intervals.model.accuracy,
      ...scored.intervals.baseline.logLoss,
      ...scored.intervals.baseline.accuracy,
      ...scored.intervals.logLossDifference,
    ];
    expect(flat(whole.pooled).every(Number.isNaN)).toBe(true);
    expect(Number.isFinite(whole.pooled.model.auc)).toBe(true); // the scores themselves stay
    // One day shorter blocks: draws differ, and each interval holds its estimate.
    const shorter = evaluateModel(data, features, folds, { bootstrap: { samples: 200, blockDays: 14 } });
    const [low, high] = shorter.pooled.intervals.model.auc;
    expect(low).toBeLessThan(high);
    expect(low).toBeLessThanOrEqual(shorter.pooled.model.auc);
    expect(high).toBeGreaterThanOrEqual(shorter.pooled.model.auc);
    // A fold that tests one day has no interval of its own; the pooled part (several days) has one.
    const oneDayTests: ModelFold[] = [16, 18].map((day, f) => ({
      fold: f + 1,
      train: Uint32Array.from(data.dayIndex.flatMap((d, i) => (d < day - 1 ? [i] : []))),
      test: Uint32Array.from(data.dayIndex.flatMap((d, i) => (d === day ? [i] : []))),
    }));
    const perDay = evaluateModel(data, features, oneDayTests, { bootstrap: { samples: 50 } });
    for (const fold of perDay.folds) {
      expect(fold.days).toBe(1);
      expect(flat(fold).every(Number.isNaN)).toBe(true);
    }
    expect(perDay.pooled.days).toBe(2);
    expect(flat(perDay.pooled).some(Number.isNaN)).toBe(false);
  });

  it.each([
    [{ samples: 0 }, 'bootstrap.samples', 'samples must be an integer from 1 to 1,000,000'],
    [{ seed: 1.5 }, 'bootstrap.seed', 'seed must be an integer'],
    [{ confidence: 1 }, 'bootstrap.confidence', 'confidence must be strictly between 0 and 1'],
    [{ blockDays: 0 }, 'bootstrap.blockDays', 'blockDays must be an integer from 1 to 10,000'],
  ])('refuses bootstrap %j as the event study does (%s)', (bootstrap, option, rule) => {
    const data = plantedRows(4, 10, 1);
    const folds = dayFolds(data.dayIndex, 4, 1);
    const error = (() => {
      try {
        evaluateModel(data, features, folds, { bootstrap });
      } catch (caught) {
        return caught as AnalysisOptionError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error!.option).toBe(option);
    expect(error!.message).toBe(`Invalid bootstrap option: ${rule}.`);
  });

  it('refuses a target that is not 0, 1 or missing, naming the row (a return passed where a class was meant)', () => {
    const data = plantedRows(4, 10, 1);
    data.target[7] = 0.25;
    const folds: ModelFold[] = [{ fold: 1, train: Uint32Array.from({ length: 20 }, (_, i) => i), test: Uint32Array.from({ length: 20 }, (_, i) => 20 + i) }];
    const error = (() => {
      try {
        evaluateModel(data, features, folds, { bootstrap: { samples: 10 } });
      } catch (caught) {
        return caught as AnalysisOptionError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error!.option).toBe('target');
    expect(error!.message).toBe(
      "The target target must be 1, 0 or null (missing) for every row, but row 7 gives 0.25; derive a binary target, e.g. derivedFeature('up', ['return_pct_1h'], 'return_pct_1h > 0').",
    );
    // Named when the data names it.
    expect(() => evaluateModel({ ...data, targetName: 'up_1h' }, features, folds)).toThrow(/^The target up_1h must be .* row 7 gives 0\.25;/);
  });

  it.each([
    ['samples', { samples: 0 }],
    ['confidence', { confidence: 1 }],
    ['blockDays', { blockDays: 1.5 }],
  ])('refuses a bad bootstrap.%s with AnalysisOptionError', (_name, bootstrap) => {
    const data = plantedRows(4, 10, 1);
    expect(() => evaluateModel(data, features, [], { bootstrap })).toThrow(AnalysisOptionError);
  });
});
