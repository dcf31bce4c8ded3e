import { describe, expect, it } from 'vitest';
import {
  bootstrapMeans,
  clusterBootstrapDifferences,
  clustersCanVary,
  defaultBlockDays,
  percentileInterval,
  type ClusterTotals,
  type EventClusterTotals,
} from '../../src/analysis/index.js';
import { seededRandom } from '../../src/base/index.js';

const totals = (sums: number[], counts: number[]): ClusterTotals => ({ sums: Float64Array.from(sums), counts: Float64Array.from(counts) });
/** Events all of one direction: signed = sign x count. */
const eventTotals = (sums: number[], counts: number[], sign = 1): EventClusterTotals => ({
  ...totals(sums, counts),
  signed: Float64Array.from(counts, (n) => sign * n),
});

describe('clusterBootstrapDifferences', () => {
  it('draws whole clusters with the seededRandom stream and takes events and controls of a day together', () => {
    const events = eventTotals([3, -1, 4, 1.5, -5], [2, 1, 3, 1, 2], -1);
    const controls = totals([1, 0.5, -2, 0, 2], [4, 2, 3, 1, 5]);
    const random = seededRandom(9);
    const expected = Array.from({ length: 6 }, () => {
      let [es, en, cs, cn] = [0, 0, 0, 0];
      for (let j = 0; j < 5; j += 1) {
        const d = Math.floor(random() * 5);
        es += events.sums[d]!;
        en += events.counts[d]!;
        cs += controls.sums[d]!;
        cn += controls.counts[d]!;
      }
      return es / en - (-1 * cs) / cn;
    });
    expect(Array.from(clusterBootstrapDifferences(events, controls, 6, 9))).toEqual(expected);
  });

  it('with one block as long as the sample, every draw is the full-sample difference', () => {
    const events = eventTotals([3, -1, 4], [2, 1, 3]);
    const controls = totals([1, 0.5, -2], [4, 2, 3]);
    const full = 6 / 6 - (1 * -0.5) / 9;
    for (const value of clusterBootstrapDifferences(events, controls, 20, 3, 3)) expect(value).toBeCloseTo(full, 12);
  });

  it('says when draws cannot differ: one day, or one block holding every day (the interval would be a point)', () => {
    expect([clustersCanVary(0, 1), clustersCanVary(1, 1), clustersCanVary(2, 2), clustersCanVary(8, 8), clustersCanVary(3, 9)]).toEqual([false, false, false, false, false]);
    expect([clustersCanVary(2, 1), clustersCanVary(3, 2), clustersCanVary(9, 8), clustersCanVary(2, 0.5)]).toEqual([true, true, true, true]);
    // What it guards: two days with blocks of 1 vary; three days with a block of 3 do not.
    const events = eventTotals([3, -1, 4], [2, 1, 3]);
    const controls = totals([1, 0.5, -2], [4, 2, 3]);
    expect(new Set(clusterBootstrapDifferences(events, controls, 50, 3, 3)).size).toBe(1);
    expect(new Set(clusterBootstrapDifferences(events, controls, 50, 3, 2)).size).toBeGreaterThan(1);
  });

  it('signs the controls by the drawn events\' mean direction when a group pools both directions', () => {
    // day 0: 3 up events, day 1: 1 down event; controls drift +1 on both days.
    const events: EventClusterTotals = { ...totals([0, 0], [3, 1]), signed: Float64Array.from([3, -1]) };
    const controls = totals([2, 2], [2, 2]);
    const draws = clusterBootstrapDifferences(events, controls, 1, 50, 2);
    // all day 0: -(3/3); one of each: -(2/4); all day 1: -(-1/1)
    for (const value of draws) expect([-1, -0.5, 1]).toContain(value);
  });

  it('gives NaN for draws without an event, and percentileInterval drops them', () => {
    const draws = clusterBootstrapDifferences(eventTotals([2, 0], [1, 0]), totals([1, 1], [1, 1]), 200, 4);
    const nan = draws.filter((v) => Number.isNaN(v)).length;
    expect(nan).toBeGreaterThan(20); // P(no draw of day 0) = 1/4
    expect(nan).toBeLessThan(200);
    expect(percentileInterval(draws, 0.9)).toEqual([1, 1]);
    expect(Number.isNaN(clusterBootstrapDifferences(eventTotals([], []), totals([], []), 2, 1)[0]!)).toBe(true);
  });

  it('default block length spans the days an outcome window overlaps', () => {
    expect([900, 3600, 14_400, 86_400, 604_800].map(defaultBlockDays)).toEqual([1, 1, 1, 2, 8]);
  });

  it('covers the truth at about the nominal rate on day-correlated rows, where the row bootstrap does not', () => {
    // 150 studies of 30 days x 20 events + 10 controls; the events of a day share that day's shock (sd 1,
    // mean 0) on top of their own noise (sd 1), plus the effect 0.3; controls are noise. True difference:
    // 0.3; the row bootstrap treats the 600 events as independent and is about 2x too narrow.
    const random = seededRandom(21);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    let dayCovered = 0;
    let rowCovered = 0;
    const trials = 150;
    for (let trial = 0; trial < trials; trial += 1) {
      const days = 30;
      const e = eventTotals(new Array(days).fill(0), new Array(days).fill(20));
      const c = totals(new Array(days).fill(0), new Array(days).fill(10));
      const eRows: number[] = [];
      const cRows: number[] = [];
      for (let d = 0; d < days; d += 1) {
        const shock = normal();
        for (let i = 0; i < 20; i += 1) eRows.push(0.3 + shock + normal());
        for (let i = 0; i < 10; i += 1) cRows.push(normal());
        e.sums[d] = eRows.slice(-20).reduce((s, v) => s + v, 0);
        c.sums[d] = cRows.slice(-10).reduce((s, v) => s + v, 0);
      }
      const [low, high] = percentileInterval(clusterBootstrapDifferences(e, c, 300, trial), 0.9);
      if (low <= 0.3 && 0.3 <= high) dayCovered += 1;
      const eMeans = bootstrapMeans(Float64Array.from(eRows), 300, trial);
      const cMeans = bootstrapMeans(Float64Array.from(cRows), 300, trial + 1000);
      const [rLow, rHigh] = percentileInterval(eMeans.map((m, b) => m - cMeans[b]!), 0.9);
      if (rLow <= 0.3 && 0.3 <= rHigh) rowCovered += 1;
    }
    expect(dayCovered / trials).toBeGreaterThan(0.8);
    expect(dayCovered / trials).toBeLessThan(0.97);
    expect(rowCovered / trials).toBeLessThan(0.6);
  });
});
