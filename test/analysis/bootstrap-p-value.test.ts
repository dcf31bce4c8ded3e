// The study's p-value: the normal tail against reference values, and the bootstrap-SE p-value against a
// count of draws beyond zero (the percentile-bootstrap p-value) where that count has resolution.

import { describe, expect, it } from 'vitest';
import { bootstrapPValue, normalTwoSidedPValue } from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

/** Normal draws (Box–Muller) with the given mean and standard deviation. */
function normalDraws(count: number, mean: number, sd: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  return Float64Array.from({ length: count }, () => mean + sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
}

describe('normalTwoSidedPValue', () => {
  it('equals erfc(|z|/√2) to 1.2e-7 relative (reference values from a double-precision erfc)', () => {
    const cases: [number, number][] = [
      [0, 1],
      [0.5, 0.6170750774519738],
      [1.959963984540054, 0.05],
      [-2.5758293035489004, 0.01],
      [3.2905267314919255, 0.001],
      [5, 5.733031437583892e-7],
      [8, 1.2441921148543639e-15],
    ];
    for (const [z, p] of cases) expect(Math.abs(normalTwoSidedPValue(z) - p) / p).toBeLessThan(1.2e-7);
  });
});

describe('bootstrapPValue', () => {
  it('is the normal tail of estimate / sd(draws)', () => {
    const draws = Float64Array.from([1, 2, 3, 4, 5]); // sd = sqrt(2.5)
    expect(bootstrapPValue(3, draws)).toBeCloseTo(normalTwoSidedPValue(3 / Math.sqrt(2.5)), 15);
    expect(bootstrapPValue(-3, draws)).toBe(bootstrapPValue(3, draws));
    expect(bootstrapPValue(0, draws)).toBeCloseTo(1, 6);
  });

  it('agrees with the share of draws on the far side of zero when the draws are normal', () => {
    for (const [estimate, seed] of [[1, 1], [2, 2], [2.5, 3]] as const) {
      const draws = normalDraws(200_000, estimate, 1, seed);
      const beyond = draws.filter((draw) => draw <= 0).length / draws.length;
      // two-sided percentile p-value: 2 · share of draws beyond 0 (standard error ≈ 0.001 here)
      expect(bootstrapPValue(estimate, draws)!).toBeCloseTo(2 * beyond, 2);
    }
  });

  it('drops NaN draws and is null when no test is possible', () => {
    expect(bootstrapPValue(3, Float64Array.from([1, Number.NaN, 2, 3, 4, 5, Number.NaN]))).toBe(bootstrapPValue(3, Float64Array.from([1, 2, 3, 4, 5])));
    expect(bootstrapPValue(null, Float64Array.from([1, 2]))).toBeNull();
    expect(bootstrapPValue(Number.NaN, Float64Array.from([1, 2]))).toBeNull();
    expect(bootstrapPValue(1, Float64Array.from([1]))).toBeNull();
    expect(bootstrapPValue(1, Float64Array.from([2, 2, 2]))).toBeNull();
    expect(bootstrapPValue(1, Float64Array.from([Number.NaN, Number.NaN, 3]))).toBeNull();
  });
});
