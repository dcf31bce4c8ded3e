// The block jackknife's helpers the event study adds: the t quantile (refined past jStat's ~1e-8), calendar
// blocks from a given first day, the days a window still needs, and the leave-one-block-out difference.

import { describe, expect, it } from 'vitest';
import {
  MIN_INTERVAL_BLOCKS,
  assignDayBlocks,
  daysForInterval,
  leaveOneBlockOutDifferences,
  moreDaysForInterval,
  studentTQuantile,
} from '../../src/analysis/index.js';

describe('studentTQuantile', () => {
  it('equals scipy.stats.t.ppf to 1e-9 relative (table values, scipy 1.17.1)', () => {
    const table: [number, number, number][] = [
      [0.975, 1, 12.706204736174694],
      [0.975, 7, 2.364624251592784],
      [0.975, 29, 2.045229642132703],
      [0.975, 59, 2.000995378088267],
      [0.95, 9, 1.833112932656237],
      [0.995, 19, 2.8609346064649794],
    ];
    for (const [p, df, q] of table) expect(Math.abs(studentTQuantile(p, df) - q) / q).toBeLessThan(1e-9);
  });
});

describe('assignDayBlocks from a first day', () => {
  it('counts calendar blocks from firstDay, whichever days hold rows; empty blocks are no block', () => {
    // days 10..12 and 17 from first day 9 in blocks of 3: [9-11] [12-14] [15-17] -> blocks 0, 0, 1, 2
    expect(Array.from(assignDayBlocks([10, 11, 12, 17], 3, 9).block)).toEqual([0, 0, 1, 2]);
    // without firstDay the earliest day (10) starts block 0: [10-12] [13-15] [16-18]; the empty middle block is dropped
    const { block, count } = assignDayBlocks([10, 11, 12, 17], 3);
    expect([Array.from(block), count]).toEqual([[0, 0, 0, 1], 2]);
  });
});

describe('moreDaysForInterval', () => {
  it('is daysForInterval minus the days there are, never below 0', () => {
    expect(moreDaysForInterval(53, 14)).toBe(daysForInterval(14) - 53);
    expect(moreDaysForInterval(daysForInterval(2) + 5, 2)).toBe(0);
    expect(daysForInterval(3)).toBe(3 * MIN_INTERVAL_BLOCKS);
  });
});

describe('leaveOneBlockOutDifferences', () => {
  it('recomputes mean(events) − share·mean(controls) without each block (hand-worked)', () => {
    // block 0: events 1 + 3 (one up, one down: signed 0), controls 2 (n 1); block 1: event 5 (up), controls 4 + 6
    const totals = {
      eSum: Float64Array.from([4, 5]),
      eCount: Float64Array.from([2, 1]),
      eSigned: Float64Array.from([0, 1]),
      cSum: Float64Array.from([2, 10]),
      cCount: Float64Array.from([1, 2]),
    };
    // without block 0: 5/1 − (1/1)·(10/2) = 0; without block 1: 4/2 − (0/2)·(2/1) = 2
    expect(Array.from(leaveOneBlockOutDifferences(totals))).toEqual([0, 2]);
    // a block holding every event: leaving it out leaves none (NaN: the interval is not estimable)
    const lonely = { ...totals, eSum: Float64Array.from([4, 0]), eCount: Float64Array.from([2, 0]), eSigned: Float64Array.from([0, 0]) };
    expect(Number.isNaN(leaveOneBlockOutDifferences(lonely)[0]!)).toBe(true);
  });
});
