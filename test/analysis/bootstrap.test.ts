import { describe, expect, it } from 'vitest';
import { bootstrapMeans, deriveSeed, percentileInterval, quantileSorted } from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

describe('bootstrap', () => {
  it('draws the same stream as seededRandom (floor(u * n) indices)', () => {
    const values = Float64Array.from({ length: 37 }, (_, i) => i * i - 3);
    const random = seededRandom(42);
    const expected = Array.from({ length: 5 }, () => {
      let sum = 0;
      for (let i = 0; i < values.length; i += 1) sum += values[Math.floor(random() * values.length)]!;
      return sum / values.length;
    });
    expect(Array.from(bootstrapMeans(values, 5, 42))).toEqual(expected);
  });

  it('gives NaN for no values and a constant for constant values', () => {
    expect(Number.isNaN(bootstrapMeans(new Float64Array(), 3, 1)[0]!)).toBe(true);
    expect(Array.from(bootstrapMeans(Float64Array.from([2, 2, 2]), 4, 1))).toEqual([2, 2, 2, 2]);
  });

  it('covers the true mean of a known sample at about the nominal rate', () => {
    // 200 samples of n=50 from a uniform(-1, 1) + 0.5: the 90% interval should cover 0.5 in ~90% of them.
    const random = seededRandom(7);
    let covered = 0;
    for (let trial = 0; trial < 200; trial += 1) {
      const values = Float64Array.from({ length: 50 }, () => random() * 2 - 1 + 0.5);
      const [low, high] = percentileInterval(bootstrapMeans(values, 400, trial), 0.9);
      if (low <= 0.5 && 0.5 <= high) covered += 1;
    }
    expect(covered / 200).toBeGreaterThan(0.8);
    expect(covered / 200).toBeLessThan(0.97);
  });

  it('interpolates quantiles (type 7) and derives seeds from keys', () => {
    expect(quantileSorted(Float64Array.from([1, 2, 3, 4]), 0.5)).toBe(2.5);
    expect(quantileSorted(Float64Array.from([1, 2, 3, 4]), 0)).toBe(1);
    expect(deriveSeed(1, 'a')).toBe(deriveSeed(1, 'a'));
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(1, 'b'));
    expect(deriveSeed(1, 'a')).not.toBe(deriveSeed(2, 'a'));
  });
});
