// Outcome labels of a sample per window (spec: outcome fields): returns and excursions from the open of the
// bar at reference_start, or pending / gap / invalid_price with every number null (never zero).

import { WINDOWS, WINDOW_SECONDS, type Direction, type ExcursionReference, type Window } from '../../contract/index.js';
import type { BarSeries } from './bar-series.js';
import type { WindowOutcome, WindowOutcomes } from './build-row.js';
import { BAR_SECONDS } from './day-candles.js';
import { round } from './numbers.js';

/** reference_start = ceil(sample_time / 300) * 300 (UTC Unix seconds). */
export function referenceStart(sampleTime: number): number {
  return Math.ceil(sampleTime / BAR_SECONDS) * BAR_SECONDS;
}

const PENDING: WindowOutcome = Object.freeze({
  status: 'pending',
  returnPct: null,
  directionAdjustedReturnPct: null,
  mfePct: null,
  maePct: null,
  missingCandles: null,
  expectedCandles: null,
});

function windowOutcome(
  series: BarSeries,
  start: number,
  window: Window,
  reference: ExcursionReference,
  direction: Direction | null,
  asOf: number,
): WindowOutcome {
  const seconds = WINDOW_SECONDS[window];
  const expected = seconds / BAR_SECONDS;
  // 1. pending: the window has not ended at asOf.
  if (start + seconds > asOf) return PENDING;
  const first = series.indexAt(start);
  const end = first + expected;
  // 2. gap: a bar of the window is missing or not archived by asOf.
  const missing = series.unavailableCount(first, end, asOf);
  const invalid = missing === 0 && series.invalidCount(first, end) > 0;
  const none = { returnPct: null, directionAdjustedReturnPct: null, mfePct: null, maePct: null };
  if (missing > 0) return { status: 'gap', ...none, missingCandles: missing, expectedCandles: expected };
  // 3. invalid_price: a bar carries invalid prices.
  if (invalid) return { status: 'invalid_price', ...none, missingCandles: null, expectedCandles: expected };
  // 4. complete.
  const open = series.open[first] as number;
  const close = series.close[end - 1] as number;
  const { high, low } = series.extremes(first, end);
  const returnPct = round(100 * (close / open - 1), 6);
  const up = round(Math.max(0, 100 * (high / open - 1)), 6);
  const down = round(Math.max(0, 100 * (1 - low / open)), 6);
  return {
    status: 'complete',
    returnPct,
    directionAdjustedReturnPct: direction === null ? null : direction === 'up' ? returnPct : round(-returnPct, 6),
    mfePct: reference === 'long' ? up : down,
    maePct: reference === 'long' ? down : up,
    missingCandles: null,
    expectedCandles: expected,
  };
}

/**
 * The outcomes of all windows, as known at `asOf` (UTC Unix seconds), in WINDOWS order.
 * @param direction the event direction, or null for a control.
 * @param series must cover reference_start + 7 days.
 */
export function sampleOutcomes(
  series: BarSeries,
  sampleTime: number,
  reference: ExcursionReference,
  direction: Direction | null,
  asOf: number,
): WindowOutcomes {
  const start = referenceStart(sampleTime);
  return WINDOWS.map((window) => windowOutcome(series, start, window, reference, direction, asOf)) as unknown as WindowOutcomes;
}
