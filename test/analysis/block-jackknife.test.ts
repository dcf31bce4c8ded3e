// The block jackknife's helpers the event study adds: the t quantile (refined past jStat's ~1e-8), calendar
// blocks from a given first day, the days a window still needs, and the leave-one-block-out difference.

import { describe, expect, it } from 'vitest';
import {
  MIN_INTERVAL_BLOCKS,
  assignDayBlocks,
  blockJackknifeInterval,
  bootstrapMeans,
  daysForInterval,
  leaveOneBlockOutDifferences,
  moreDaysForInterval,
  percentileInterval,
  studentTQuantile,
} from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

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

describe('the event study\'s jackknife on day-correlated rows', () => {
  it('covers the truth at about the nominal rate, where the row bootstrap does not', () => {
    // 150 studies of 30 days x 20 events + 10 controls; the events of a day share that day's shock (sd 1,
    // mean 0) on top of their own noise (sd 1), plus the effect 0.3; controls are noise. True difference:
    // 0.3; the row bootstrap treats the 600 events as independent and is about 2x too narrow.
    const random = seededRandom(21);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    let blockCovered = 0;
    let rowCovered = 0;
    const trials = 150;
    const days = 30;
    for (let trial = 0; trial < trials; trial += 1) {
      const totals = {
        eSum: new Float64Array(days),
        eCount: new Float64Array(days).fill(20),
        eSigned: new Float64Array(days).fill(20),
        cSum: new Float64Array(days),
        cCount: new Float64Array(days).fill(10),
      };
      const eRows: number[] = [];
      const cRows: number[] = [];
      for (let d = 0; d < days; d += 1) {
        const shock = normal();
        for (let i = 0; i < 20; i += 1) eRows.push(0.3 + shock + normal());
        for (let i = 0; i < 10; i += 1) cRows.push(normal());
        totals.eSum[d] = eRows.slice(-20).reduce((s, v) => s + v, 0);
        totals.cSum[d] = cRows.slice(-10).reduce((s, v) => s + v, 0);
      }
      const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;
      const estimate = mean(eRows) - mean(cRows);
      const interval = blockJackknifeInterval(estimate, leaveOneBlockOutDifferences(totals), { confidence: 0.9 });
      if (interval.kind === 'interval' && interval.low <= 0.3 && 0.3 <= interval.high) blockCovered += 1;
      const eMeans = bootstrapMeans(Float64Array.from(eRows), 300, trial);
      const cMeans = bootstrapMeans(Float64Array.from(cRows), 300, trial + 1000);
      const [low, high] = percentileInterval(eMeans.map((m, b) => m - cMeans[b]!), 0.9);
      if (low <= 0.3 && 0.3 <= high) rowCovered += 1;
    }
    expect(blockCovered / trials).toBeGreaterThan(0.82);
    expect(blockCovered / trials).toBeLessThan(0.97);
    expect(rowCovered / trials).toBeLessThan(0.6);
  });
});
