// The public rule families that record `event` samples: each has a timeframe, a trigger metric and a
// threshold in its own units, and is evaluated on closed 5-minute candles (edge-triggered: a rule fires on the
// bar where its condition starts to hold, so a long trend does not fire on every bar).

import type { Direction, EventKind, EventTimeframe, MarketSymbol } from '../../contract/index.js';
import type { BarSeries } from './bar-series.js';
import { MARKET_PROFILES } from './market-profiles.js';
import { round } from './numbers.js';
import { BARS_PER_DAY } from './volatility-schedule.js';

/** The state of a rule at a bar: the direction and the trigger metric, when its condition holds. */
export interface RuleHit {
  direction: Direction;
  /** Trigger metric in the rule's own units. */
  value: number;
}

/** One public rule. */
export interface EventRule {
  readonly kind: EventKind;
  readonly timeframe: EventTimeframe;
  /** Bars before the evaluated bar the rule reads (plus one more for the edge test). */
  readonly lookbackBars: number;
  /** Unit of trigger_value and trigger_threshold, for docs. */
  readonly unit: string;
  /** Threshold of a pair, in the rule's units. */
  threshold(symbol: MarketSymbol): number;
  /** The condition at local bar k, or null. Assumes bars [k - lookbackBars, k] are usable. */
  condition(series: BarSeries, k: number, threshold: number): RuleHit | null;
}

/** A pair's typical 5-minute log-return standard deviation, in percent. */
function barVolatilityPct(symbol: MarketSymbol): number {
  return (MARKET_PROFILES[symbol].dailyVolatility * 100) / Math.sqrt(BARS_PER_DAY);
}

function breakout(timeframe: EventTimeframe, bars: number, multiple: number): EventRule {
  return {
    kind: 'breakout',
    timeframe,
    lookbackBars: bars,
    unit: 'percent beyond the prior range (close vs prior high/low)',
    threshold: (symbol) => round(multiple * barVolatilityPct(symbol), 3),
    condition(series, k, threshold) {
      let priorHigh = -Infinity;
      let priorLow = Infinity;
      for (let j = k - bars; j < k; j++) {
        if ((series.high[j] as number) > priorHigh) priorHigh = series.high[j] as number;
        if ((series.low[j] as number) < priorLow) priorLow = series.low[j] as number;
      }
      const close = series.close[k] as number;
      const above = 100 * (close / priorHigh - 1);
      if (above >= threshold) return { direction: 'up', value: round(above, 4) };
      const below = 100 * (1 - close / priorLow);
      if (below >= threshold) return { direction: 'down', value: round(below, 4) };
      return null;
    },
  };
}

function volumeSpike(timeframe: EventTimeframe, bars: number, threshold: number): EventRule {
  const baseline = 20 * bars;
  return {
    kind: 'volume_spike',
    timeframe,
    lookbackBars: bars + baseline - 1,
    unit: `ratio of the ${timeframe} quote volume to its mean over the prior 20 periods`,
    threshold: () => threshold,
    condition(series, k, limit) {
      let recent = 0;
      let prior = 0;
      for (let j = k - bars + 1; j <= k; j++) recent += series.volume[j] as number;
      for (let j = k - bars - baseline + 1; j <= k - bars; j++) prior += series.volume[j] as number;
      if (prior <= 0) return null;
      const ratio = recent / (prior / 20);
      if (ratio < limit) return null;
      const from = series.open[k - bars + 1] as number;
      const direction: Direction = (series.close[k] as number) >= from ? 'up' : 'down';
      return { direction, value: round(ratio, 4) };
    },
  };
}

function momentum(timeframe: EventTimeframe, bars: number, multiple: number): EventRule {
  return {
    kind: 'momentum',
    timeframe,
    lookbackBars: bars,
    unit: `absolute close-to-close change over ${timeframe}, percent`,
    threshold: (symbol) => round(multiple * barVolatilityPct(symbol) * Math.sqrt(bars), 3),
    condition(series, k, threshold) {
      const change = 100 * ((series.close[k] as number) / (series.close[k - bars] as number) - 1);
      if (Math.abs(change) < threshold) return null;
      return { direction: change > 0 ? 'up' : 'down', value: round(Math.abs(change), 4) };
    },
  };
}

/** The rules of the public signal database, in evaluation order. */
export const EVENT_RULES: readonly EventRule[] = [
  breakout('1h', 12, 0.15),
  breakout('4h', 48, 0.15),
  volumeSpike('5m', 1, 2.8),
  volumeSpike('1h', 12, 1.6),
  momentum('5m', 1, 1.9),
  momentum('1h', 12, 1.3),
  momentum('4h', 48, 1.4),
];

/** A rule firing at a bar (before the recording decision). */
export interface RuleTrigger {
  rule: EventRule;
  /** Local index of the triggering bar; event_time is its close time. */
  bar: number;
  direction: Direction;
  value: number;
  threshold: number;
}

/** Triggers of every rule at local bars [from, to] of `series`, ordered by bar then rule. */
export function evaluateRules(series: BarSeries, symbol: MarketSymbol, from: number, to: number): RuleTrigger[] {
  const triggers: RuleTrigger[] = [];
  const thresholds = EVENT_RULES.map((rule) => rule.threshold(symbol));
  for (let k = from; k <= to; k++) {
    for (let r = 0; r < EVENT_RULES.length; r++) {
      const rule = EVENT_RULES[r] as EventRule;
      // The rule engine needs every bar it reads, including the previous bar's window for the edge test.
      if (!series.usable(k - rule.lookbackBars - 1, k)) continue;
      const threshold = thresholds[r] as number;
      const hit = rule.condition(series, k, threshold);
      if (!hit) continue;
      const before = rule.condition(series, k - 1, threshold);
      if (before && before.direction === hit.direction) continue;
      triggers.push({ rule, bar: k, direction: hit.direction, value: hit.value, threshold });
    }
  }
  return triggers;
}
