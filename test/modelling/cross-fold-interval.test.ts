import { describe, expect, it } from 'vitest';
import jstatPackage from 'jstat';
import { AnalysisOptionError, defineFeatureSet } from '../../src/analysis/index.js';
import { randomStream } from '../../src/base/index.js';
import { crossFoldInterval, evaluateModel, LogisticRegression, type CrossFoldTestRows, type FeatureMatrix, type ScoreGeometry } from '../../src/modelling/index.js';
import { modellingMessages } from '../../src/modelling/messages.js';
import { plantedRows } from '../support/planted-model-rows.js';
import { thrown } from '../support/thrown.js';

const { jStat } = jstatPackage as unknown as { jStat: { studentt: { inv(p: number, df: number): number } } };

/** Geometry of `rows` rows with independent standard-normal scores of `dimension` parameters (information: rows × I). */
function geometry(random: ReturnType<typeof randomStream>, rows: number, dimension: number, scale = 1): ScoreGeometry {
  const information = new Float64Array(dimension * dimension);
  for (let a = 0; a < dimension; a += 1) information[a * dimension + a] = rows * scale * scale;
  return { dimension, scores: Float64Array.from({ length: rows * dimension }, () => scale * random.normal()), information };
}

/** `folds` folds of `days` days × `perDay` rows, a model of `dimension` parameters and a one-parameter baseline. */
function foldRows(folds: number, days: number, perDay: number, dimension: number, seed = 1): CrossFoldTestRows[] {
  const random = randomStream(seed, 'cross-fold test rows');
  return Array.from({ length: folds }, (_, f) => ({
    block: Int32Array.from({ length: days * perDay }, (_, i) => f * days + Math.floor(i / perDay)),
    model: geometry(random, days * perDay, dimension),
    baseline: geometry(random, days * perDay, 1),
  }));
}

