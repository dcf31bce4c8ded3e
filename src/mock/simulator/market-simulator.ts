// The deterministic market simulator: lazily generated candles, derivative context and recorded events of the
// six pairs, turned into Market Events rows of one UTC day as known at a given time.

import { BoundedCache, sha256Hex } from '../../base/index.js';
import {
  CONTROL_GRID_SECONDS,
  CONTROL_LOOKBACK_SECONDS,
  DERIVATIVE_VENUE,
  MARKET_EVENTS_DATASET,
  PRODUCT_VERSION,
  SPOT_VENUE,
  SYMBOLS,
  isMarketSymbol,
  type MarketEventRow,
  type MarketSymbol,
  type SampleColumns,
} from '../../contract/index.js';
import { AnchorWalk } from './anchor-walk.js';
import { BarSeries } from './bar-series.js';
import { buildRow } from './build-row.js';
import { rowChangedAt } from './content-change.js';
import { BAR_SECONDS, generateDayCandles, type DayCandles } from './day-candles.js';
import { generateDerivativeDay, selectDerivative, type DerivativeObservation } from './derivative-observations.js';
import { messages } from './messages.js';
import { recordDayEvents, type RecordedEvent } from './recorded-events.js';
import { resolveSimulatorOptions, type ResolvedSimulatorOptions, type SimulatorOptions } from './resolve-simulator-options.js';
import { sampleFeatures } from './sample-features.js';
import { referenceStart, sampleOutcomes } from './sample-outcomes.js';
import { SimulatorArgumentError } from './simulator-errors.js';
import { DAY_SECONDS, formatDay, parseDay } from './utc-day.js';

/** One 5-minute candle of a pair (spot exchange), as the local archive holds it. */
export interface Candle {
  /** UTC Unix seconds. */
  open_time: number;
  /** open_time + 300, UTC Unix seconds. */
  close_time: number;
  /** Prices in USDT; 0 when `invalid_price`; for a `missing` candle, the unobserved path (not data). */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Quote volume, USDT. */
  quote_volume: number;
  /** Aggressive-buy quote volume, USDT; null when the venue's value is invalid. */
  taker_buy_quote: number | null;
  /** Local archive write time, UTC Unix seconds; Infinity for a missing candle (never archived). */
  archived_at: number;
  /** The exchange had an outage: the candle does not exist. */
  missing: boolean;
  /** The candle's prices are invalid. */
  invalid_price: boolean;
}

/** A day's rows as of a time and when they last changed (`MarketSimulator.dayContent`). */
export interface DayContent {
  /** `dayRows(day, asOf)`. */
  rows: MarketEventRow[];
  /** The latest time <= asOf (UTC Unix seconds) at which the rows changed; -Infinity without rows. */
  changedAt: number;
}

/** How many per-day results were generated (cache misses): shows that generation is lazy. */
export interface GenerationCounts {
  /** (pair, day) candle sets generated. */
  candleDays: number;
  /** (pair, day) recorded-event sets generated. */
  eventDays: number;
  /** (pair, day) derivative observation sets generated. */
  derivativeDays: number;
}

/** Candle day-pairs kept in memory: enough for a day's rows (10 days x 6 pairs) many times over. */
const CANDLE_CACHE_ENTRIES = 400;
const DAY_CACHE_ENTRIES = 200;
/** Concatenated multi-day series (reused across re-checks of the same day; avoids re-allocating buffers). */
const SERIES_CACHE_ENTRIES = 96;
/** Days of candles a day's rows read: one before (look-back) to seven after (7d outcomes). */
const DAYS_BEFORE = 1;
const DAYS_AFTER = 7;

/**
 * A deterministic simulated market. Everything is generated lazily per (pair, day) and cached in bounded
 * LRU caches; a day's rows only need the neighbouring days, never the whole history.
 */
