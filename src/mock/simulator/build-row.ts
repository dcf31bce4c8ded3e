// Assembles a Market Events row as one object literal with every key in spec order: a fixed shape is
// ~30x faster to build than spreading 70 computed keys (which drops V8 into dictionary mode).

import type { MarketEventRow, OutcomeStatus, SampleColumns } from '../../contract/index.js';

/** The outcome of one window (spec: outcome fields); every number null unless computed. */
export interface WindowOutcome {
  status: OutcomeStatus;
  /** Percentage points. */
  returnPct: number | null;
  directionAdjustedReturnPct: number | null;
  mfePct: number | null;
  maePct: number | null;
  /** Candles. */
  missingCandles: number | null;
  expectedCandles: number | null;
}

/** Outcomes of the five windows, in WINDOWS order (15m, 1h, 4h, 24h, 7d). */
export type WindowOutcomes = readonly [WindowOutcome, WindowOutcome, WindowOutcome, WindowOutcome, WindowOutcome];

/** The row of `sample` and its outcomes; keys exactly MARKET_EVENT_FIELD_NAMES, in that order. */
export function buildRow(sample: SampleColumns, outcomes: WindowOutcomes): MarketEventRow {
  const [o15m, o1h, o4h, o24h, o7d] = outcomes;
  return {
    row_id: sample.row_id,
    dataset: sample.dataset,
    calculation_version: sample.calculation_version,
    sample_type: sample.sample_type,
    symbol: sample.symbol,
    venue: sample.venue,
    event_kind: sample.event_kind,
    direction: sample.direction,
    event_timeframe: sample.event_timeframe,
    control_status: sample.control_status,
    sample_time: sample.sample_time,
    event_time: sample.event_time,
    event_recorded_at: sample.event_recorded_at,
    trigger_value: sample.trigger_value,
    trigger_threshold: sample.trigger_threshold,
    feature_status: sample.feature_status,
    feature_pit_eligible: sample.feature_pit_eligible,
    taker_status: sample.taker_status,
    price: sample.price,
    price_time: sample.price_time,
    feature_age_seconds: sample.feature_age_seconds,
    quote_volume_5m: sample.quote_volume_5m,
    taker_buy_quote_5m: sample.taker_buy_quote_5m,
    taker_buy_fraction: sample.taker_buy_fraction,
    net_taker_quote_5m: sample.net_taker_quote_5m,
    volume_ratio_20: sample.volume_ratio_20,
    feature_available_at: sample.feature_available_at,
    derivative_venue: sample.derivative_venue,
    derivative_status: sample.derivative_status,
    funding_hourly_pct: sample.funding_hourly_pct,
    oi_usd: sample.oi_usd,
    derivative_time: sample.derivative_time,
    derivative_available_at: sample.derivative_available_at,
    excursion_reference: sample.excursion_reference,
    reference_start: sample.reference_start,
    status_15m: o15m.status,
    return_pct_15m: o15m.returnPct,
    direction_adjusted_return_pct_15m: o15m.directionAdjustedReturnPct,
    mfe_pct_15m: o15m.mfePct,
    mae_pct_15m: o15m.maePct,
    missing_candles_15m: o15m.missingCandles,
    expected_candles_15m: o15m.expectedCandles,
    status_1h: o1h.status,
    return_pct_1h: o1h.returnPct,
    direction_adjusted_return_pct_1h: o1h.directionAdjustedReturnPct,
    mfe_pct_1h: o1h.mfePct,
    mae_pct_1h: o1h.maePct,
    missing_candles_1h: o1h.missingCandles,
    expected_candles_1h: o1h.expectedCandles,
    status_4h: o4h.status,
    return_pct_4h: o4h.returnPct,
    direction_adjusted_return_pct_4h: o4h.directionAdjustedReturnPct,
    mfe_pct_4h: o4h.mfePct,
    mae_pct_4h: o4h.maePct,
    missing_candles_4h: o4h.missingCandles,
    expected_candles_4h: o4h.expectedCandles,
    status_24h: o24h.status,
    return_pct_24h: o24h.returnPct,
    direction_adjusted_return_pct_24h: o24h.directionAdjustedReturnPct,
    mfe_pct_24h: o24h.mfePct,
    mae_pct_24h: o24h.maePct,
    missing_candles_24h: o24h.missingCandles,
    expected_candles_24h: o24h.expectedCandles,
    status_7d: o7d.status,
    return_pct_7d: o7d.returnPct,
    direction_adjusted_return_pct_7d: o7d.directionAdjustedReturnPct,
    mfe_pct_7d: o7d.mfePct,
    mae_pct_7d: o7d.maePct,
    missing_candles_7d: o7d.missingCandles,
    expected_candles_7d: o7d.expectedCandles,
  };
}
