import { describe, expect, it } from 'vitest';
import { correctedResampledInterval, testToTrainRatio } from '../../src/modelling/corrected-resampled-t.js';

// Nadeau & Bengio (2003), corrected resampled t: SE² = (1/J + n_test/n_train) · s², t at J − 1 df. The
// expected numbers are worked by hand below; the t quantiles and tail probabilities are scipy's
// (scipy 1.17: stats.t.ppf / stats.t.sf), not jStat's, so the check is independent of rdw's t.

describe('correctedResampledInterval (Nadeau & Bengio corrected resampled t)', () => {
  it('equals the hand-worked interval of five fold AUCs, with its p-value against 0.5', () => {
    // Scores 0.52 0.55 0.50 0.53 0.56: mean 0.532; squared deviations 0.000144 + 0.000324 + 0.001024 +
    // 0.000004 + 0.000784 = 0.00228; s² = 0.00228 / 4 = 0.00057; SE² = (1/5 + 0.25) · 0.00057 = 0.0002565.
    const se = Math.sqrt(0.0002565);
    const t975 = 2.7764451051977934; // scipy stats.t.ppf(0.975, 4)
    const result = correctedResampledInterval(0.531, [0.52, 0.55, 0.5, 0.53, 0.56], 0.25, { nullValue: 0.5 });
    expect(result.kind).toBe('interval');
    if (result.kind !== 'interval') return;
    expect(result.standardError).toBeCloseTo(se, 14);
    expect(result.standardError).toBeCloseTo(0.016015617378046982, 14);
    expect(result.low).toBeCloseTo(0.531 - t975 * se, 10);
    expect(result.high).toBeCloseTo(0.531 + t975 * se, 10);
    expect(result.low).toBeCloseTo(0.48653351752400076, 10);
    expect(result.pValue).toBeCloseTo(0.12500634885601047, 9); // 2 · stats.t.sf(0.031 / SE, 4)
    expect(result.folds).toBe(5);
    expect(result.degreesOfFreedom).toBe(4);
  });

  it('equals the hand-worked interval of six Δ log losses at 90%, against 0', () => {
    // Mean −0.002333…; Σ squared deviations 3.7333e-5; s² = 7.4667e-6; SE² = (1/6 + 0.2) · s².
    const scores = [-0.004, -0.001, -0.006, 0.002, -0.003, -0.002];
    const result = correctedResampledInterval(-0.0025, scores, 0.2, { confidence: 0.9 });
    expect(result.kind).toBe('interval');
    if (result.kind !== 'interval') return;
    expect(result.standardError).toBeCloseTo(Math.sqrt((1 / 6 + 0.2) * 7.466666666666665e-6), 14);
    expect(result.low).toBeCloseTo(-0.0058341456925263425, 10); // t.ppf(0.95, 5) = 2.0150483733330233
    expect(result.high).toBeCloseTo(0.0008341456925263419, 10);
    expect(result.pValue).toBeCloseTo(0.191203064655843, 9);
  });

  it('is wider than the uncorrected t of the folds by sqrt(1 + J · n_test/n_train)', () => {
    const scores = [0.6, 0.58, 0.63, 0.61, 0.57];
    const plain = correctedResampledInterval(0.6, scores, 0);
    const corrected = correctedResampledInterval(0.6, scores, 0.25);
    if (plain.kind !== 'interval' || corrected.kind !== 'interval') throw new Error('no interval');
    expect(corrected.standardError / plain.standardError).toBeCloseTo(Math.sqrt(1 + 5 * 0.25), 12);
  });

  it('excludes the null exactly when p < 1 − level (one t for both), on seeded random folds', () => {
    let state = 7;
    const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    let excluded = 0;
    for (let k = 0; k < 400; k += 1) {
      const j = 2 + (k % 9);
      const scores = Array.from({ length: j }, () => 0.5 + (random() - 0.45) * 0.1);
      const confidence = [0.8, 0.9, 0.95, 0.99][k % 4]!;
      const result = correctedResampledInterval(scores.reduce((a, b) => a + b) / j, scores, 0.1 + random() * 0.3, { confidence, nullValue: 0.5 });
      if (result.kind !== 'interval') throw new Error('no interval');
      const excludes = result.low > 0.5 || result.high < 0.5;
      expect(excludes).toBe(result.pValue < 1 - confidence);
      if (excludes) excluded += 1;
    }
    expect(excluded).toBeGreaterThan(20); // both outcomes occur
    expect(excluded).toBeLessThan(380);
  });

  it('cuts the interval to the score\'s range, leaving the p-value as it is', () => {
    const scores = [0.24, 0.76, 0.18, 0.54, 0.6];
    const open = correctedResampledInterval(0.45, scores, 0.4, { nullValue: 0.5 });
    const cut = correctedResampledInterval(0.45, scores, 0.4, { nullValue: 0.5, bounds: [0, 1] });
    if (open.kind !== 'interval' || cut.kind !== 'interval') throw new Error('no interval');
    expect(open.low).toBeLessThan(0);
    expect(cut.low).toBe(0);
    expect(cut.high).toBe(open.high);
    expect(cut.pValue).toBe(open.pValue);
  });

  it('gives none, with the reason, for one fold, an undefined score, or folds that all score alike', () => {
    expect(correctedResampledInterval(0.5, [0.5], 0.25)).toEqual({ kind: 'none', reason: 'too_few_folds', folds: 1 });
    expect(correctedResampledInterval(0.5, [0.5, Number.NaN, 0.6], 0.25)).toEqual({ kind: 'none', reason: 'not_estimable', folds: 3 });
    expect(correctedResampledInterval(Number.NaN, [0.5, 0.6], 0.25)).toEqual({ kind: 'none', reason: 'not_estimable', folds: 2 });
    expect(correctedResampledInterval(0.5, [0.55, 0.55, 0.55], 0.25)).toEqual({ kind: 'none', reason: 'no_variation', folds: 3 });
  });

  it('testToTrainRatio is Σ test rows / Σ train rows', () => {
    expect(testToTrainRatio([{ rows: 100, trainRows: 380 }, { rows: 120, trainRows: 400 }])).toBeCloseTo(220 / 780, 15);
    expect(testToTrainRatio([{ rows: 10, trainRows: 0 }])).toBeNaN();
  });
});
