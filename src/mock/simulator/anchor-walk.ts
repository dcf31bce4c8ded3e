// The coarse daily anchor walk: one log price per pair per UTC day (the day's first open), a mean-reverting
// walk from a fixed epoch, so any day's anchor costs O(|day - epoch|) cheap steps once and then O(1).

import { SYMBOLS, type MarketSymbol } from '../../contract/index.js';
import { MARKET_PROFILES } from './market-profiles.js';
import { randomStream } from '../../base/index.js';
import { daySchedule } from './volatility-schedule.js';

/** Day number of 2024-01-01: the walk starts here in both directions, independent of the covered range. */
const EPOCH_DAY = 19_723;
/** Correlation of each pair's daily shock with the market shock. */
export const MARKET_CORRELATION = 0.7;

interface WalkState {
  /** forward[i] = log anchor of EPOCH_DAY + i. */
  forward: number[];
  /** backward[i] = log anchor of EPOCH_DAY - 1 - i. */
  backward: number[];
}

/**
 * Log anchors per pair. The step from day d to d+1 is normal with the variance the intraday path of day d
 * will have (so the bridged intraday path is, marginally, a plain random walk), plus a weak pull to the
 * middle of the pair's range, reflected at its bounds.
 */
export class AnchorWalk {
  private readonly seed: number;
  private readonly states = new Map<MarketSymbol, WalkState>();
  private readonly varianceFactors = new Map<number, number>();
  private readonly marketShocks = new Map<number, number>();

  constructor(seed: number) {
    this.seed = seed;
    for (const symbol of SYMBOLS) {
      this.states.set(symbol, { forward: [Math.log(MARKET_PROFILES[symbol].startPrice)], backward: [] });
    }
  }

  /** Variance factor of day d (relative to a normal day), memoized. */
  varianceFactor(dayNumber: number): number {
    let factor = this.varianceFactors.get(dayNumber);
    if (factor === undefined) {
      factor = daySchedule(this.seed, dayNumber).varianceFactor;
      this.varianceFactors.set(dayNumber, factor);
    }
    return factor;
  }

  private shock(symbol: MarketSymbol, dayNumber: number): number {
    let market = this.marketShocks.get(dayNumber);
    if (market === undefined) {
      market = randomStream(this.seed, 'anchor-market', dayNumber).normal();
      this.marketShocks.set(dayNumber, market);
    }
    const own = randomStream(this.seed, 'anchor', symbol, dayNumber).normal();
    return MARKET_CORRELATION * market + Math.sqrt(1 - MARKET_CORRELATION ** 2) * own;
  }

  private step(symbol: MarketSymbol, from: number, stepDay: number): number {
    const profile = MARKET_PROFILES[symbol];
    const low = Math.log(profile.minPrice);
    const high = Math.log(profile.maxPrice);
    const center = (low + high) / 2;
    // Pull strength: the stationary spread is about a fifth of the range.
    const spread = (high - low) / 5;
    const pull = Math.min(0.2, profile.dailyVolatility ** 2 / (2 * spread * spread));
    const sd = profile.dailyVolatility * Math.sqrt(this.varianceFactor(stepDay));
    let next = from + pull * (center - from) + sd * this.shock(symbol, stepDay);
    if (next > high) next = 2 * high - next;
    if (next < low) next = 2 * low - next;
    return next;
  }

  /** Log of the anchor price (the first open) of day `dayNumber`. */
  logAnchor(symbol: MarketSymbol, dayNumber: number): number {
    const state = this.states.get(symbol) as WalkState;
    if (dayNumber >= EPOCH_DAY) {
      const index = dayNumber - EPOCH_DAY;
      while (state.forward.length <= index) {
        const last = state.forward.length - 1;
        state.forward.push(this.step(symbol, state.forward[last] as number, EPOCH_DAY + last));
      }
      return state.forward[index] as number;
    }
    const index = EPOCH_DAY - 1 - dayNumber;
    while (state.backward.length <= index) {
      const done = state.backward.length;
      const from = done === 0 ? (state.forward[0] as number) : (state.backward[done - 1] as number);
      state.backward.push(this.step(symbol, from, EPOCH_DAY - 1 - done));
    }
    return state.backward[index] as number;
  }
}
