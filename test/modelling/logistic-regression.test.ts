import { describe, expect, it } from 'vitest';
import { AnalysisOptionError, defineFeatureSet } from '../../src/analysis/index.js';
import { LogisticRegression, featureMatrix, type FeatureMatrix } from '../../src/modelling/index.js';
import { plantedRows } from '../support/planted-model-rows.js';

const features = defineFeatureSet(['volume_ratio_20', 'taker_buy_fraction', 'oi_usd']);

function matrix(rows: number[][]): FeatureMatrix {
  return { values: Float64Array.from(rows.flat()), rows: rows.length, columns: rows[0]!.length, names: rows[0]!.map((_, j) => `x${j}`) };
}

// An independent fit: plain gradient descent on the same objective (standardised features, population sd,
// Σ log loss + λ/2·‖β‖², intercept unpenalised), many small steps.
function gradientDescent(x: number[][], y: number[], l2: number, steps = 200_000, rate = 0.01): number[] {
  const n = x.length;
  const p = x[0]!.length;
  const means = Array.from({ length: p }, (_, j) => x.reduce((s, r) => s + r[j]!, 0) / n);
  const sds = means.map((m, j) => Math.sqrt(x.reduce((s, r) => s + (r[j]! - m) ** 2, 0) / n) || 1);
  const z = x.map((r) => r.map((v, j) => (v - means[j]!) / sds[j]!));
  const beta = new Array(p + 1).fill(0);
  for (let step = 0; step < steps; step += 1) {
    const g = new Array(p + 1).fill(0);
    for (let i = 0; i < n; i += 1) {
      const eta = beta[0] + z[i]!.reduce((s, v, j) => s + v * beta[j + 1], 0);
      const r = 1 / (1 + Math.exp(-eta)) - y[i]!;
      g[0] += r;
      for (let j = 0; j < p; j += 1) g[j + 1] += r * z[i]![j]!;
    }
    for (let j = 1; j <= p; j += 1) g[j] += l2 * beta[j];
    for (let j = 0; j <= p; j += 1) beta[j] -= (rate * g[j]) / n;
  }
  return beta;
}

describe('LogisticRegression (L2, Newton on standardised features)', () => {
  it('matches the closed form of one binary feature without penalty: logits of the two groups', () => {
    // x = 0: 3 of 10 positive; x = 1: 7 of 10 positive.
    const x = [...Array(10).fill([0]), ...Array(10).fill([1])] as number[][];
    const y = Float64Array.from([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0]);
    const model = new LogisticRegression({ l2: 0 });
    model.fit(matrix(x), y);
    const logit = (q: number) => Math.log(q / (1 - q));
    expect(model.coefficients.converged).toBe(true);
    expect(model.coefficients.interceptOriginal).toBeCloseTo(logit(0.3), 10);
    expect(model.coefficients.original[0]).toBeCloseTo(logit(0.7) - logit(0.3), 10);
    expect(model.predict(matrix([[0], [1]]))).toEqual(expect.objectContaining({ 0: expect.closeTo(0.3, 10), 1: expect.closeTo(0.7, 10) }));
  });

  it('matches plain gradient descent on a small penalised problem (λ = 1 and λ = 5)', () => {
    const x = [
      [0.5, 2.0], [1.5, 1.0], [-0.3, 0.2], [2.2, -1.0], [0.1, 0.4], [-1.2, 1.8], [0.9, -0.5], [1.1, 0.3], [-0.8, -0.2], [0.0, 1.1],
    ];
    const y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 1];
    for (const l2 of [1, 5]) {
      const model = new LogisticRegression({ l2 });
      model.fit(matrix(x), Float64Array.from(y));
      const reference = gradientDescent(x, y, l2);
      expect(model.coefficients.intercept).toBeCloseTo(reference[0], 6);
      expect(model.coefficients.standardised[0]).toBeCloseTo(reference[1], 6);
      expect(model.coefficients.standardised[1]).toBeCloseTo(reference[2], 6);
    }
  });

  it('finds the planted signs and ~0 for the feature without effect; standardises with the train fold only', () => {
    const data = plantedRows(40, 250, 3);
    const { matrix: x } = featureMatrix(data.rows, features);
    const model = new LogisticRegression();
    model.fit(x, Float64Array.from(data.target as number[]));
    const { original, means, converged } = model.coefficients;
    expect(converged).toBe(true);
    expect(original[0]).toBeGreaterThan(0.85);
    expect(original[0]).toBeLessThan(1.15);
    expect(original[1]).toBeLessThan(-0.55);
    expect(original[1]).toBeGreaterThan(-0.85);
    expect(Math.abs(original[2]! * 1e8)).toBeLessThan(0.08); // per standard deviation of oi_usd
    expect(means[2]).toBeCloseTo(x.values.filter((_, k) => k % 3 === 2).reduce((s, v) => s + v, 0) / x.rows, 0);
  });

  it('is deterministic: two fits give bit-identical coefficients and predictions', () => {
    const data = plantedRows(10, 100, 5);
    const { matrix: x } = featureMatrix(data.rows, features);
    const y = Float64Array.from(data.target as number[]);
    const a = new LogisticRegression();
    const b = new LogisticRegression();
    a.fit(x, y);
    b.fit(x, y);
    expect(b.coefficients).toEqual(a.coefficients);
    expect(b.predict(x)).toEqual(a.predict(x));
  });

  it.each([
    ['l2', { l2: -1 }],
    ['maxIterations', { maxIterations: 0 }],
    ['tolerance', { tolerance: Number.NaN }],
  ])('refuses a bad %s with AnalysisOptionError', (option, options) => {
    expect(() => new LogisticRegression(options)).toThrow(AnalysisOptionError);
    try {
      new LogisticRegression(options);
    } catch (error) {
      expect((error as AnalysisOptionError).code).toBe('RDW_ANALYSIS_OPTION');
    }
  });

  it('refuses to predict before a fit, and a target of the wrong length', () => {
    const model = new LogisticRegression();
    expect(() => model.predict(matrix([[1]]))).toThrow(AnalysisOptionError);
    expect(() => model.fit(matrix([[1], [2]]), new Float64Array(3))).toThrow(AnalysisOptionError);
  });
});
