// Deterministic Market Events rows with a planted effect, for analysis tests until (and beside) the mock
// simulator: breakout events carry a known direction-adjusted 1h edge over controls; volume_spike none.

import { createHash } from 'node:crypto';
import { SYMBOLS, WINDOWS, expectedCandles } from '../../src/contract/index.js';
import type { MarketEventRow, Window } from '../../src/contract/index.js';
import { seededRandom } from '../../src/base/index.js';

/** Planted mean direction-adjusted return over controls, percentage points, per event kind (all windows). */
export const SYNTHETIC_EFFECTS = { breakout: 0.3, volume_spike: 0, momentum: -0.1 } as const;
/** Mean raw control return (pp): nonzero so that signing controls by direction matters. */
export const CONTROL_DRIFT = 0.05;
const NOISE_SD: Record<Window, number> = { '15m': 0.3, '1h': 0.6, '4h': 1.2, '24h': 2.5, '7d': 6 };

export interface SyntheticOptions {
  days: number;
  seed?: number;
  /** First UTC day. Default 2026-01-01. */
  startDay?: string;
  /** Events per symbol per day. Default 9. */
  eventsPerSymbolDay?: number;
  /** Share of outcomes marked gap. Default 0.03. */
  gapShare?: number;
  /** Whether the last day's 24h and 7d outcomes are pending. Default true. */
  lastDayPending?: boolean;
}

export interface SyntheticDay {
  day: string;
  releaseId: string;
  rows: MarketEventRow[];
}

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Rows grouped by day (one release each). The last day's longer windows are pending. */
export function syntheticDays(options: SyntheticOptions): SyntheticDay[] {
  const seed = options.seed ?? 1;
  const random = seededRandom(seed);
  const normal = () => {
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const start = Date.parse(`${options.startDay ?? '2026-01-01'}T00:00:00Z`) / 1000;
  const perDay = options.eventsPerSymbolDay ?? 9;
  const gapShare = options.gapShare ?? 0.03;
  const kinds = ['breakout', 'volume_spike', 'momentum'] as const;
  const out: SyntheticDay[] = [];
  for (let d = 0; d < options.days; d += 1) {
    const dayStart = start + d * 86400;
    const day = new Date(dayStart * 1000).toISOString().slice(0, 10);
    const lastDay = (options.lastDayPending ?? true) && d === options.days - 1;
    const rows: MarketEventRow[] = [];
    for (const symbol of SYMBOLS) {
      const samples: { type: 'event' | 'control'; time: number; kind: (typeof kinds)[number] | null; direction: 'up' | 'down' | null }[] = [];
      for (let h = 0; h < 24; h += 1) samples.push({ type: 'control', time: dayStart + h * 3600, kind: null, direction: null });
      for (let e = 0; e < perDay; e += 1) {
        samples.push({
          type: 'event',
          time: dayStart + Math.floor(random() * 86400),
          kind: kinds[e % 3]!,
          direction: random() < 0.5 ? 'up' : 'down',
        });
      }
      for (const sample of samples) {
        const sign = sample.direction === 'down' ? -1 : 1;
        const row: Record<string, unknown> = {
          row_id: sha(`${symbol}|${sample.type}|${sample.time}|${sample.kind}|${seed}`),
          dataset: 'market-events-v1',
          calculation_version: 'mev-calc-4',
          sample_type: sample.type,
          symbol,
          venue: 'spot-exchange',
          event_kind: sample.kind,
          direction: sample.direction,
          event_timeframe: sample.kind ? '5m' : null,
          control_status: sample.type === 'control' ? 'no_recorded_event_1h' : 'not_applicable',
          sample_time: sample.time,
          event_time: sample.kind ? sample.time - 30 : null,
          event_recorded_at: sample.kind ? sample.time : null,
          trigger_value: sample.kind ? 2 + random() : null,
          trigger_threshold: sample.kind ? 2 : null,
          feature_status: 'locally_known',
          feature_pit_eligible: random() > 0.05,
          taker_status: 'usable',
          price: 100 + random(),
          price_time: sample.time - 60,
          feature_age_seconds: 60,
          quote_volume_5m: 1e6 * (1 + random()),
          taker_buy_quote_5m: 5e5,
          taker_buy_fraction: 0.5,
          net_taker_quote_5m: 0,
          volume_ratio_20: 1 + random(),
          feature_available_at: sample.time - (random() < 0.02 ? -30 : 30),
          derivative_venue: 'derivatives-venue',
          derivative_status: 'normalized_type_unavailable',
          funding_hourly_pct: 0.001,
          oi_usd: 1e9,
          derivative_time: sample.time - 600,
          derivative_available_at: random() < 0.02 ? null : sample.time - (random() < 0.02 ? -10 : 10),
          excursion_reference: sample.direction === 'down' ? 'short' : 'long',
          reference_start: Math.ceil(sample.time / 300) * 300,
        };
        for (const window of WINDOWS) {
          const effect = sample.kind ? SYNTHETIC_EFFECTS[sample.kind] : 0;
          // Raw return: controls drift by CONTROL_DRIFT; an event's direction-adjusted mean is the
          // signed control drift plus its planted edge.
          const raw = CONTROL_DRIFT + sign * effect + NOISE_SD[window] * normal();
          const pending = lastDay && (window === '24h' || window === '7d');
          const gap = !pending && random() < gapShare;
          const status = pending ? 'pending' : gap ? 'gap' : 'complete';
          const complete = status === 'complete';
          row[`status_${window}`] = status;
          row[`return_pct_${window}`] = complete ? raw : null;
          row[`direction_adjusted_return_pct_${window}`] = complete && sample.kind ? sign * raw : null;
          row[`mfe_pct_${window}`] = complete ? Math.abs(raw) + random() * 0.2 : null;
          row[`mae_pct_${window}`] = complete ? random() * 0.3 : null;
          row[`missing_candles_${window}`] = gap ? 1 : null;
          row[`expected_candles_${window}`] = pending ? null : expectedCandles(window);
        }
        rows.push(row as unknown as MarketEventRow);
      }
    }
    out.push({ day, releaseId: sha(`release|${day}|${seed}`), rows });
  }
  return out;
}
