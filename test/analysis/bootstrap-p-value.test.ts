// The row bootstrap's p-value: from the same draws and quantile rule as its percentile interval, so the
// interval excludes 0 exactly when p < 1 − confidence, at every level; hand-worked cases for the tails.

import { describe, expect, it } from 'vitest';
import { percentileBootstrapPValue, percentileInterval } from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

/** Normal draws (Box–Muller) with the given mean and standard deviation. */
function normalDraws(count: number, mean: number, sd: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: count }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

describe('percentileBootstrapPValue', () => {
  it('agrees with percentileInterval at every level: excludes 0 exactly when p < 1 − confidence', () => {
    let checked = 0;
    let excluded = 0;
    for (let seed = 1; seed <= 60; seed += 1) {
      const draws = normalDraws(200 + seed, (seed % 7) * 0.35, 1, seed);
      const p = percentileBootstrapPValue(draws)!;
      for (let confidence = 0.5; confidence < 0.999; confidence += 0.0137) {
        const [low, high] = percentileInterval(draws, confidence);
        const excludes = low > 0 || high < 0;
        expect(excludes).toBe(p < 1 - confidence);
        checked += 1;
        if (excludes) excluded += 1;
      }
    }
    // both outcomes occur, so the agreement is not trivial
    expect(excluded).toBeGreaterThan(checked / 10);
    expect(excluded).toBeLessThan(checked - checked / 10);
  });

  it('is twice the smaller interpolated share beyond 0 (hand-worked), 0 when every draw is on one side, at most 1', () => {
    // draws -1, 1, 2, 3, 4 (n − 1 = 4 steps): the type-7 quantile crosses 0 halfway between -1 and 1, at step 0.5,
    // so the share below 0 is 0.5 / 4 and p = 2 · 0.125 = 0.25
    expect(percentileBootstrapPValue(Float64Array.from([3, -1, 4, 1, 2]))).toBeCloseTo(0.25, 15);
    expect(percentileBootstrapPValue(Float64Array.from([-3, 1, -4, -1, -2]))).toBeCloseTo(0.25, 15);
    expect(percentileBootstrapPValue(Float64Array.from([1, 2, 3]))).toBe(0);
    expect(percentileBootstrapPValue(Float64Array.from([-2, -1, 1, 2]))).toBe(1);
    // tested against 1: the quantile reaches 1 at step 1 of 4, so p = 2 · 1/4
    expect(percentileBootstrapPValue(Float64Array.from([3, -1, 4, 1, 2]), 1)).toBeCloseTo(0.5, 15);
  });

  it('drops NaN draws; null with no draw left or every draw equal (no interval is possible)', () => {
    expect(percentileBootstrapPValue(Float64Array.from([3, Number.NaN, -1, 4, 1, 2]))).toBe(percentileBootstrapPValue(Float64Array.from([3, -1, 4, 1, 2])));
    expect(percentileBootstrapPValue(Float64Array.from([]))).toBeNull();
    expect(percentileBootstrapPValue(Float64Array.from([Number.NaN]))).toBeNull();
    expect(percentileBootstrapPValue(Float64Array.from([2, 2, 2]))).toBeNull();
  });
});
