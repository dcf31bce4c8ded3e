// Consecutive days of one pair's candles as one contiguous column set, addressed by global bar number
// (open_time / 300), so rules, features and outcomes can look across midnight.

import { BAR_SECONDS, CANDLE_COLUMNS, type CandleColumns, type DayCandles } from './day-candles.js';
import { BARS_PER_DAY } from './volatility-schedule.js';

/** The columns of a BarSeries: its days' columns joined (declared once, in CandleColumns; set by the constructor). */
export interface BarSeries extends CandleColumns {}

/** Candles of consecutive days; local index k covers bar number `firstBar + k`. */
export class BarSeries {
  /** Global bar number of local index 0. */
  readonly firstBar: number;
  readonly length: number;

  /** @param days consecutive days, oldest first. */
  constructor(days: readonly DayCandles[]) {
    const first = days[0];
    if (!first) throw new RangeError('BarSeries needs at least one day');
    this.firstBar = first.dayNumber * BARS_PER_DAY;
    this.length = days.length * BARS_PER_DAY;
    const columns: Partial<Record<keyof CandleColumns, Float64Array | Uint8Array>> = {};
    for (const name of CANDLE_COLUMNS) {
      // The day's own array type: Float64Array for values, Uint8Array for the missing/invalid flags.
      const column = new (first[name].constructor as Float64ArrayConstructor | Uint8ArrayConstructor)(this.length);
      days.forEach((day, index) => column.set(day[name], index * BARS_PER_DAY));
      columns[name] = column;
    }
    Object.assign(this, columns);
  }

  private index: SeriesIndex | undefined;

  /** Prefix counts, late bars and hourly extremes, built on first use (outcomes query them per row). */
  private get lookup(): SeriesIndex {
    this.index ??= buildIndex(this);
    return this.index;
  }

  /** Bars in [from, to) that are missing or not archived by `asOf` (UTC Unix seconds). */
  unavailableCount(from: number, to: number, asOf: number): number {
    const index = this.lookup;
    let count = (index.missingPrefix[to] as number) - (index.missingPrefix[from] as number);
    // Late bars: archived long after their close.
    for (const k of index.lateBars) if (k >= from && k < to && (this.archivedAt[k] as number) > asOf) count++;
    // On-time bars closing right before asOf may still be unarchived.
    for (let k = to - 1; k >= from && this.closeTime(k) > asOf - LATE_AFTER_SECONDS; k--) {
      if (this.missing[k] === 0 && !index.late[k] && (this.archivedAt[k] as number) > asOf) count++;
    }
    return count;
  }

  /**
   * The latest archive time at or before `asOf` of the bars in [from, to), or `floor` when it is later
   * (missing bars are never archived). Non-late bars are archived within 60 s of their close, so only the
   * late-bar list and the bars closing just before `floor` need a look.
   */
  latestArchival(from: number, to: number, asOf: number, floor: number): number {
    const index = this.lookup;
    let latest = floor;
    for (const k of index.lateBars) {
      const archived = this.archivedAt[k] as number;
      if (k >= from && k < to && archived <= asOf && archived > latest) latest = archived;
    }
    for (let k = to - 1; k >= from && this.closeTime(k) + LATE_AFTER_SECONDS > latest; k--) {
      const archived = this.archivedAt[k] as number;
      if (this.missing[k] === 0 && !index.late[k] && archived <= asOf && archived > latest) latest = archived;
    }
    return latest;
  }

  /** Bars in [from, to) flagged invalid_price. */
  invalidCount(from: number, to: number): number {
    const index = this.lookup;
    return (index.invalidPrefix[to] as number) - (index.invalidPrefix[from] as number);
  }

  /** Highest high and lowest low of bars [from, to). */
  extremes(from: number, to: number): { high: number; low: number } {
    const index = this.lookup;
    let high = -Infinity;
    let low = Infinity;
    let k = from;
    while (k < to && k % BLOCK_BARS !== 0) {
      high = Math.max(high, this.high[k] as number);
      low = Math.min(low, this.low[k] as number);
      k++;
    }
    while (k + BLOCK_BARS <= to) {
      const block = k / BLOCK_BARS;
      high = Math.max(high, index.blockHigh[block] as number);
      low = Math.min(low, index.blockLow[block] as number);
      k += BLOCK_BARS;
    }
    while (k < to) {
      high = Math.max(high, this.high[k] as number);
      low = Math.min(low, this.low[k] as number);
      k++;
    }
    return { high, low };
  }

  /** Local index of the bar opening at `openTime` (UTC Unix seconds, a multiple of 300). */
  indexAt(openTime: number): number {
    return (openTime / BAR_SECONDS - this.firstBar) | 0;
  }

  /** Open time of local index k, UTC Unix seconds. */
  openTime(k: number): number {
    return (this.firstBar + k) * BAR_SECONDS;
  }

  /** Close time of local index k (open time + 300), UTC Unix seconds. */
  closeTime(k: number): number {
    return (this.firstBar + k + 1) * BAR_SECONDS;
  }

  /** True when bars [from, to] exist and have valid prices (what the public rule engine needs). */
  usable(from: number, to: number): boolean {
    if (from < 0 || to >= this.length) return false;
    const index = this.lookup;
    return index.missingPrefix[to + 1] === index.missingPrefix[from] && index.invalidPrefix[to + 1] === index.invalidPrefix[from];
  }

}

/** Bars per extremes block (one hour). */
const BLOCK_BARS = 12;
/** A bar archived more than this after its close counts as late (seconds). */
const LATE_AFTER_SECONDS = 60;

interface SeriesIndex {
  missingPrefix: Int32Array;
  invalidPrefix: Int32Array;
  late: Uint8Array;
  lateBars: number[];
  blockHigh: Float64Array;
  blockLow: Float64Array;
}

function buildIndex(series: BarSeries): SeriesIndex {
  const n = series.length;
  const missingPrefix = new Int32Array(n + 1);
  const invalidPrefix = new Int32Array(n + 1);
  const late = new Uint8Array(n);
  const lateBars: number[] = [];
  const blocks = Math.ceil(n / BLOCK_BARS);
  const blockHigh = new Float64Array(blocks).fill(-Infinity);
  const blockLow = new Float64Array(blocks).fill(Infinity);
  for (let k = 0; k < n; k++) {
    missingPrefix[k + 1] = (missingPrefix[k] as number) + (series.missing[k] as number);
    invalidPrefix[k + 1] = (invalidPrefix[k] as number) + (series.invalid[k] as number);
    if (series.missing[k] === 0 && (series.archivedAt[k] as number) > series.closeTime(k) + LATE_AFTER_SECONDS) {
      late[k] = 1;
      lateBars.push(k);
    }
    const block = Math.floor(k / BLOCK_BARS);
    blockHigh[block] = Math.max(blockHigh[block] as number, series.high[k] as number);
    blockLow[block] = Math.min(blockLow[block] as number, series.low[k] as number);
  }
  return { missingPrefix, invalidPrefix, late, lateBars, blockHigh, blockLow };
}
