import { describe, expect, it } from 'vitest';
import { accuracy, logLoss, rocAuc } from '../../src/modelling/index.js';
import { seededRandom } from '../../src/base/index.js';

// Independent AUC: every positive-negative pair, a tie counting one half (O(n²)).
function pairwiseAuc(y: number[], p: number[], w: number[] = y.map(() => 1)): number {
  let pairs = 0;
  let total = 0;
  for (let i = 0; i < y.length; i += 1) {
    if (y[i] !== 1) continue;
    for (let j = 0; j < y.length; j += 1) {
      if (y[j] !== 0) continue;
      const weight = w[i]! * w[j]!;
      total += weight;
      pairs += weight * (p[i]! > p[j]! ? 1 : p[i] === p[j] ? 0.5 : 0);
    }
  }
  return pairs / total;
}

describe('classification metrics', () => {
  it('AUC of a hand-computed case with ties: 3.5 of 6 pairs', () => {
    // positives score 0.8, 0.4, 0.4; negatives 0.8, 0.2. Pairs: 0.8~0.8 = ½, 0.8>0.2, 0.4<0.8 (twice), 0.4>0.2 (twice).
    expect(rocAuc([1, 0, 1, 0, 1], [0.8, 0.8, 0.4, 0.2, 0.4])).toBeCloseTo(3.5 / 6, 15);
  });

  it.each([
    ['all tied', [1, 0, 1, 0], [0.3, 0.3, 0.3, 0.3], 0.5],
    ['perfect', [0, 0, 1, 1], [0.1, 0.2, 0.7, 0.9], 1],
    ['reversed', [1, 1, 0, 0], [0.1, 0.2, 0.7, 0.9], 0],
    ['one class only', [1, 1], [0.1, 0.2], Number.NaN],
    // a fold with no training rows predicts NaN: no AUC (this looped forever once)
    ['a NaN score', [1, 0, 1], [0.4, Number.NaN, 0.6], Number.NaN],
    ['every score NaN', [1, 0], [Number.NaN, Number.NaN], Number.NaN],
  ])('AUC: %s', (_name, y, p, expected) => {
    expect(rocAuc(y, p)).toBe(expected);
  });

  it('AUC equals the pairwise count on random data with many ties, with and without integer weights', () => {
    const random = seededRandom(7);
    const y = Array.from({ length: 300 }, () => (random() < 0.4 ? 1 : 0));
    const p = Array.from({ length: 300 }, () => Math.round(random() * 10) / 10);
    const w = Array.from({ length: 300 }, () => Math.floor(random() * 3));
    expect(rocAuc(y, p)).toBeCloseTo(pairwiseAuc(y, p), 12);
    expect(rocAuc(y, p, w)).toBeCloseTo(pairwiseAuc(y, p, w), 12);
  });

  it('log loss and accuracy at 0.5 by hand (natural log, p > 0.5 is class 1, clipping at 1e-15)', () => {
    expect(logLoss([1, 0], [0.8, 0.4])).toBeCloseTo(-(Math.log(0.8) + Math.log(0.6)) / 2, 15);
    expect(logLoss([1], [0])).toBeCloseTo(-Math.log(1e-15), 10);
    // classes 1, 0, 0, 0 (0.5 is not above 0.5): right on rows 1, 2 and 4.
    expect(accuracy([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.2])).toBe(0.75);
    expect(logLoss([], [])).toBeNaN();
  });
});
