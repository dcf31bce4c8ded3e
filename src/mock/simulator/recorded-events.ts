// Recorded events of one pair and day: rule triggers at bars opening on that day, each given a recording
// delay (seconds to minutes) and a recording decision (see planted-effects.ts).

import { WINDOW_SECONDS, type Direction, type EventKind, type EventTimeframe, type MarketSymbol } from '../../contract/index.js';
import type { BarSeries } from './bar-series.js';
import { BAR_SECONDS } from './day-candles.js';
import { evaluateRules } from './event-rules.js';
import { round } from './numbers.js';
import { PLANTED_EFFECTS, recordingProbability } from './planted-effects.js';
import { randomStream } from '../../base/index.js';
import { DAY_SECONDS } from './utc-day.js';
import { BARS_PER_DAY } from './volatility-schedule.js';

/** An event as the public signal database recorded it. */
export interface RecordedEvent {
  readonly symbol: MarketSymbol;
  readonly kind: EventKind;
  readonly timeframe: EventTimeframe;
  readonly direction: Direction;
  /** Close time of the triggering bar, UTC Unix seconds. */
  readonly eventTime: number;
  /** Creation time in the signal database (= sample_time), UTC Unix seconds with milliseconds. */
  readonly recordedAt: number;
  readonly value: number;
  readonly threshold: number;
}

/** A recording delay: mostly seconds, sometimes minutes. */
function recordingDelay(draw: number, spread: number): number {
  if (draw < 0.88) return 2 + 88 * spread;
  if (draw < 0.98) return 90 + 190 * spread;
  return 300 + 600 * spread;
}

/**
 * Events recorded for triggers at bars opening on `dayNumber`.
 * @param series candles covering at least the day before, the day and the day after (for the recording model).
 */
export function recordDayEvents(seed: number, symbol: MarketSymbol, dayNumber: number, series: BarSeries): RecordedEvent[] {
  const first = series.indexAt(dayNumber * DAY_SECONDS);
  const triggers = evaluateRules(series, symbol, first, first + BARS_PER_DAY - 1);
  const random = randomStream(seed, 'record', symbol, dayNumber);
  const events: RecordedEvent[] = [];
  for (const trigger of triggers) {
    const eventTime = series.closeTime(trigger.bar);
    const recordedAt = round(eventTime + recordingDelay(random.next(), random.next()), 3);
    const draw = random.next();
    const planted = PLANTED_EFFECTS.find((effect) => effect.eventKind === trigger.rule.kind);
    let probability = recordingProbability(trigger.rule.kind, null, 0);
    if (planted && planted.effectBps !== 0) {
      // The selection reads the true (hidden) path over the planted window from the reference start.
      const start = series.indexAt(Math.ceil(recordedAt / BAR_SECONDS) * BAR_SECONDS);
      const end = start + WINDOW_SECONDS[planted.window] / BAR_SECONDS - 1;
      let variance = 0;
      let realized: number | null = null;
      if (end < series.length) {
        for (let k = start; k <= end; k++) variance += (series.sigma[k] as number) ** 2;
        const open = series.open[start] as number;
        const close = series.close[end] as number;
        if (open > 0 && close > 0) realized = (trigger.direction === 'up' ? 1 : -1) * 100 * (close / open - 1);
      }
      probability = recordingProbability(trigger.rule.kind, realized, variance * 1e4);
    }
    if (draw >= probability) continue;
    events.push({
      symbol,
      kind: trigger.rule.kind,
      timeframe: trigger.rule.timeframe,
      direction: trigger.direction,
      eventTime,
      recordedAt,
      value: trigger.value,
      threshold: trigger.threshold,
    });
  }
  return events;
}