describe('crossFoldInterval', () => {
  it('is deterministic and its interval excludes the null value exactly when p < 1 − confidence', () => {
    const rows = foldRows(5, 12, 50, 3);
    const first = crossFoldInterval(0.001, 0.0004, 59, rows);
    expect(crossFoldInterval(0.001, 0.0004, 59, rows)).toEqual(first);
    expect(first.kind).toBe('interval');
    for (let k = -10; k <= 10; k += 1) {
      const estimate = k * 0.0003;
      const result = crossFoldInterval(estimate, 0.0004, 59, rows);
      if (result.kind !== 'interval') throw new Error('no interval');
      expect(result.low).toBeLessThan(estimate);
      expect(result.high).toBeGreaterThan(estimate);
      expect(result.low > 0 || result.high < 0).toBe(result.pValue < 0.05);
    }
    // Beyond every draw: p is said as 1/draws, not 0.
    expect(crossFoldInterval(1, 0.0004, 59, rows)).toMatchObject({ kind: 'interval', pValue: 1 / 20_000 });
    expect(crossFoldInterval(1, 0.0004, 59, rows, { draws: 1000 })).toMatchObject({ kind: 'interval', pValue: 1 / 1000 });
  });

  it('adds the cross-fold term to the jackknife variance: Σ_{j<k} 2 w_j w_k r_jk r_kj tr((MΩ)²) / (n_j n_k), recomputed plainly', () => {
    // Unit information per row: M = diag(I, −1); Ω written out from the (fold, block) sums of the scores.
    const folds = 5;
    const days = 12;
    const perDay = 100;
    const rows = foldRows(folds, days, perDay, 2);
    const n = days * perDay;
    const total = folds * n;
    const omega = [0, 1, 2].map(() => [0, 0, 0]);
    for (const fold of rows) {
      const sums = Array.from({ length: days }, () => [0, 0, 0]);
      for (let i = 0; i < n; i += 1) {
        const day = Math.floor(i / perDay);
        sums[day]![0] += fold.model.scores[i * 2]!;
        sums[day]![1] += fold.model.scores[i * 2 + 1]!;
        sums[day]![2] += fold.baseline.scores[i]!;
      }
      const mean = [0, 1, 2].map((a) => sums.reduce((sum, day) => sum + day[a]!, 0) / n);
      for (const day of sums) for (let a = 0; a < 3; a += 1) for (let b = 0; b < 3; b += 1) omega[a]![b] += (day[a]! - perDay * mean[a]!) * (day[b]! - perDay * mean[b]!);
    }
    const groups = folds * days;
    const sign = [1, 1, -1];
    let traceSquare = 0;
    for (let a = 0; a < 3; a += 1) for (let b = 0; b < 3; b += 1) traceSquare += sign[a]! * sign[b]! * (omega[a]![b]! * groups / (groups - folds) / total) ** 2;
    const perPair = (2 * (1 / folds) ** 2 * (1 / (folds - 1)) ** 2 * traceSquare) / (n * n);
    const expected = Math.sqrt(((folds * (folds - 1)) / 2) * perPair);
    const result = crossFoldInterval(0, 0, days * folds - 1, rows);
    if (result.kind !== 'interval') throw new Error('no interval');
    expect(Math.abs(result.standardError / expected - 1)).toBeLessThan(1e-9);
    // With a jackknife standard error too: the two variances add.
    const both = crossFoldInterval(0, 2 * expected, days * folds - 1, rows);
    if (both.kind !== 'interval') throw new Error('no interval');
    expect(Math.abs(both.standardError / (Math.sqrt(5) * expected) - 1)).toBeLessThan(1e-9);
  });

  it('with a jackknife variance far above the cross-fold term, is the t interval of that variance (a first-order score)', () => {
    const rows = foldRows(5, 12, 50, 3);
    const se = 0.01; // the cross-fold term here is about 1e-3 of it
    const result = crossFoldInterval(0.02, se, 59, rows);
    if (result.kind !== 'interval') throw new Error('no interval');
    const t = jStat.studentt.inv(0.975, 59);
    expect(Math.abs(result.high - 0.02 - t * se) / (t * se)).toBeLessThan(0.03);
    expect(Math.abs(0.02 - result.low - t * se) / (t * se)).toBeLessThan(0.03);
  });

  it('does not change when a parameter is measured on another scale (a feature in dollars beside one in fractions)', () => {
    const rows = foldRows(5, 12, 50, 2);
    const rescaled = rows.map((fold) => {
      const scores = fold.model.scores.map((value, i) => (i % 2 === 1 ? value * 1e9 : value));
      const information = fold.model.information.map((value, i) => value * (i === 3 ? 1e18 : i === 1 || i === 2 ? 1e9 : 1));
      return { ...fold, model: { ...fold.model, scores, information } };
    });
    const a = crossFoldInterval(0.001, 0.0003, 59, rows);
    const b = crossFoldInterval(0.001, 0.0003, 59, rescaled);
    if (a.kind !== 'interval' || b.kind !== 'interval') throw new Error('no interval');
    expect(Math.abs(a.low - b.low)).toBeLessThan(1e-12);
    expect(Math.abs(a.high - b.high)).toBeLessThan(1e-12);
  });

  it.each([
    [{ draws: 10 }, 'draws', 'The model option draws must be an integer of at least 100, not 10.'],
    [{ confidence: 1 }, 'confidence', 'The model option confidence must be a number strictly between 0 and 1, not 1.'],
  ])('refuses %j with AnalysisOptionError (%s)', (options, option, message) => {
    const error = thrown(() => crossFoldInterval(0, 0.001, 35, foldRows(2, 12, 20, 2), options)) as AnalysisOptionError;
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error.option).toBe(option);
    expect(error.message).toBe(message);
  });

  it('gives none, saying why: one fold; an estimate or jackknife that is not a number; a fold of one block', () => {
    const rows = foldRows(3, 12, 20, 2);
    expect(crossFoldInterval(0, 0.001, 35, rows.slice(0, 1))).toMatchObject({ kind: 'none', reason: 'too_few_folds' });
    expect(crossFoldInterval(Number.NaN, 0.001, 35, rows)).toMatchObject({ kind: 'none', reason: 'not_estimable' });
    expect(crossFoldInterval(0, Number.NaN, 35, rows)).toMatchObject({ kind: 'none', reason: 'not_estimable' });
    const oneBlockEach = rows.map((fold) => ({ ...fold, block: new Int32Array(fold.block.length) }));
    expect(crossFoldInterval(0, 0.001, 35, oneBlockEach)).toMatchObject({ kind: 'none', reason: 'not_estimable' });
  });
});