export class MarketSimulator {
  readonly options: ResolvedSimulatorOptions;
  private readonly walk: AnchorWalk;
  private readonly candleCache = new BoundedCache<string, DayCandles>(CANDLE_CACHE_ENTRIES);
  private readonly eventCache = new BoundedCache<string, RecordedEvent[]>(DAY_CACHE_ENTRIES);
  private readonly derivativeCache = new BoundedCache<string, DerivativeObservation[]>(DAY_CACHE_ENTRIES);
  private readonly seriesCache = new BoundedCache<string, BarSeries>(SERIES_CACHE_ENTRIES);
  private readonly counts: GenerationCounts = { candleDays: 0, eventDays: 0, derivativeDays: 0 };

  /** @param options seed (default 1), now (default 2026-11-01T00:00:00Z), days (default 120), schemaSince. */
  constructor(options: SimulatorOptions = {}) {
    this.options = resolveSimulatorOptions(options);
    this.walk = new AnchorWalk(this.options.seed);
  }

  /** Per-day generation counters since construction (a copy). */
  generationCounts(): GenerationCounts {
    return { ...this.counts };
  }

  /** UTC days covered, oldest first ('YYYY-MM-DD'). */
  days(): string[] {
    const first = parseDay(this.options.firstDay) as number;
    return Array.from({ length: this.options.days }, (_, i) => formatDay(first + i));
  }

  /**
   * Rows whose sample_time falls in UTC day `day` (and is <= asOf), with outcomes as known at `asOf`
   * (UTC Unix seconds), ordered by (sample_time, symbol, sample_type, row_id). Pure in (options.seed, day, asOf).
   */
  dayRows(day: string, asOf: number): MarketEventRow[] {
    return this.dayContent(day, asOf).rows;
  }

  /**
   * `dayRows(day, asOf)` and `changedAt`: the latest time <= asOf at which those rows changed, so
   * `dayRows(day, T)` is identical for every T in [changedAt, asOf] and differs for every earlier T
   * (content only moves forward: rows appear, outcomes resolve, late bars arrive). -Infinity without rows.
   * The release archive derives a release's `generated_at` from it without re-simulating earlier checks.
   */
  dayContent(day: string, asOf: number): DayContent {
    const dayNumber = this.dayArgument(day);
    if (typeof asOf !== 'number' || !Number.isFinite(asOf)) {
      throw new SimulatorArgumentError(messages.argument('asOf', asOf, 'UTC Unix seconds as a finite number'), 'asOf');
    }
    const dayStart = dayNumber * DAY_SECONDS;
    const rows: MarketEventRow[] = [];
    let changedAt = -Infinity;
    for (const symbol of SYMBOLS) {
      const firstRow = rows.length;
      // 1. Candles of the day before to seven days after, and derivative observations of the day and the one before.
      const series = this.series(symbol, dayNumber - DAYS_BEFORE, dayNumber + DAYS_AFTER);
      const derivatives = [...this.derivativeDay(symbol, dayNumber - 1), ...this.derivativeDay(symbol, dayNumber)];
      // 2. Recorded events: triggers of the day before can be recorded after midnight.
      const recorded = [...this.recorded(symbol, dayNumber - 1), ...this.recorded(symbol, dayNumber)];
      for (const event of recorded) {
        if (event.recordedAt < dayStart || event.recordedAt >= dayStart + DAY_SECONDS || event.recordedAt > asOf) continue;
        rows.push(this.eventRow(event, series, derivatives, asOf));
      }
      // 3. Controls on the hourly grid, where no event of the pair was recorded in [t - 3600, t].
      for (let t = dayStart; t < dayStart + DAY_SECONDS && t <= asOf; t += CONTROL_GRID_SECONDS) {
        const blocked = recorded.some((event) => event.recordedAt >= t - CONTROL_LOOKBACK_SECONDS && event.recordedAt <= t);
        if (!blocked) rows.push(this.controlRow(symbol, t, series, derivatives, asOf));
      }
      // 4. When the pair's rows last changed.
      for (let i = firstRow; i < rows.length; i++) {
        const changed = rowChangedAt(rows[i] as MarketEventRow, series, asOf);
        if (changed > changedAt) changedAt = changed;
      }
    }
    // 5. Stable order.
    return { rows: rows.sort(compareRows), changedAt };
  }

