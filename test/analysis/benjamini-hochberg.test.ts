// The Benjamini–Hochberg adjustment against independent computations: hand-worked cases from the paper's
// definition, the step-up rank rule, and a brute-force q-value formula; ties and missing p-values.

import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

/** The BH (1995) step-up rule itself: reject H(1..k), k = max{ i : p(i) <= i/m · level }. */
function stepUpRejections(pValues: readonly number[], level: number): boolean[] {
  const m = pValues.length;
  const sorted = [...pValues].sort((a, b) => a - b);
  let k = 0;
  sorted.forEach((p, i) => {
    if (p <= ((i + 1) / m) * level) k = i + 1;
  });
  const threshold = k === 0 ? -1 : sorted[k - 1]!;
  return pValues.map((p) => p <= threshold);
}

/** q(i) = min over p(j) >= p(i) of p(j) · m / #{ k : p(k) <= p(j) }, capped at 1 (O(m²), no sorting). */
function bruteForceQ(pValues: readonly number[]): number[] {
  const m = pValues.length;
  return pValues.map((pi) => {
    let q = 1;
    for (const pj of pValues) {
      if (pj < pi) continue;
      const rank = pValues.filter((pk) => pk <= pj).length;
      q = Math.min(q, (pj * m) / rank);
    }
    return q;
  });
}

function randomPValues(random: () => number, m: number, options: { roundTo?: number; signals?: number } = {}): number[] {
  return Array.from({ length: m }, (_, i) => {
    // A few tiny p-values (signals) among uniform ones (nulls).
    let p = i < (options.signals ?? 0) ? random() * 1e-3 : random();
    if (options.roundTo) p = Math.round(p * options.roundTo) / options.roundTo;
    return p;
  });
}

describe('benjaminiHochberg', () => {
  it('matches a case worked by hand from the definition (input order kept)', () => {
    // sorted: 0.005 (rank 1), 0.01 (2), 0.03 (3), 0.04 (4); p·m/rank = 0.02, 0.02, 0.04, 0.04
    expect(benjaminiHochberg([0.01, 0.04, 0.03, 0.005])).toEqual([0.02, 0.04, 0.04, 0.02]);
    // the running minimum matters: p·m/rank = 0.03, 0.025 (rank 2 wins for rank 1 too), 0.9 → capped by nothing
    const q = benjaminiHochberg([0.01, 0.0125, 0.3]);
    expect(q[0]).toBeCloseTo(0.01875, 15);
    expect(q[1]).toBeCloseTo(0.01875, 15);
    expect(q[2]).toBeCloseTo(0.3, 15);
    expect(benjaminiHochberg([0.9, 0.8])).toEqual([0.9, 0.9]);
    expect(benjaminiHochberg([1, 1, 1])).toEqual([1, 1, 1]);
  });

  it("rejects exactly the paper's four hypotheses in Benjamini & Hochberg (1995), section 4.1, at 0.05", () => {
    const pValues = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719, 0.6528, 0.759, 1];
    const q = benjaminiHochberg(pValues);
    expect(q.map((value) => value! <= 0.05)).toEqual(pValues.map((_, i) => i < 4));
    expect(q[3]).toBeCloseTo((0.0095 * 15) / 4, 15);
    expect(q[4]).toBeCloseTo((0.0201 * 15) / 5, 15);
    expect(q[5]).toBeCloseTo((0.0298 * 15) / 7, 15); // rank 6 takes rank 7's smaller value (0.0639 < 0.0695)
  });

  it('agrees with the step-up rank rule at every level and with a brute-force q formula (random cases, ties)', () => {
    const random = seededRandom(18);
    const levels = [0.001, 0.01, 0.05, 0.1, 0.2, 0.5];
    for (let trial = 0; trial < 300; trial += 1) {
      const m = 1 + Math.floor(random() * 60);
      const pValues = randomPValues(random, m, { signals: Math.floor(random() * m), roundTo: trial % 3 === 0 ? 50 : undefined });
      const q = benjaminiHochberg(pValues) as number[];
      const reference = bruteForceQ(pValues);
      q.forEach((value, i) => expect(value).toBeCloseTo(reference[i]!, 12));
      for (const level of levels) expect(q.map((value) => value <= level)).toEqual(stepUpRejections(pValues, level));
    }
  });

  it('is monotone in p, never below p or above 1, and gives tied p-values one q', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 40; trial += 1) {
      const pValues = randomPValues(random, 40, { signals: 10, roundTo: 20 });
      const q = benjaminiHochberg(pValues) as number[];
      for (let i = 0; i < pValues.length; i += 1) {
        expect(q[i]).toBeGreaterThanOrEqual(pValues[i]!);
        expect(q[i]).toBeLessThanOrEqual(1);
        for (let j = 0; j < pValues.length; j += 1) {
          if (pValues[i]! <= pValues[j]!) expect(q[i]).toBeLessThanOrEqual(q[j]!);
          if (pValues[i] === pValues[j]) expect(q[i]).toBe(q[j]);
        }
      }
    }
  });

  it('leaves missing p-values (null, undefined, NaN) out of m and gives them a null q', () => {
    expect(benjaminiHochberg([0.01, null, Number.NaN, 0.04, undefined])).toEqual([0.02, null, null, 0.04, null]);
    expect(benjaminiHochberg([null, Number.NaN])).toEqual([null, null]);
    expect(benjaminiHochberg([])).toEqual([]);
  });
});
