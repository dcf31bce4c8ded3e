// Deterministic Market Events rows of one UTC day for the foreign server: both sample types, all six
// pairs, every field, a mix of outcome statuses (pending/gap/… outcomes null, never zero).

import { createHash } from 'node:crypto';
import { CONTRACT_FIELDS, DATASET_ID, FEATURE_STATUS_VALUES, OUTCOME_WINDOWS, PAIRS, TAKER_STATUS_VALUES } from './contract-fields.js';

/** One row: field name -> value (null = missing). */
export type SpecRow = Record<string, string | number | boolean | null>;

export interface DayRowsOptions {
  /** `calculation_version` of every row. */
  productVersion: string;
  /** The server's clock, in Unix seconds: outcomes whose window has not ended by then are `pending`. */
  now: number;
  /** Integral times and counts (events at whole seconds). */
  integerColumns: boolean;
  /** An extra field's name, filled with a distinct number per row. */
  extraField?: string;
}

/** Controls per pair and day: every 4th hour of the fixed hourly grid. */
const CONTROL_HOURS = [0, 4, 8, 12, 16, 20];
/** Events per pair and day. */
const EVENTS_PER_PAIR = 2;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A deterministic number in [0, 1) from a label. */
function unit(label: string): number {
  return Number.parseInt(sha256(label).slice(0, 12), 16) / 2 ** 48;
}

const round = (value: number, digits = 6): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The rows of `day` (YYYY-MM-DD), controls and events of every pair, ordered by sample_time then symbol. */
export function dayRows(day: string, options: DayRowsOptions): SpecRow[] {
  const start = Date.parse(`${day}T00:00:00Z`) / 1000;
  const rows: SpecRow[] = [];
  for (const [pairIndex, symbol] of PAIRS.entries()) {
    for (const hour of CONTROL_HOURS) rows.push(row(symbol, pairIndex, 'control', start + hour * 3600, rows.length, options));
    for (let index = 0; index < EVENTS_PER_PAIR; index += 1) {
      const offset = 1800 + index * 37_000 + pairIndex * 611 + (options.integerColumns ? 0 : 0.25 + 0.125 * index);
      rows.push(row(symbol, pairIndex, 'event', start + offset, rows.length, options));
    }
  }
  rows.sort((a, b) => Number(a.sample_time) - Number(b.sample_time) || String(a.symbol).localeCompare(String(b.symbol)));
  if (options.extraField !== undefined) for (const [index, item] of rows.entries()) item[options.extraField] = 0.5 + index * 0.25;
  return rows;
}

