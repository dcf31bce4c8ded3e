// Rows of one UTC day: exact schema, sample rules (controls, features, derivatives) and outcome semantics.

import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { MarketSimulator, type Candle } from '../../../src/mock/simulator/index.js';
import {
  CANDLE_SECONDS,
  DERIVATIVE_VENUE,
  MARKET_EVENT_FIELDS,
  MARKET_EVENT_FIELD_NAMES,
  SPOT_VENUE,
  SYMBOLS,
  WINDOWS,
  WINDOW_SECONDS,
  type MarketEventRow,
  type MarketSymbol,
} from '../../../src/contract/index.js';

const DAY = 86_400;
const unix = (iso: string) => Date.parse(iso) / 1000;
const simulator = new MarketSimulator({ days: 8 });
const days = simulator.days();
const studied = days.slice(1, 4);
const late = simulator.options.now + 10 * DAY;

/** Rows of the studied days as of long after (every outcome window has ended). */
let rows: MarketEventRow[] = [];
/** Candles by symbol and open_time, for the studied days, the day before and 8 days after. */
const candleIndex = new Map<MarketSymbol, Map<number, Candle>>();
const candleAt = (symbol: MarketSymbol, openTime: number): Candle => {
  const candle = candleIndex.get(symbol)?.get(openTime);
  if (!candle) throw new Error(`no candle ${symbol} ${openTime}`);
  return candle;
};
const get = (row: MarketEventRow, name: string) => (row as unknown as Record<string, unknown>)[name];

beforeAll(() => {
  rows = studied.flatMap((day) => simulator.dayRows(day, late));
  const first = unix(`${days[0]}T00:00:00Z`) / DAY;
  for (const symbol of SYMBOLS) {
    const map = new Map<number, Candle>();
    for (let d = first; d <= first + 12; d++) {
      const day = new Date(d * DAY * 1000).toISOString().slice(0, 10);
      for (const candle of simulator.candles(symbol, day)) map.set(candle.open_time, candle);
    }
    candleIndex.set(symbol, map);
  }
});