  /** 5-minute candles of a pair for a UTC day, open_time ascending, missing ones included and flagged. */
  candles(symbol: MarketSymbol, day: string): Candle[] {
    const checked = this.symbolArgument(symbol);
    const dayNumber = this.dayArgument(day);
    const candles = this.dayCandles(checked, dayNumber);
    const dayStart = dayNumber * DAY_SECONDS;
    return Array.from(candles.open, (open, i) => {
      const takerBuy = candles.takerBuy[i] as number;
      return {
        open_time: dayStart + i * BAR_SECONDS,
        close_time: dayStart + (i + 1) * BAR_SECONDS,
        open,
        high: candles.high[i] as number,
        low: candles.low[i] as number,
        close: candles.close[i] as number,
        quote_volume: candles.volume[i] as number,
        taker_buy_quote: Number.isNaN(takerBuy) ? null : takerBuy,
        archived_at: candles.archivedAt[i] as number,
        missing: candles.missing[i] === 1,
        invalid_price: candles.invalid[i] === 1,
      };
    });
  }

  /** Derivative-venue observations of a pair whose bucket lies in a UTC day, bucket_time ascending. */
  derivativeObservations(symbol: MarketSymbol, day: string): DerivativeObservation[] {
    const checked = this.symbolArgument(symbol);
    return this.derivativeDay(checked, this.dayArgument(day)).map((observation) => ({ ...observation }));
  }

  /**
   * Recorded events of a pair whose triggering bar opens in a UTC day (before the day split of rows by
   * sample_time); for tests and docs.
   */
  recordedEvents(symbol: MarketSymbol, day: string): RecordedEvent[] {
    const checked = this.symbolArgument(symbol);
    return this.recorded(checked, this.dayArgument(day)).map((event) => ({ ...event }));
  }

  private dayArgument(day: string): number {
    const dayNumber = parseDay(day);
    if (dayNumber === undefined) {
      throw new SimulatorArgumentError(messages.argument('day', day, "a calendar date 'YYYY-MM-DD'"), 'day');
    }
    return dayNumber;
  }

  private symbolArgument(symbol: string): MarketSymbol {
    if (!isMarketSymbol(symbol)) {
      throw new SimulatorArgumentError(messages.argument('symbol', symbol, `one of ${SYMBOLS.join(', ')}`), 'symbol');
    }
    return symbol;
  }

  private dayCandles(symbol: MarketSymbol, dayNumber: number): DayCandles {
    return this.candleCache.getOrCreate(`${symbol}|${dayNumber}`, () => {
      this.counts.candleDays++;
      return generateDayCandles(this.options.seed, this.walk, symbol, dayNumber);
    });
  }

  private series(symbol: MarketSymbol, firstDay: number, lastDay: number): BarSeries {
    return this.seriesCache.getOrCreate(`${symbol}|${firstDay}|${lastDay}`, () => {
      const days: DayCandles[] = [];
      for (let d = firstDay; d <= lastDay; d++) days.push(this.dayCandles(symbol, d));
      return new BarSeries(days);
    });
  }

  private recorded(symbol: MarketSymbol, dayNumber: number): RecordedEvent[] {
    return this.eventCache.getOrCreate(`${symbol}|${dayNumber}`, () => {
      this.counts.eventDays++;
      const series = this.series(symbol, dayNumber - 1, dayNumber + 1);
      return recordDayEvents(this.options.seed, symbol, dayNumber, series);
    });
  }

  private derivativeDay(symbol: MarketSymbol, dayNumber: number): DerivativeObservation[] {
    return this.derivativeCache.getOrCreate(`${symbol}|${dayNumber}`, () => {
      this.counts.derivativeDays++;
      return generateDerivativeDay(this.options.seed, this.walk, symbol, dayNumber);
    });
  }

