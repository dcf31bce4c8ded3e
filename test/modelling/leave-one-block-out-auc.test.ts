import { describe, expect, it } from 'vitest';
import { pairAuc } from '../support/pair-auc.js';
import { MIN_INTERVAL_BLOCKS } from '../../src/analysis/block-jackknife.js';
import { leaveOneBlockOutAuc, rocAuc, scoreOrder, scoreWithIntervals } from '../../src/modelling/index.js';
import { seededRandom } from '../../src/base/index.js';

/** Rows with scores on a coarse grid (many ties, within and across blocks) and a weak link to the target. */
function rows(n: number, blocks: number, seed: number) {
  const random = seededRandom(seed);
  const p = new Float64Array(n);
  const y = new Float64Array(n);
  const block = new Int32Array(n);
  for (let i = 0; i < n; i += 1) {
    p[i] = Math.round(random() * 20) / 20;
    y[i] = random() < 0.3 + 0.4 * p[i]! ? 1 : 0;
    block[i] = Math.floor(random() * blocks);
  }
  return { p, y, block };
}

describe('leaveOneBlockOutAuc', () => {
  it.each([
    [400, 9, 1],
    [300, 25, 2],
    [50, 12, 3],
  ])('equals the AUC recomputed over every pair without each block (%i rows, %i blocks, seed %i)', (n, blocks, seed) => {
    const { p, y, block } = rows(n, blocks, seed);
    const out = leaveOneBlockOutAuc(y, p, scoreOrder(p), block, blocks);
    expect(out).toHaveLength(blocks);
    for (let g = 0; g < blocks; g += 1) {
      const expected = pairAuc(y, p, (i) => block[i] !== g);
      expect(Math.abs(out[g]! - expected)).toBeLessThan(1e-12);
    }
    expect(pairAuc(y, p, () => true)).toBeCloseTo(rocAuc(y, p), 12);
  });

  it('is NaN for a block whose removal leaves one class only, and everywhere for a NaN score', () => {
    const y = Float64Array.from([1, 1, 0, 1]);
    const p = Float64Array.from([0.9, 0.2, 0.4, 0.7]);
    const block = Int32Array.from([0, 0, 1, 2]); // block 1 holds the only negative
    const out = leaveOneBlockOutAuc(y, p, scoreOrder(p), block, 3);
    expect(Number.isNaN(out[1]!)).toBe(true);
    expect(out[0]).toBe(pairAuc(y, p, (i) => block[i] !== 0));
    expect(out[2]).toBe(pairAuc(y, p, (i) => block[i] !== 2));
    p[3] = Number.NaN;
    expect(Array.from(leaveOneBlockOutAuc(y, p, scoreOrder(p), block, 3)).every(Number.isNaN)).toBe(true);
  });
});

describe('scoreWithIntervals', () => {
  it('blocks count calendar days from the first day: a gap of days is no block, and days of one block stay together', () => {
    const { p, y } = rows(600, 1, 4);
    // Days 100..129 with days 110..114 missing: 25 days in blocks of 2 from day 100 → blocks 0..14 minus the two empty ones.
    const days = [...Array.from({ length: 10 }, (_, k) => 100 + k), ...Array.from({ length: 15 }, (_, k) => 115 + k)];
    const day = Float64Array.from(p, (_, i) => days[i % days.length]!);
    const scored = scoreWithIntervals(y, p, new Float64Array(p.length).fill(0.5), day, { confidence: 0.95, blockDays: 2, minBlocks: MIN_INTERVAL_BLOCKS });
    expect(scored.days).toBe(25);
    expect(scored.daySpan).toBe(30);
    expect(scored.blocks).toBe(13); // blocks 0-4 (days 100-109), block 7 (day 115), blocks 8-14 (116-129)
    expect(scored.noInterval).toBeUndefined();
    const [low, high] = scored.intervals.model.auc;
    expect(low).toBeLessThan(scored.model.auc);
    expect(high).toBeGreaterThan(scored.model.auc);
    // The baseline scores every row alike: its log-loss interval exists, and the difference's p-value tests 0.
    expect(Number.isFinite(scored.pValues.logLossDifference)).toBe(true);
  });
});