describe('LogisticRegression.scoreGeometry', () => {
  it('gives scores that sum to 0 over the rows of an unpenalised fit, and the information Σ p(1 − p)(1, x)(1, x)ᵀ', () => {
    const data = plantedRows(10, 50, 3);
    const names = ['volume_ratio_20', 'taker_buy_fraction'];
    const x: FeatureMatrix = { values: Float64Array.from(data.rows.flatMap((row) => names.map((name) => row[name]!))), rows: data.rows.length, columns: 2, names };
    const y = Float64Array.from(data.target, (value) => value!);
    const model = new LogisticRegression({ l2: 0 });
    model.fit(x, y);
    const p = model.predict(x);
    const { dimension, scores, information } = model.scoreGeometry(x, y, p);
    expect(dimension).toBe(3);
    for (let a = 0; a < 3; a += 1) {
      let sum = 0;
      for (let i = 0; i < x.rows; i += 1) sum += scores[i * 3 + a]!;
      expect(Math.abs(sum)).toBeLessThan(1e-8);
    }
    // Written out: row (1, x1, x2), weight p(1 − p).
    let plain = 0;
    for (let i = 0; i < x.rows; i += 1) plain += p[i]! * (1 - p[i]!) * x.values[i * 2]! * x.values[i * 2 + 1]!;
    expect(information[1 * 3 + 2]).toBeCloseTo(plain, 9);
    expect(information[2 * 3 + 1]).toBe(information[1 * 3 + 2]);
  });
});

describe('evaluateModel: the pooled Δ log loss of k-folds', () => {
  const features = defineFeatureSet(['volume_ratio_20', 'taker_buy_fraction', 'oi_usd']);

  it("pooledDifference 'cross-fold': the cross-fold interval (the default models give their geometry), its AUC the corrected resampled t; the description says both", () => {
    const data = plantedRows(40, 30, 6, 0.2);
    const folds = [0, 1, 2, 3].map((f) => ({
      fold: f + 1,
      train: Uint32Array.from(data.dayIndex.flatMap((d, i) => (Math.floor(d / 10) !== f ? [i] : []))),
      test: Uint32Array.from(data.dayIndex.flatMap((d, i) => (Math.floor(d / 10) === f ? [i] : []))),
    }));
    // The default stays the corrected resampled t for every pooled score.
    expect(evaluateModel(data, features, folds).pooled.overFolds?.differenceMethod).toBe('corrected-resampled-t');
    const result = evaluateModel(data, features, folds, { pooledDifference: 'cross-fold' });
    const pooled = result.pooled;
    expect(pooled.overFolds?.differenceMethod).toBe('cross-fold');
    const [low, high] = pooled.intervals.logLossDifference;
    expect(low).toBeLessThan(pooled.logLossDifference);
    expect(high).toBeGreaterThan(pooled.logLossDifference);
    expect(low > 0 || high < 0).toBe(pooled.pValues.logLossDifference < 0.05);
    // Wider than the test-days jackknife alone (it adds the cross-fold term).
    const [jLow, jHigh] = pooled.testRowsOnly!.intervals.logLossDifference;
    expect(high - low).toBeGreaterThan(jHigh - jLow);
    expect(result.interval.description).toBe(modellingMessages.modelIntervalMethod(0.95, 1, { over: 'folds', folds: 4, difference: 'cross-fold' }));
    expect(result.interval.description).toContain("but Δ log loss: the same jackknife over every fold's test days plus the folds' cross-fold term");
  });

  it("keeps the corrected resampled t for a model without score geometry, and refuses an unknown pooledDifference", () => {
    const data = plantedRows(20, 30, 7, 0.2);
    const folds = [0, 1].map((f) => ({
      fold: f + 1,
      train: Uint32Array.from(data.dayIndex.flatMap((d, i) => (Math.floor(d / 10) !== f ? [i] : []))),
      test: Uint32Array.from(data.dayIndex.flatMap((d, i) => (Math.floor(d / 10) === f ? [i] : []))),
    }));
    const withoutGeometry = () => {
      const inner = new LogisticRegression();
      return { name: inner.name, fit: (x: FeatureMatrix, y: Float64Array) => inner.fit(x, y), predict: (x: FeatureMatrix) => inner.predict(x) };
    };
    const result = evaluateModel(data, features, folds, { pooledDifference: 'cross-fold', model: withoutGeometry });
    expect(result.pooled.overFolds?.differenceMethod).toBe('corrected-resampled-t');
    expect(result.pooled.intervals.logLossDifference).toEqual(evaluateModel(data, features, folds).pooled.intervals.logLossDifference);
    const error = thrown(() => evaluateModel(data, features, folds, { pooledDifference: 'bootstrap' as 'cross-fold' })) as AnalysisOptionError;
    expect(error).toBeInstanceOf(AnalysisOptionError);
    expect(error.option).toBe('pooledDifference');
    expect(error.message).toBe('The model option pooledDifference must be one of cross-fold, nested, corrected-resampled-t, not bootstrap.');
  });
});
