// Exploration mode of the calibration bench: coverage of the event-study difference's interval computed
// straight from per-day totals (the study's SQL), under a grid of block lengths (BLOCK_WINDOW_MULTIPLE) and
// minimum block counts (MIN_INTERVAL_BLOCKS) of the block jackknife, and for the moving-block day bootstrap
// at its defaults (before). Truth per window × group: the pooled difference over separate truth markets.

import { WINDOW_SECONDS, WINDOWS, type Window } from '../../../src/contract/index.js';
import { assignDayBlocks, blockJackknifeInterval, intervalBlockDays } from '../../../src/analysis/block-jackknife.js';
import { deriveSeed, percentileInterval } from '../../../src/analysis/bootstrap.js';
import { bootstrapPValue, clusterBootstrapDifferences, clustersCanVary, defaultBlockDays } from './day-bootstrap-before.js';
import { differenceOf, fromDay, leaveOneBlockOut, sumTotals, type GroupDayTotals } from './calibration-day-totals.js';

export const EXPLORE_MULTIPLES = [1, 2, 3, 4] as const;
export const EXPLORE_MIN_BLOCKS = [6, 8, 10, 12] as const;

/** One market's per-day totals over its longest span, and its newest day number. */
export interface MarketTotals {
  seed: number;
  lastDay: number;
  groups: GroupDayTotals[];
}

export const groupKey = (g: { window: string; eventKind: string; direction: string }) => `${g.window}|${g.eventKind}|${g.direction}`;

/** The market restricted to its newest `days` days. */
export function marketDays(market: MarketTotals, days: number): GroupDayTotals[] {
  return market.groups.map((group) => fromDay(group, market.lastDay - days + 1));
}

/** Truth of one window × group: the difference pooled over every truth market, with its delete-one-market SE. */
export interface GroupTruth {
  value: number;
  standardError: number;
  markets: number;
}

/** Pooled truth per group key over truth markets restricted to their newest `days` days. */
export function truthOf(truthMarkets: readonly MarketTotals[], days: number): Map<string, GroupTruth> {
  const perMarket = new Map<string, ReturnType<typeof sumTotals>[]>();
  for (const market of truthMarkets) {
    for (const group of marketDays(market, days)) {
      const key = groupKey(group);
      if (!perMarket.has(key)) perMarket.set(key, []);
      perMarket.get(key)!.push(sumTotals(group));
    }
  }
  const truth = new Map<string, GroupTruth>();
  for (const [key, sums] of perMarket) {
    const total = sums.reduce((a, s) => ({ eSum: a.eSum + s.eSum, eCount: a.eCount + s.eCount, eSigned: a.eSigned + s.eSigned, cSum: a.cSum + s.cSum, cCount: a.cCount + s.cCount }));
    const value = differenceOf(total);
    const loo = sums.map((s) => differenceOf({ eSum: total.eSum - s.eSum, eCount: total.eCount - s.eCount, eSigned: total.eSigned - s.eSigned, cSum: total.cSum - s.cSum, cCount: total.cCount - s.cCount }));
    const m = loo.length;
    const mean = loo.reduce((a, b) => a + b, 0) / m;
    const standardError = Math.sqrt(((m - 1) / m) * loo.reduce((a, b) => a + (b - mean) ** 2, 0));
    truth.set(key, { value, standardError, markets: m });
  }
  return truth;
}

/** Tally of one method's intervals in one cell (a window, or a window × group). */
export interface CoverageTally {
  shown: number;
  covered: number;
  withheld: Record<string, number>;
  /** Mean interval width of the shown intervals, percentage points. */
  meanWidth: number;
  /** Shown intervals excluding 0 with p ≥ 0.05 or including it with p < 0.05 (CI and p disagree). */
  disagree: number;
}

function emptyTally(): CoverageTally {
  return { shown: 0, covered: 0, withheld: {}, meanWidth: 0, disagree: 0 };
}

function record(tally: CoverageTally, interval: { low: number; high: number; pValue: number | null } | { reason: string }, truth: number): void {
  if ('reason' in interval) {
    tally.withheld[interval.reason] = (tally.withheld[interval.reason] ?? 0) + 1;
    return;
  }
  tally.meanWidth = (tally.meanWidth * tally.shown + (interval.high - interval.low)) / (tally.shown + 1);
  tally.shown += 1;
  if (interval.low <= truth && truth <= interval.high) tally.covered += 1;
  if (interval.pValue !== null && (interval.low > 0 || interval.high < 0) !== interval.pValue < 0.05) tally.disagree += 1;
}

