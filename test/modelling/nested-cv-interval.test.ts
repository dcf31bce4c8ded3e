import { describe, expect, it } from 'vitest';
import { defineFeatureSet } from '../../src/analysis/index.js';
import { BaseRateModel, evaluateModel, LogisticRegression, type FeatureMatrix } from '../../src/modelling/index.js';
import { meanJackknifeVariance, nestedCvInterval } from '../../src/modelling/nested-cv-interval.js';
import { modellingMessages } from '../../src/modelling/messages.js';
import { plantedRows } from '../support/planted-model-rows.js';

// Nested cross-validation (Bates, Hastie & Tibshirani 2024): SE² = (J − 1)/J · (mean (inner − outer)² − mean
// own variance), bounded to [lower², J · lower²], t at J − 1 df. Worked by hand; t quantiles are scipy's
// (stats.t.ppf), not rdw's.

describe('nestedCvInterval', () => {
  const folds = [
    { outer: -0.004, inner: -0.001, outerVariance: 1e-6 },
    { outer: 0.002, inner: -0.002, outerVariance: 2e-6 },
    { outer: -0.001, inner: -0.0015, outerVariance: 1e-6 },
    { outer: -0.003, inner: 0.0005, outerVariance: 3e-6 },
    { outer: 0.0, inner: -0.002, outerVariance: 1e-6 },
  ];

  it('equals the hand-worked interval of five folds', () => {
    // (inner − outer)²: 9e-6, 16e-6, 0.25e-6, 12.25e-6, 4e-6 → mean 8.3e-6; mean own 1.6e-6; MSE 6.7e-6;
    // SE² = 4/5 · 6.7e-6 = 5.36e-6.
    const result = nestedCvInterval(-0.0012, folds, Number.NaN);
    expect(result.kind).toBe('interval');
    if (result.kind !== 'interval') return;
    expect(result.standardError).toBeCloseTo(Math.sqrt(5.36e-6), 12);
    const t975 = 2.7764451051977934; // scipy stats.t.ppf(0.975, 4)
    expect(result.low).toBeCloseTo(-0.0012 - t975 * Math.sqrt(5.36e-6), 12);
    expect(result.high).toBeCloseTo(-0.0012 + t975 * Math.sqrt(5.36e-6), 12);
    expect(result.degreesOfFreedom).toBe(4);
    expect(result.low > 0 || result.high < 0).toBe(result.pValue < 0.05);
  });

  it('is bounded below by the test-days jackknife and above by √J times it', () => {
    const below = nestedCvInterval(0, folds, 0.01);
    expect(below.kind === 'interval' && below.standardError).toBeCloseTo(0.01, 12);
    const above = nestedCvInterval(0, folds, 0.0005);
    expect(above.kind === 'interval' && above.standardError).toBeCloseTo(0.0005 * Math.sqrt(5), 12);
    // Own variance above the squares: the estimate is 0, lifted to the lower bound, or no interval without one.
    const noisy = folds.map((fold) => ({ ...fold, outerVariance: 1 }));
    expect(nestedCvInterval(0, noisy, 0.002)).toMatchObject({ kind: 'interval', standardError: 0.002 });
    expect(nestedCvInterval(0, noisy, Number.NaN)).toMatchObject({ kind: 'none', reason: 'no_variation' });
  });

  it('has no interval over fewer than three folds or with a term undefined', () => {
    expect(nestedCvInterval(0, folds.slice(0, 2), 0.001)).toMatchObject({ kind: 'none', reason: 'too_few_folds' });
    expect(nestedCvInterval(0, [...folds.slice(0, 4), { outer: 0, inner: Number.NaN, outerVariance: 0 }], 0.001)).toMatchObject({ kind: 'none', reason: 'not_estimable' });
    expect(nestedCvInterval(Number.NaN, folds, 0.001)).toMatchObject({ kind: 'none', reason: 'not_estimable' });
  });
});

describe('meanJackknifeVariance', () => {
  it('is the delete-one-block jackknife variance of the mean, (G − 1)/G Σ (θ₍g₎ − θ̄)²', () => {
    // Blocks {1, 3}, {2}, {4, 4, 4}: leave-one-out means (2+4+4+4)/4 = 3.5, (1+3+12)/5 = 3.2, (1+3+2)/3 = 2.
    const variance = meanJackknifeVariance([1, 2, 3, 4, 4, 4], [7, 8, 7, 9, 9, 9]);
    const loo = [3.5, 3.2, 2];
    const mean = (3.5 + 3.2 + 2) / 3;
    expect(variance).toBeCloseTo((2 / 3) * loo.reduce((a, b) => a + (b - mean) ** 2, 0), 14);
    expect(meanJackknifeVariance([1, 2], [5, 5])).toBeNaN();
  });
});