describe('row schema', () => {
  it('gives every row exactly the spec fields, in spec order', () => {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Object.keys(row)).toEqual(MARKET_EVENT_FIELD_NAMES);
  });

  it('keeps every value within its field type, nullability and value set', () => {
    const problems: string[] = [];
    const seen = new Map<string, Set<unknown>>(MARKET_EVENT_FIELDS.map((field) => [field.name, new Set()]));
    for (const row of rows) {
      for (const field of MARKET_EVENT_FIELDS) {
        const value = get(row, field.name);
        if (value === null) {
          if (!field.nullable) problems.push(`${field.name} is null`);
          continue;
        }
        const typeOk =
          field.type === 'string' ? typeof value === 'string'
          : field.type === 'boolean' ? typeof value === 'boolean'
          : field.type === 'integer' ? Number.isInteger(value)
          : typeof value === 'number' && Number.isFinite(value);
        if (!typeOk) problems.push(`${field.name}=${String(value)} is not ${field.type}`);
        if (field.values && !field.values.includes(value as string)) problems.push(`${field.name}=${String(value)} outside its value set`);
        seen.get(field.name)?.add(value);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(seen.get('sample_type')).toEqual(new Set(['event', 'control']));
    expect(seen.get('event_kind')).toEqual(new Set(['breakout', 'volume_spike', 'momentum']));
    expect(seen.get('derivative_status')?.size).toBe(2);
    expect(seen.get('feature_pit_eligible')).toEqual(new Set([true, false]));
  });

  it('uses only numbers that survive JSON and CSV text exactly', () => {
    const problems: string[] = [];
    for (const row of rows) {
      const copy = JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
      for (const name of MARKET_EVENT_FIELD_NAMES) {
        const value = get(row, name);
        if (copy[name] !== value) problems.push(`${name}: JSON changed ${String(value)}`);
        if (typeof value === 'number' && Number(String(value)) !== value) problems.push(`${name}: text changed ${value}`);
        if (typeof value === 'number' && String(value).replace(/^-?\d+\.?/, '').length > 8) problems.push(`${name}: ${value} has many decimals`);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it('gives unique 64-hex row IDs: sha256 of the event identity or the control time', () => {
    expect(new Set(rows.map((row) => row.row_id)).size).toBe(rows.length);
    const control = rows.find((row) => row.sample_type === 'control') as MarketEventRow;
    const event = rows.find((row) => row.sample_type === 'event') as MarketEventRow;
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(control.row_id).toBe(sha(['market-events-v1', 'control', control.symbol, control.sample_time].join('|')));
    expect(event.row_id).toBe(
      sha(['market-events-v1', 'event', event.symbol, event.event_kind, event.event_timeframe, event.direction, event.event_time].join('|')),
    );
  });

  it('orders rows by sample_time, symbol, sample_type, row_id', () => {
    const day = simulator.dayRows(studied[0] as string, late);
    const key = (row: MarketEventRow) => [row.sample_time, row.symbol, row.sample_type, row.row_id] as const;
    for (let i = 1; i < day.length; i++) {
      const [a, b] = [key(day[i - 1] as MarketEventRow), key(day[i] as MarketEventRow)];
      const ordered = a[0] < b[0] || (a[0] === b[0] && `${a[1]}|${a[2]}|${a[3]}` < `${b[1]}|${b[2]}|${b[3]}`);
      expect(ordered).toBe(true);
    }
  });

  it('produces about 450-550 rows per day, mostly events', () => {
    const perDay = rows.length / studied.length;
    expect(perDay).toBeGreaterThan(300);
    expect(perDay).toBeLessThan(800);
    expect(rows.filter((row) => row.sample_type === 'event').length).toBeGreaterThan(rows.length * 0.8);
  });
});

describe('samples', () => {
  it('puts every row in its UTC day and derives reference_start = ceil(sample_time/300)*300', () => {
    for (const day of studied) {
      const start = unix(`${day}T00:00:00Z`);
      for (const row of simulator.dayRows(day, late)) {
        expect(row.sample_time).toBeGreaterThanOrEqual(start);
        expect(row.sample_time).toBeLessThan(start + DAY);
        expect(row.reference_start).toBe(Math.ceil(row.sample_time / 300) * 300);
        expect(row.reference_start - row.sample_time).toBeGreaterThanOrEqual(0);
        expect(row.reference_start - row.sample_time).toBeLessThan(300);
      }
    }
  });

  it('places controls on the hourly grid and never within an hour after a recorded event of that coin', () => {
    const all = [days[0] as string, ...studied].flatMap((day) => simulator.dayRows(day, late));
    const controls = rows.filter((row) => row.sample_type === 'control');
    expect(controls.length).toBeGreaterThan(10);
    for (const control of controls) {
      expect(control.sample_time % 3600).toBe(0);
      const blocking = all.filter(
        (row) =>
          row.sample_type === 'event' &&
          row.symbol === control.symbol &&
          row.sample_time >= control.sample_time - 3600 &&
          row.sample_time <= control.sample_time,
      );
      expect(blocking).toEqual([]);
      expect(control).toMatchObject({
        event_kind: null,
        direction: null,
        event_timeframe: null,
        event_time: null,
        event_recorded_at: null,
        trigger_value: null,
        trigger_threshold: null,
        control_status: 'no_recorded_event_1h',
        excursion_reference: 'long',
      });
    }
    // Every grid hour without a recorded event in the hour before has its control.
    for (const symbol of SYMBOLS) {
      for (let t = unix(`${studied[0]}T00:00:00Z`); t < unix(`${studied[0]}T00:00:00Z`) + DAY; t += 3600) {
        const blocked = all.some((row) => row.sample_type === 'event' && row.symbol === symbol && row.sample_time >= t - 3600 && row.sample_time <= t);
        const control = rows.some((row) => row.sample_type === 'control' && row.symbol === symbol && row.sample_time === t);
        expect(control).toBe(!blocked);
      }
    }
  });

  it('records events after their source time, with the rule metadata and the matching excursion reference', () => {
    for (const event of rows.filter((row) => row.sample_type === 'event')) {
      expect(event.sample_time).toBe(event.event_recorded_at);
      expect(event.sample_time - (event.event_time as number)).toBeGreaterThan(0);
      expect(event.sample_time - (event.event_time as number)).toBeLessThanOrEqual(900);
      expect((event.event_time as number) % CANDLE_SECONDS).toBe(0);
      expect(event.control_status).toBe('not_applicable');
      expect(event.excursion_reference).toBe(event.direction === 'down' ? 'short' : 'long');
      expect(event.trigger_value as number).toBeGreaterThanOrEqual(event.trigger_threshold as number);
      expect(event.event_timeframe).not.toBeNull();
    }
  });

  it('records breakout events that the candles reproduce', () => {
    const breakouts = rows.filter((row) => row.event_kind === 'breakout' && row.event_timeframe === '1h').slice(0, 40);
    expect(breakouts.length).toBeGreaterThan(10);
    for (const event of breakouts) {
      const bar = candleAt(event.symbol, (event.event_time as number) - 300);
      const prior = Array.from({ length: 12 }, (_, i) => candleAt(event.symbol, bar.open_time - 300 * (i + 1)));
      const value =
        event.direction === 'up'
          ? 100 * (bar.close / Math.max(...prior.map((c) => c.high)) - 1)
          : 100 * (1 - bar.close / Math.min(...prior.map((c) => c.low)));
      expect(value).toBeCloseTo(event.trigger_value as number, 3);
    }
  });
});

describe('features', () => {
  it('computes feature_age_seconds = sample_time - price_time and takes price from that candle', () => {
    for (const row of rows) {
      if (row.price === null) continue;
      expect(row.feature_age_seconds).toBeCloseTo(row.sample_time - (row.price_time as number), 6);
      const candle = candleAt(row.symbol, (row.price_time as number) - 300);
      expect(row.price).toBe(candle.close);
      expect(row.quote_volume_5m).toBe(candle.quote_volume);
      expect(row.price_time as number).toBeLessThanOrEqual(row.sample_time);
    }
  });

  it('applies the feature_status rules: locally known within 30 minutes, else retrospective, else missing', () => {
    const statuses = new Set(rows.map((row) => row.feature_status));
    expect(statuses.has('locally_known')).toBe(true);
    for (const row of rows) {
      const lastClosed = Math.floor(row.sample_time / 300) * 300 - 300;
      const knownCandidates: Candle[] = [];
      for (let open = lastClosed; open + 300 >= row.sample_time - 1800; open -= 300) {
        const candle = candleAt(row.symbol, open);
        if (!candle.missing && !candle.invalid_price && candle.archived_at <= row.sample_time) knownCandidates.push(candle);
      }
      if (row.feature_status === 'locally_known') {
        expect(row.price_time).toBe(knownCandidates[0]?.close_time);
        expect(row.feature_age_seconds as number).toBeLessThanOrEqual(1800);
      } else {
        expect(knownCandidates).toEqual([]);
      }
      if (row.feature_status === 'missing_candle') {
        expect(row).toMatchObject({ price: null, price_time: null, feature_age_seconds: null, taker_status: 'missing_candle', feature_pit_eligible: false });
      }
      expect(row.feature_pit_eligible).toBe(
        row.feature_status === 'locally_known' && (row.feature_available_at as number) <= row.sample_time,
      );
      if (row.feature_available_at !== null) {
        expect(row.feature_available_at).toBeGreaterThanOrEqual(candleAt(row.symbol, (row.price_time as number) - 300).archived_at);
      }
    }
  });

  it('marks a late-archived candle as not locally known: the row falls back to an older bar or retrospective', () => {
    const fallbacks = rows.filter((row) => {
      const lastClosed = candleAt(row.symbol, Math.floor(row.sample_time / 300) * 300 - 300);
      return !lastClosed.missing && lastClosed.archived_at > row.sample_time;
    });
    expect(fallbacks.length).toBeGreaterThan(0);
    for (const row of fallbacks) {
      expect(row.feature_status === 'retrospective' || (row.price_time as number) < Math.floor(row.sample_time / 300) * 300).toBe(true);
    }
  });

  it('derives taker fields per taker_status and nulls volume_ratio_20 when a prior bar is missing', () => {
    for (const row of rows) {
      if (row.taker_status === 'usable') {
        expect(row.taker_buy_fraction as number).toBeGreaterThanOrEqual(0);
        expect(row.taker_buy_fraction as number).toBeLessThanOrEqual(1);
        expect(row.taker_buy_fraction).toBeCloseTo((row.taker_buy_quote_5m as number) / (row.quote_volume_5m as number), 5);
        expect(row.net_taker_quote_5m).toBeCloseTo(2 * (row.taker_buy_quote_5m as number) - (row.quote_volume_5m as number), 1);
      } else {
        expect(row.taker_buy_fraction).toBeNull();
      }
      if (row.price_time === null) continue;
      const selected = (row.price_time as number) - 300;
      const prior = Array.from({ length: 20 }, (_, i) => candleAt(row.symbol, selected - 300 * (i + 1)));
      if (prior.some((candle) => candle.missing)) expect(row.volume_ratio_20).toBeNull();
      else if (row.volume_ratio_20 !== null) {
        const mean = prior.reduce((sum, candle) => sum + candle.quote_volume, 0) / 20;
        expect(row.volume_ratio_20).toBeCloseTo((row.quote_volume_5m as number) / mean, 5);
      }
    }
  });

  it('uses the newest derivative observation known at sample_time and at most 1800 s old, else nulls', () => {
    for (const row of rows) {
      if (row.derivative_status === 'normalized_type_unavailable') {
        expect(row.derivative_venue).toBe(DERIVATIVE_VENUE);
        expect(row.sample_time - (row.derivative_time as number)).toBeLessThanOrEqual(1800);
        expect(row.sample_time - (row.derivative_time as number)).toBeGreaterThanOrEqual(0);
        expect(row.derivative_available_at as number).toBeLessThanOrEqual(row.sample_time);
      } else {
        expect(row).toMatchObject({ derivative_venue: null, funding_hourly_pct: null, oi_usd: null, derivative_time: null, derivative_available_at: null });
      }
      expect(row.venue).toBe(SPOT_VENUE);
    }
    const row = rows.find((r) => r.derivative_status === 'normalized_type_unavailable' && r.sample_time % DAY > 7200) as MarketEventRow;
    const day = new Date(row.sample_time * 1000).toISOString().slice(0, 10);
    const newest = simulator
      .derivativeObservations(row.symbol, day)
      .filter((o) => o.available_at <= row.sample_time && row.sample_time - o.bucket_time <= 1800 && o.bucket_time <= row.sample_time)
      .at(-1);
    expect(newest?.bucket_time).toBe(row.derivative_time);
  });
});

describe('outcomes', () => {
  const numbers = ['return_pct', 'direction_adjusted_return_pct', 'mfe_pct', 'mae_pct', 'missing_candles', 'expected_candles'];

  it('long after the day: no window is pending; complete outcomes match the candles', () => {
    let checked = 0;
    for (const row of rows) {
      for (const window of WINDOWS) {
        const status = get(row, `status_${window}`);
        expect(status).not.toBe('pending');
        if (status !== 'complete') continue;
        const bars = WINDOW_SECONDS[window] / 300;
        expect(get(row, `expected_candles_${window}`)).toBe(bars);
        expect(get(row, `missing_candles_${window}`)).toBeNull();
        expect(get(row, `mfe_pct_${window}`) as number).toBeGreaterThanOrEqual(0);
        expect(get(row, `mae_pct_${window}`) as number).toBeGreaterThanOrEqual(0);
        const ret = get(row, `return_pct_${window}`) as number;
        const adjusted = get(row, `direction_adjusted_return_pct_${window}`);
        if (row.sample_type === 'control') expect(adjusted).toBeNull();
        else expect(adjusted).toBe(row.direction === 'up' ? ret : ret === 0 ? 0 : -ret);
        if (window === '1h' && checked < 50) {
          checked++;
          const open = candleAt(row.symbol, row.reference_start).open;
          const close = candleAt(row.symbol, row.reference_start + WINDOW_SECONDS[window] - 300).close;
          expect(ret).toBeCloseTo(100 * (close / open - 1), 5);
        }
      }
    }
    expect(checked).toBe(50);
  });

  it('gives gap outcomes a positive missing_candles count and null returns, never zero', () => {
    const gaps = rows.flatMap((row) => WINDOWS.filter((w) => get(row, `status_${w}`) === 'gap').map((w) => [row, w] as const));
    expect(gaps.length).toBeGreaterThan(0);
    for (const [row, window] of gaps) {
      expect(get(row, `missing_candles_${window}`) as number).toBeGreaterThan(0);
      for (const measure of ['return_pct', 'direction_adjusted_return_pct', 'mfe_pct', 'mae_pct']) {
        expect(get(row, `${measure}_${window}`)).toBeNull();
      }
      const bars = Array.from({ length: WINDOW_SECONDS[window] / 300 }, (_, i) => candleAt(row.symbol, row.reference_start + 300 * i));
      expect(bars.filter((bar) => bar.missing || bar.archived_at > late).length).toBe(get(row, `missing_candles_${window}`));
    }
  });

  it('just after the day: windows ending after asOf are pending with every number null', () => {
    const day = studied[1] as string;
    const asOf = unix(`${day}T00:00:00Z`) + DAY + 60;
    const early = simulator.dayRows(day, asOf);
    let pending = 0;
    for (const row of early) {
      for (const window of WINDOWS) {
        const isPending = row.reference_start + WINDOW_SECONDS[window] > asOf;
        expect(get(row, `status_${window}`) === 'pending').toBe(isPending);
        if (!isPending) continue;
        pending++;
        for (const measure of numbers) expect(get(row, `${measure}_${window}`)).toBeNull();
      }
      expect(row.status_7d).toBe('pending');
    }
    expect(pending).toBeGreaterThan(early.length);
  });

  it('repairs a gap of a late-archived candle at a later re-check (the revision differs)', () => {
    let repaired = 0;
    for (const day of days.slice(0, 7)) {
      const end = unix(`${day}T00:00:00Z`) + DAY;
      const first = simulator.dayRows(day, end + 3600);
      const later = new Map(simulator.dayRows(day, end + 9 * 3600).map((row) => [row.row_id, row]));
      for (const row of first) {
        for (const window of ['15m', '1h', '4h'] as const) {
          if (get(row, `status_${window}`) === 'gap' && get(later.get(row.row_id) as MarketEventRow, `status_${window}`) === 'complete') repaired++;
        }
      }
    }
    expect(repaired).toBeGreaterThan(0);
  });
});