function row(symbol: string, pairIndex: number, sampleType: 'event' | 'control', sampleTime: number, serial: number, options: DayRowsOptions): SpecRow {
  const isEvent = sampleType === 'event';
  const label = `${symbol}:${sampleType}:${sampleTime}`;
  const r = (name: string): number => unit(`${label}:${name}`);
  const direction = isEvent ? (r('direction') < 0.5 ? 'up' : 'down') : null;
  const featureStatus = FEATURE_STATUS_VALUES[serial % 3]!;
  const takerStatus = featureStatus === 'missing_candle' ? 'missing_candle' : TAKER_STATUS_VALUES[serial % 2]!;
  const hasPrice = featureStatus !== 'missing_candle';
  const basePrice = [68_000, 3_400, 160, 590, 0.52, 0.14][pairIndex]!;
  const price = hasPrice ? round(basePrice * (0.95 + 0.1 * r('price')), 6) : null;
  const priceTime = hasPrice ? Math.floor(sampleTime / 300) * 300 - 300 * Math.floor(r('age') * 3) : null;
  const quoteVolume = hasPrice ? (takerStatus === 'usable' ? round(10_000 + 90_000 * r('volume'), 4) : 0) : null;
  const takerBuy = takerStatus === 'usable' && quoteVolume !== null ? round(quoteVolume * (0.2 + 0.6 * r('taker')), 4) : null;
  const hasDerivative = r('derivative') < 0.6;
  const derivativeTime = hasDerivative ? Math.floor(sampleTime / 300) * 300 - 600 : null;
  const referenceStart = Math.ceil(sampleTime / 300) * 300;
  const result: SpecRow = {
    row_id: sha256(isEvent ? `event:${symbol}:${sampleTime}` : `control:${symbol}:${sampleTime}`),
    dataset: DATASET_ID,
    calculation_version: options.productVersion,
    sample_type: sampleType,
    symbol,
    venue: 'spot-exchange',
    event_kind: isEvent ? (r('kind') < 0.5 ? 'volume_spike' : 'price_breakout') : null,
    direction,
    event_timeframe: isEvent ? (r('timeframe') < 0.5 ? '5m' : '1h') : null,
    control_status: isEvent ? 'not_applicable' : 'no_recorded_event',
    sample_time: sampleTime,
    event_time: isEvent ? sampleTime - (options.integerColumns ? 12 : 12.5) : null,
    event_recorded_at: isEvent ? sampleTime : null,
    trigger_value: isEvent ? round(2 + 8 * r('trigger'), 4) : null,
    trigger_threshold: isEvent ? 2 : null,
    feature_status: featureStatus,
    feature_pit_eligible: featureStatus === 'locally_known',
    taker_status: takerStatus,
    price,
    price_time: priceTime,
    feature_age_seconds: priceTime === null ? null : sampleTime - priceTime,
    quote_volume_5m: quoteVolume,
    taker_buy_quote_5m: takerBuy,
    taker_buy_fraction: takerBuy !== null && quoteVolume ? round(takerBuy / quoteVolume, 6) : null,
    net_taker_quote_5m: takerBuy !== null && quoteVolume !== null ? round(2 * takerBuy - quoteVolume, 4) : null,
    volume_ratio_20: hasPrice && r('ratio') < 0.8 ? round(0.5 + 3 * r('ratio20'), 6) : null,
    feature_available_at: priceTime === null ? null : priceTime + 2,
    derivative_venue: hasDerivative ? 'derivatives-venue' : null,
    derivative_status: hasDerivative ? 'normalized_type_unavailable' : 'no_locally_known_recent_observation',
    funding_hourly_pct: hasDerivative ? round(-0.002 + 0.004 * r('funding'), 6) : null,
    oi_usd: hasDerivative ? round(1e8 * r('oi'), 2) : null,
    derivative_time: derivativeTime,
    derivative_available_at: derivativeTime === null ? null : derivativeTime + 30,
    excursion_reference: direction === 'down' ? 'short' : 'long',
    reference_start: referenceStart,
  };
  for (const [window, seconds] of OUTCOME_WINDOWS) Object.assign(result, outcome(window, seconds, referenceStart, direction, options.now, r));
  for (const contract of CONTRACT_FIELDS) if (!(contract.name in result)) throw new Error(`spec-rows: ${contract.name} not generated`);
  return result;
}

/** One window's outcome fields: only `complete` carries returns; pending/gap/… are missing (null). */
function outcome(window: string, seconds: number, referenceStart: number, direction: string | null, now: number, r: (name: string) => number): SpecRow {
  const pick = r(`status_${window}`);
  const status = referenceStart + seconds > now ? 'pending' : pick < 0.55 ? 'complete' : pick < 0.75 ? 'gap' : pick < 0.9 ? 'invalid_price' : 'not_applicable';
  const expected = seconds / 300;
  const returnPct = status === 'complete' ? round(-3 + 6 * r(`return_${window}`), 6) : null;
  return {
    [`status_${window}`]: status,
    [`return_pct_${window}`]: returnPct,
    [`direction_adjusted_return_pct_${window}`]: returnPct === null || direction === null ? null : direction === 'down' ? -returnPct : returnPct,
    [`mfe_pct_${window}`]: status === 'complete' ? round(Math.max(0, returnPct ?? 0) + 2 * r(`mfe_${window}`), 6) : null,
    [`mae_pct_${window}`]: status === 'complete' ? round(Math.max(0, -(returnPct ?? 0)) + 2 * r(`mae_${window}`), 6) : null,
    [`missing_candles_${window}`]: status === 'gap' ? 1 + Math.floor(r(`missing_${window}`) * Math.min(expected - 1, 5)) : null,
    [`expected_candles_${window}`]: status === 'complete' || status === 'gap' || status === 'invalid_price' ? expected : null,
  };
}