  private eventRow(event: RecordedEvent, series: BarSeries, derivatives: DerivativeObservation[], asOf: number): MarketEventRow {
    const identity = [MARKET_EVENTS_DATASET, 'event', event.symbol, event.kind, event.timeframe, event.direction, event.eventTime].join('|');
    const reference = event.direction === 'up' ? 'long' : 'short';
    const sample = sampleColumns(event.symbol, 'event', event.recordedAt, series, derivatives, asOf);
    sample.row_id = sha256Hex(identity);
    sample.event_kind = event.kind;
    sample.direction = event.direction;
    sample.event_timeframe = event.timeframe;
    sample.control_status = 'not_applicable';
    sample.event_time = event.eventTime;
    sample.event_recorded_at = event.recordedAt;
    sample.trigger_value = event.value;
    sample.trigger_threshold = event.threshold;
    sample.excursion_reference = reference;
    return buildRow(sample, sampleOutcomes(series, event.recordedAt, reference, event.direction, asOf));
  }

  private controlRow(symbol: MarketSymbol, time: number, series: BarSeries, derivatives: DerivativeObservation[], asOf: number): MarketEventRow {
    const sample = sampleColumns(symbol, 'control', time, series, derivatives, asOf);
    sample.row_id = sha256Hex([MARKET_EVENTS_DATASET, 'control', symbol, time].join('|'));
    return buildRow(sample, sampleOutcomes(series, time, 'long', null, asOf));
  }
}

/** The sample columns of a control; events overwrite their event-specific fields. Keys in spec order. */
function sampleColumns(
  symbol: MarketSymbol,
  sampleType: SampleColumns['sample_type'],
  sampleTime: number,
  series: BarSeries,
  derivatives: readonly DerivativeObservation[],
  asOf: number,
): SampleColumns {
  const features = sampleFeatures(series, sampleTime, asOf);
  const derivative = selectDerivative(derivatives, sampleTime);
  return {
    row_id: '',
    dataset: MARKET_EVENTS_DATASET,
    calculation_version: PRODUCT_VERSION,
    sample_type: sampleType,
    symbol,
    venue: SPOT_VENUE,
    event_kind: null,
    direction: null,
    event_timeframe: null,
    control_status: 'no_recorded_event_1h',
    sample_time: sampleTime,
    event_time: null,
    event_recorded_at: null,
    trigger_value: null,
    trigger_threshold: null,
    feature_status: features.feature_status,
    feature_pit_eligible: features.feature_pit_eligible,
    taker_status: features.taker_status,
    price: features.price,
    price_time: features.price_time,
    feature_age_seconds: features.feature_age_seconds,
    quote_volume_5m: features.quote_volume_5m,
    taker_buy_quote_5m: features.taker_buy_quote_5m,
    taker_buy_fraction: features.taker_buy_fraction,
    net_taker_quote_5m: features.net_taker_quote_5m,
    volume_ratio_20: features.volume_ratio_20,
    feature_available_at: features.feature_available_at,
    derivative_venue: derivative ? DERIVATIVE_VENUE : null,
    derivative_status: derivative ? 'normalized_type_unavailable' : 'no_locally_known_recent_observation',
    funding_hourly_pct: derivative ? derivative.funding_hourly_pct : null,
    oi_usd: derivative ? derivative.oi_usd : null,
    derivative_time: derivative ? derivative.bucket_time : null,
    derivative_available_at: derivative ? derivative.available_at : null,
    excursion_reference: 'long',
    reference_start: referenceStart(sampleTime),
  };
}

/** Order of rows in a day: sample_time, symbol, sample_type, row_id (plain code-unit comparison). */
function compareRows(a: MarketEventRow, b: MarketEventRow): number {
  if (a.sample_time !== b.sample_time) return a.sample_time - b.sample_time;
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1;
  if (a.sample_type !== b.sample_type) return a.sample_type < b.sample_type ? -1 : 1;
  return a.row_id < b.row_id ? -1 : a.row_id > b.row_id ? 1 : 0;
}
