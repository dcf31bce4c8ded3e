// Candle features of a sample (spec: price, taker and volume fields): which closed 5-minute bar is used,
// whether it was locally known at sample_time, and the taker and volume-ratio features of that bar.

import { PRICE_MAX_AGE_SECONDS, VOLUME_RATIO_BARS, type SampleColumns } from '../../contract/index.js';
import type { BarSeries } from './bar-series.js';
import { BAR_SECONDS } from './day-candles.js';
import { round } from './numbers.js';

/** The candle-feature columns of a row. */
export type SampleFeatures = Pick<
  SampleColumns,
  | 'feature_status'
  | 'feature_pit_eligible'
  | 'taker_status'
  | 'price'
  | 'price_time'
  | 'feature_age_seconds'
  | 'quote_volume_5m'
  | 'taker_buy_quote_5m'
  | 'taker_buy_fraction'
  | 'net_taker_quote_5m'
  | 'volume_ratio_20'
  | 'feature_available_at'
>;

const MISSING: SampleFeatures = {
  feature_status: 'missing_candle',
  feature_pit_eligible: false,
  taker_status: 'missing_candle',
  price: null,
  price_time: null,
  feature_age_seconds: null,
  quote_volume_5m: null,
  taker_buy_quote_5m: null,
  taker_buy_fraction: null,
  net_taker_quote_5m: null,
  volume_ratio_20: null,
  feature_available_at: null,
};

/**
 * Features at `sampleTime` as published at `asOf` (UTC Unix seconds).
 * 1. locally_known: the most recent closed bar within 30 minutes archived by sample_time;
 * 2. else retrospective: the last closed bar archived by asOf; 3. else missing_candle.
 * The series must start at least a day before `sampleTime`.
 */
export function sampleFeatures(series: BarSeries, sampleTime: number, asOf: number): SampleFeatures {
  const lastClosed = series.indexAt(Math.floor(sampleTime / BAR_SECONDS) * BAR_SECONDS) - 1;
  const exists = (k: number) => !series.missing[k] && !series.invalid[k];
  let selected = -1;
  let status: SampleFeatures['feature_status'] = 'missing_candle';
  for (let k = lastClosed; k >= 0 && series.closeTime(k) >= sampleTime - PRICE_MAX_AGE_SECONDS; k--) {
    if (exists(k) && (series.archivedAt[k] as number) <= sampleTime) {
      selected = k;
      status = 'locally_known';
      break;
    }
  }
  if (selected < 0) {
    for (let k = lastClosed; k >= 0; k--) {
      if (exists(k) && (series.archivedAt[k] as number) <= asOf) {
        selected = k;
        status = 'retrospective';
        break;
      }
    }
  }
  if (selected < 0) return { ...MISSING };

  const volume = series.volume[selected] as number;
  const takerBuy = series.takerBuy[selected] as number;
  let availableAt = series.archivedAt[selected] as number;

  // volume_ratio_20: the prior 20 contiguous bars must all exist and be archived by asOf.
  let volumeRatio: number | null = null;
  if (selected >= VOLUME_RATIO_BARS) {
    let sum = 0;
    let latest = availableAt;
    let complete = true;
    for (let k = selected - VOLUME_RATIO_BARS; k < selected; k++) {
      if (!exists(k) || (series.archivedAt[k] as number) > asOf) {
        complete = false;
        break;
      }
      sum += series.volume[k] as number;
      latest = Math.max(latest, series.archivedAt[k] as number);
    }
    if (complete && sum > 0) {
      volumeRatio = round(volume / (sum / VOLUME_RATIO_BARS), 6);
      availableAt = latest;
    }
  }

  let taker: Pick<SampleFeatures, 'taker_status' | 'taker_buy_quote_5m' | 'taker_buy_fraction' | 'net_taker_quote_5m'>;
  if (Number.isNaN(takerBuy)) {
    taker = { taker_status: 'invalid_or_zero_volume', taker_buy_quote_5m: null, taker_buy_fraction: null, net_taker_quote_5m: null };
  } else if (volume === 0) {
    taker = { taker_status: 'invalid_or_zero_volume', taker_buy_quote_5m: takerBuy, taker_buy_fraction: null, net_taker_quote_5m: round(2 * takerBuy - volume, 2) };
  } else {
    taker = {
      taker_status: 'usable',
      taker_buy_quote_5m: takerBuy,
      taker_buy_fraction: round(takerBuy / volume, 6),
      net_taker_quote_5m: round(2 * takerBuy - volume, 2),
    };
  }
  const priceTime = series.closeTime(selected);
  return {
    feature_status: status,
    feature_pit_eligible: status === 'locally_known' && availableAt <= sampleTime,
    ...taker,
    price: series.close[selected] as number,
    price_time: priceTime,
    feature_age_seconds: round(sampleTime - priceTime, 3),
    quote_volume_5m: volume,
    volume_ratio_20: volumeRatio,
    feature_available_at: availableAt,
  };
}