/** A method's interval of one group's difference from its per-day totals (or why none). */
export type DayTotalsMethod = (group: GroupDayTotals, estimate: number) => { low: number; high: number; pValue: number | null } | { reason: string };

export function jackknifeMethod(multiple: number, minBlocks: number): DayTotalsMethod {
  return (group, estimate) => {
    const { block, count } = assignDayBlocks(group.days, intervalBlockDays(WINDOW_SECONDS[group.window], multiple));
    const interval = blockJackknifeInterval(estimate, leaveOneBlockOut(group, block, count), { minBlocks });
    return interval.kind === 'interval' ? { low: interval.low, high: interval.high, pValue: interval.pValue } : { reason: interval.reason };
  };
}

/** The moving-block day bootstrap as the study ran it before issue 28 (2000 draws, seed 1, auto block days). */
export function bootstrapMethod(samples = 2000): DayTotalsMethod {
  return (group, estimate) => {
    const blockDays = defaultBlockDays(WINDOW_SECONDS[group.window]);
    if (!clustersCanVary(group.days.length, blockDays)) return { reason: 'no_variation' };
    const draws = clusterBootstrapDifferences(
      { sums: group.eventSums, counts: group.eventCounts, signed: group.eventSigned },
      { sums: group.controlSums, counts: group.controlCounts },
      samples,
      deriveSeed(1, `day|${JSON.stringify([group.window, group.eventKind, group.direction])}`),
      blockDays,
    );
    const [low, high] = percentileInterval(draws, 0.95);
    if (Number.isNaN(low) || Number.isNaN(high)) return { reason: 'not_estimable' };
    return { low, high, pValue: bootstrapPValue(estimate, draws) };
  };
}

/** Coverage per window (and per window × group) of a method over markets of `days` days. */
export function coverageOf(markets: readonly MarketTotals[], days: number, truthFor: (market: MarketTotals) => Map<string, GroupTruth>, method: DayTotalsMethod) {
  const byWindow = new Map<Window, CoverageTally>(WINDOWS.map((w) => [w, emptyTally()]));
  const byGroup = new Map<string, CoverageTally>();
  for (const market of markets) {
    const truth = truthFor(market);
    for (const group of marketDays(market, days)) {
      const key = groupKey(group);
      const t = truth.get(key);
      if (!t) continue;
      const estimate = differenceOf(sumTotals(group));
      const interval = method(group, estimate);
      record(byWindow.get(group.window)!, interval, t.value);
      if (!byGroup.has(key)) byGroup.set(key, emptyTally());
      record(byGroup.get(key)!, interval, t.value);
    }
  }
  return { byWindow, byGroup };
}

export const coverageShare = (t: CoverageTally) => (t.shown > 0 ? t.covered / t.shown : Number.NaN);

/**
 * Per window: the spread of the difference across markets (its true sampling sd, the truth being common to
 * all seeds) over the root mean square of the block-jackknife SE, averaged over groups (1 = calibrated SE;
 * with M markets the sd itself is uncertain by about 1/√(2(M−1))). Independent of the truth's own error.
 */
export function spreadRatio(markets: readonly MarketTotals[], days: number, multiple: number): Record<string, { mean: number; min: number; max: number }> {
  const out: Record<string, { mean: number; min: number; max: number }> = {};
  for (const window of WINDOWS) {
    const estimates = new Map<string, number[]>();
    const squares = new Map<string, number[]>();
    for (const market of markets) {
      for (const group of marketDays(market, days)) {
        if (group.window !== window) continue;
        const key = groupKey(group);
        const { block, count } = assignDayBlocks(group.days, intervalBlockDays(WINDOW_SECONDS[window], multiple));
        const loo = leaveOneBlockOut(group, block, count);
        const mean = loo.reduce((a, b) => a + b, 0) / count;
        const variance = ((count - 1) / count) * loo.reduce((a, b) => a + (b - mean) ** 2, 0);
        if (!estimates.has(key)) (estimates.set(key, []), squares.set(key, []));
        estimates.get(key)!.push(differenceOf(sumTotals(group)));
        squares.get(key)!.push(variance);
      }
    }
    const ratios = [...estimates.keys()].map((key) => {
      const values = estimates.get(key)!;
      const mu = values.reduce((a, b) => a + b, 0) / values.length;
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mu) ** 2, 0) / (values.length - 1));
      return sd / Math.sqrt(squares.get(key)!.reduce((a, b) => a + b, 0) / values.length);
    });
    out[window] = { mean: Number((ratios.reduce((a, b) => a + b, 0) / ratios.length).toFixed(3)), min: Number(Math.min(...ratios).toFixed(3)), max: Number(Math.max(...ratios).toFixed(3)) };
  }
  return out;
}
