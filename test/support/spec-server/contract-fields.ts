// The Research Data API spec's Market Events contract, written out by hand from the spec document alone
// (never imported from src/contract or src/mock): this independence is the point of the foreign server.

/** `market-events-v1` (spec: Versioning, "Dataset identity"). */
export const DATASET_ID = 'market-events-v1';

/** The six fixed spot pairs (spec: "What the service does"). */
export const PAIRS = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'DOGEUSDT'] as const;

/** Outcome windows W and their length in seconds (spec: "Outcome fields exist once per window W"). */
export const OUTCOME_WINDOWS = [
  ['15m', 900],
  ['1h', 3600],
  ['4h', 14_400],
  ['24h', 86_400],
  ['7d', 604_800],
] as const;

export type OutcomeWindow = (typeof OUTCOME_WINDOWS)[number][0];

/** Value sets (spec: "States and transitions"). */
export const OUTCOME_STATUS_VALUES = ['pending', 'gap', 'invalid_price', 'not_applicable', 'complete'] as const;
export const FEATURE_STATUS_VALUES = ['locally_known', 'retrospective', 'missing_candle'] as const;
export const TAKER_STATUS_VALUES = ['usable', 'invalid_or_zero_volume', 'missing_candle'] as const;
export const DERIVATIVE_STATUS_VALUES = ['normalized_type_unavailable', 'no_locally_known_recent_observation'] as const;

/** The spec's own type words ("Type" column): string, number, boolean. */
export type SpecType = 'string' | 'number' | 'boolean';

/**
 * What the foreign server writes a column as. `count` and `time` are spec "number" fields that a server
 * may choose to store as integers (the spec only says "number").
 */
export type ColumnKind = 'string' | 'number' | 'boolean' | 'time' | 'count';

export interface ContractField {
  name: string;
  type: SpecType;
  kind: ColumnKind;
  nullable: boolean;
  description: string;
}

const field = (name: string, kind: ColumnKind, description: string, nullable = true): ContractField => ({
  name,
  type: kind === 'time' || kind === 'count' ? 'number' : kind,
  kind,
  nullable,
  description,
});

/** The Market Events row table, in the spec's order ("Unless stated, a field is nullable"). */
const ROW_FIELDS: readonly ContractField[] = [
  field('row_id', 'string', 'SHA-256 of the public event identity or of the fixed control time'),
  field('dataset', 'string', 'Product identifier'),
  field('calculation_version', 'string', 'Product formula and scope version'),
  field('sample_type', 'string', 'event or control'),
  field('symbol', 'string', 'One of the six pairs'),
  field('venue', 'string', 'Price/reference venue (the spot exchange)'),
  field('event_kind', 'string', 'Public rule family; null for control'),
  field('direction', 'string', 'up or down; null for control'),
  field('event_timeframe', 'string', 'Timeframe of the trigger rule; null for control'),
  field('control_status', 'string', 'For events: not_applicable'),
  field('sample_time', 'time', 'Event recorded time, or the fixed hourly control grid time'),
  field('event_time', 'time', 'Source event time; null for control'),
  field('event_recorded_at', 'time', 'Creation time in the public signal database'),
  field('trigger_value', 'number', 'Original trigger metric'),
  field('trigger_threshold', 'number', 'Threshold in the same units as trigger_value'),
  field('feature_status', 'string', 'locally_known, retrospective or missing_candle'),
  field('feature_pit_eligible', 'boolean', 'True when the included candle features were locally archived by sample_time', false),
  field('taker_status', 'string', 'usable, invalid_or_zero_volume or missing_candle'),
  field('price', 'number', 'USDT price'),
  field('price_time', 'time', 'Close time of the selected candle'),
  field('feature_age_seconds', 'time', 'sample_time minus price_time'),
  field('quote_volume_5m', 'number', 'Executed quote volume in USDT'),
  field('taker_buy_quote_5m', 'number', 'Validated aggressive-buy quote volume in USDT'),
  field('taker_buy_fraction', 'number', 'Aggressive buys divided by quote volume, 0..1'),
  field('net_taker_quote_5m', 'number', '2 x aggressive-buy quote minus total quote, USDT'),
  field('volume_ratio_20', 'number', 'Selected 5-minute quote volume over the mean of the prior 20'),
  field('feature_available_at', 'time', 'Maximum last archive-write time of the included candle features'),
  field('derivative_venue', 'string', 'Derivatives-venue context'),
  field('derivative_status', 'string', 'normalized_type_unavailable or no_locally_known_recent_observation'),
  field('funding_hourly_pct', 'number', 'Normalized funding in percentage points per hour'),
  field('oi_usd', 'number', 'Open-interest notional, USD'),
  field('derivative_time', 'time', 'Source observation bucket time'),
  field('derivative_available_at', 'time', 'Archive-write time of that derivative version'),
  field('excursion_reference', 'string', 'long for controls and up events, short for down events'),
  field('reference_start', 'time', 'ceil(sample_time/300)*300'),
];

/** The outcome fields of one window, in the spec's order. */
function outcomeFields(window: OutcomeWindow): ContractField[] {
  return [
    field(`status_${window}`, 'string', 'pending, gap, invalid_price, not_applicable or complete', false),
    field(`return_pct_${window}`, 'number', '100*(final_close/reference_open-1), percentage points'),
    field(`direction_adjusted_return_pct_${window}`, 'number', 'Raw return signed by event direction; null for controls'),
    field(`mfe_pct_${window}`, 'number', 'Maximum favorable reference excursion, percentage points'),
    field(`mae_pct_${window}`, 'number', 'Maximum adverse reference excursion, percentage points'),
    field(`missing_candles_${window}`, 'count', 'Missing or invalid-duration 5-minute bars when status is gap'),
    field(`expected_candles_${window}`, 'count', 'Expected 5-minute bars when computed'),
  ];
}

/** Every Market Events row field: the row table, then the outcome fields window by window. */
export const CONTRACT_FIELDS: readonly ContractField[] = [...ROW_FIELDS, ...OUTCOME_WINDOWS.flatMap(([window]) => outcomeFields(window))];