describe("evaluateModel pooledDifference 'nested'", () => {
  const features = defineFeatureSet(['volume_ratio_20', 'taker_buy_fraction', 'oi_usd']);
  const names = ['volume_ratio_20', 'taker_buy_fraction', 'oi_usd'];

  it('uses the inner models fitted on the rows that train both folds of each pair, recomputed plainly', () => {
    const data = plantedRows(40, 30, 15, 0.2);
    const fold = (d: number) => Math.floor(d / 10);
    // A purge of one day on each side of the test fold, as purged k-fold leaves (so train sets are not complements).
    const folds = [0, 1, 2, 3].map((f) => ({
      fold: f + 1,
      train: Uint32Array.from(data.dayIndex.flatMap((d, i) => (fold(d) !== f && Math.abs(d - (f * 10 + 4.5)) > 6 ? [i] : []))),
      test: Uint32Array.from(data.dayIndex.flatMap((d, i) => (fold(d) === f ? [i] : []))),
    }));
    const result = evaluateModel(data, features, folds, { pooledDifference: 'nested' });
    const pooled = result.pooled;
    expect(pooled.overFolds?.differenceMethod).toBe('nested');
    expect(result.interval.description).toBe(modellingMessages.modelIntervalMethod(0.95, 1, { over: 'folds', folds: 4, difference: 'nested' }));
    expect(result.interval.description).toContain('but Δ log loss: nested cross-validation');
    // The AUC's interval stays the corrected resampled t of the default.
    const plain = evaluateModel(data, features, folds);
    expect(pooled.intervals.model.auc).toEqual(plain.pooled.intervals.model.auc);
    expect(pooled.logLossDifference).toBe(plain.pooled.logLossDifference);

    // Plain recomputation: fit on rows in both train sets, mean Δ per row over the other folds' test rows.
    const matrix = (rows: number[]): FeatureMatrix => ({ values: Float64Array.from(rows.flatMap((i) => names.map((n) => data.rows[i]![n] as number))), rows: rows.length, columns: 3, names });
    const y = (rows: number[]) => Float64Array.from(rows, (i) => data.target[i] as number);
    const loss = (t: number, p: number) => -(t * Math.log(p) + (1 - t) * Math.log(1 - p));
    const delta = (trainRows: number[], testRows: number[]) => {
      const model = new LogisticRegression();
      const baseline = new BaseRateModel();
      model.fit(matrix(trainRows), y(trainRows));
      baseline.fit(matrix(trainRows), y(trainRows));
      const pm = model.predict(matrix(testRows));
      const pb = baseline.predict(matrix(testRows));
      return testRows.map((row, k) => loss(data.target[row] as number, pm[k]!) - loss(data.target[row] as number, pb[k]!));
    };
    const terms = folds.map((outer, k) => {
      const inner = folds.flatMap((other, i) => {
        if (i === k) return [];
        const both = [...other.train].filter((row) => outer.train.includes(row));
        return delta(both, [...other.test]);
      });
      const own = delta([...outer.train], [...outer.test]);
      const ownMean = own.reduce((a, b) => a + b, 0) / own.length;
      // Own variance: the day jackknife of the mean, written out.
      const days = [...new Set([...outer.test].map((row) => data.dayIndex[row]!))];
      const loo = days.map((day) => {
        const kept = own.filter((_, r) => data.dayIndex[outer.test[r]!] !== day);
        return kept.reduce((a, b) => a + b, 0) / kept.length;
      });
      const looMean = loo.reduce((a, b) => a + b, 0) / loo.length;
      const variance = ((loo.length - 1) / loo.length) * loo.reduce((a, b) => a + (b - looMean) ** 2, 0);
      return { inner: inner.reduce((a, b) => a + b, 0) / inner.length, outer: ownMean, variance };
    });
    const j = folds.length;
    const mse = terms.reduce((a, t) => a + (t.inner - t.outer) ** 2, 0) / j - terms.reduce((a, t) => a + t.variance, 0) / j;
    const lower = pooled.standardErrors.logLossDifference; // bounded as the paper bounds it
    const jackknife = plain.pooled.testRowsOnly!.intervals.logLossDifference;
    expect(Number.isFinite(jackknife[0])).toBe(true);
    // This data's nested estimate lies inside the bounds, so the check reads the inner fits, not a bound.
    const jse = jackknifeStandardError(plain)!;
    expect(((j - 1) / j) * mse).toBeGreaterThan(jse ** 2);
    expect(((j - 1) / j) * mse).toBeLessThan(j * jse ** 2);
    const expected = Math.min(Math.max(((j - 1) / j) * Math.max(0, mse), (jackknifeStandardError(plain) ?? 0) ** 2), j * (jackknifeStandardError(plain) ?? 0) ** 2);
    expect(lower).toBeCloseTo(Math.sqrt(expected), 10);
    const [low, high] = pooled.intervals.logLossDifference;
    expect(low > 0 || high < 0).toBe(pooled.pValues.logLossDifference < 0.05);
  });
});

/** The pooled test-days jackknife's standard error, from its interval's half-width and t quantile (blocks − 1 df). */
function jackknifeStandardError(evaluation: ReturnType<typeof evaluateModel>): number | undefined {
  const [low, high] = evaluation.pooled.testRowsOnly!.intervals.logLossDifference;
  if (!Number.isFinite(low)) return undefined;
  const df = evaluation.pooled.blocks - 1;
  // scipy stats.t.ppf(0.975, 39) for the 40 one-day blocks here.
  expect(df).toBe(39);
  return (high - low) / 2 / 2.0226909200367595;
}
