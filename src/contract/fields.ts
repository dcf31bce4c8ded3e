// The Market Events row schema as data: every field with its type, nullability, role and meaning.
// This is the single source: schema files, DuckDB columns, SQL views, splits, the leakage guard and the
// mock's generator all derive from MARKET_EVENT_FIELDS. Field order is the spec's order (CSV columns).

import { WINDOWS, type Window } from './windows.js';
import { SYMBOLS } from './symbols.js';
import {
  CONTROL_STATUSES,
  DERIVATIVE_STATUSES,
  DIRECTIONS,
  EVENT_KINDS,
  EVENT_TIMEFRAMES,
  EXCURSION_REFERENCES,
  FEATURE_STATUSES,
  OUTCOME_STATUSES,
  SAMPLE_TYPES,
  TAKER_STATUSES,
} from './value-sets.js';

/** JSON types of the spec's field table. `number` may carry fractions; `integer` never does. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean';

/**
 * What a field is for in an analysis.
 * - identity: names the sample (which coin, which kind, when); joins predictors to labels.
 * - metadata: describes the sample or how its label is referenced; known at sample time, not a feature.
 * - predictor: a point-in-time feature that a model may use.
 * - label: an outcome field: future information, never a predictor input.
 * - provenance: where and when the inputs came from (statuses, archive times, venues).
 */
export type FieldRole = 'identity' | 'metadata' | 'predictor' | 'label' | 'provenance';
export const FIELD_ROLES: readonly FieldRole[] = ['identity', 'metadata', 'predictor', 'label', 'provenance'];

/** The measures that exist once per outcome window. */
export const OUTCOME_MEASURES = [
  'status',
  'return_pct',
  'direction_adjusted_return_pct',
  'mfe_pct',
  'mae_pct',
  'missing_candles',
  'expected_candles',
] as const;
export type OutcomeMeasure = (typeof OUTCOME_MEASURES)[number];

/**
 * The measures that are values of a complete window (spec: "Pending or gap outcomes are missing values, not zero
 * returns"): missing unless status_W is `complete`. missing_candles and expected_candles describe an incomplete
 * window (a gap's missing bars), so they are not among them.
 */
export const COMPLETE_OUTCOME_MEASURES = ['return_pct', 'direction_adjusted_return_pct', 'mfe_pct', 'mae_pct'] as const satisfies readonly OutcomeMeasure[];

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
  /** False only where the spec says "not nullable"; the spec's default is nullable. */
  readonly nullable: boolean;
  readonly role: FieldRole;
  readonly description: string;
  /** Allowed values of a string field, when the spec gives a value set. */
  readonly values?: readonly string[];
  /** For label fields: the window and measure they belong to. */
  readonly window?: Window;
  readonly measure?: OutcomeMeasure;
  /** Unit of a numeric field, for docs and charts. */
  readonly unit?: string;
}

const f = (
  name: string,
  type: FieldType,
  role: FieldRole,
  description: string,
  extra: Partial<Omit<FieldSpec, 'name' | 'type' | 'role' | 'description'>> = {},
): FieldSpec => ({ name, type, nullable: true, role, description, ...extra });

/** Row fields before the outcome block, in spec order. */
export const SAMPLE_FIELDS: readonly FieldSpec[] = [
  f('row_id', 'string', 'identity', 'SHA-256 of the public event identity or of the fixed control time; carries no account identity'),
  f('dataset', 'string', 'metadata', 'Product identifier'),
  f('calculation_version', 'string', 'metadata', 'Product formula and scope version'),
  f('sample_type', 'string', 'identity', '`event` or `control`', { values: SAMPLE_TYPES }),
  f('symbol', 'string', 'identity', 'One of the six pairs', { values: SYMBOLS }),
  f('venue', 'string', 'provenance', 'Price/reference venue (the spot exchange)'),
  f('event_kind', 'string', 'metadata', 'Public rule family; null for control', { values: EVENT_KINDS }),
  f('direction', 'string', 'metadata', '`up` or `down`; null for control', { values: DIRECTIONS }),
  f('event_timeframe', 'string', 'metadata', 'Timeframe of the trigger rule; null for control', { values: EVENT_TIMEFRAMES }),
  f('control_status', 'string', 'metadata',
    'For controls: no recorded qualifying event within [sample_time-3600, sample_time]; for events the value `not_applicable` is used',
    { values: CONTROL_STATUSES }),
  f('sample_time', 'number', 'identity', 'Event recorded time, or the fixed hourly control grid time', { unit: 'UTC Unix seconds' }),
  f('event_time', 'number', 'provenance', 'Source event time; null for control', { unit: 'UTC Unix seconds' }),
  f('event_recorded_at', 'number', 'provenance',
    'Creation time in the public signal database; not proof of exchange publication', { unit: 'UTC Unix seconds' }),
  f('trigger_value', 'number', 'predictor', 'Original trigger metric; not comparable across rule families'),
  f('trigger_threshold', 'number', 'predictor', 'Threshold in the same units as trigger_value; not a probability'),
  f('feature_status', 'string', 'provenance', '`locally_known`, `retrospective` or `missing_candle`', { values: FEATURE_STATUSES }),
  f('feature_pit_eligible', 'boolean', 'provenance',
    'True when the included candle features were locally archived by sample_time; not proof of a complete point-in-time universe',
    { nullable: false }),
  f('taker_status', 'string', 'provenance', '`usable`, `invalid_or_zero_volume` or `missing_candle`', { values: TAKER_STATUSES }),
  f('price', 'number', 'predictor',
    'USDT price: the most recent locally known closed 5-minute price within 30 minutes, else the last closed bar marked retrospective',
    { unit: 'USDT' }),
  f('price_time', 'number', 'provenance', 'Close time of the selected candle', { unit: 'UTC Unix seconds' }),
  f('feature_age_seconds', 'number', 'predictor', 'sample_time minus price_time', { unit: 'seconds' }),
  f('quote_volume_5m', 'number', 'predictor', 'Executed quote volume in USDT', { unit: 'USDT' }),
  f('taker_buy_quote_5m', 'number', 'predictor', 'Validated aggressive-buy quote volume in USDT; null when invalid', { unit: 'USDT' }),
  f('taker_buy_fraction', 'number', 'predictor', 'Aggressive buys divided by quote volume, 0..1; null for zero volume', { unit: 'fraction' }),
  f('net_taker_quote_5m', 'number', 'predictor', '2 x aggressive-buy quote minus total quote, USDT', { unit: 'USDT' }),
  f('volume_ratio_20', 'number', 'predictor',
    'Selected 5-minute quote volume divided by the mean of the prior 20 contiguous 5-minute volumes; null if incomplete',
    { unit: 'ratio' }),
  f('feature_available_at', 'number', 'provenance', 'Maximum last archive-write time of the included candle features', {
    unit: 'UTC Unix seconds',
  }),
  f('derivative_venue', 'string', 'provenance',
    'Derivatives-venue context; not the spot exchange and not a mapped equivalent contract; null when no observation'),
  f('derivative_status', 'string', 'provenance',
    'Observed values: `normalized_type_unavailable`, `no_locally_known_recent_observation`',
    { values: DERIVATIVE_STATUSES }),
  f('funding_hourly_pct', 'number', 'predictor',
    'Normalized funding in percentage points per hour; native type and settlement unknown', { unit: 'percentage points per hour' }),
  f('oi_usd', 'number', 'predictor', 'Open-interest notional of the same observed row, USD; not net inflow', { unit: 'USD' }),
  f('derivative_time', 'number', 'provenance', 'Source observation bucket time; age at most 1800 seconds', { unit: 'UTC Unix seconds' }),
  f('derivative_available_at', 'number', 'provenance', 'Archive-write time of that derivative version; at most sample_time', {
    unit: 'UTC Unix seconds',
  }),
  f('excursion_reference', 'string', 'metadata',
    '`long` for controls and up events, `short` for down events; a reference, not an executable trade',
    { values: EXCURSION_REFERENCES }),
  f('reference_start', 'number', 'metadata',
    'ceil(sample_time/300)*300; start of the first full subsequent 5-minute interval', { unit: 'UTC Unix seconds' }),
];

/** The outcome block of one window, in spec order. Every field is a label. */
export function outcomeFields(window: Window): FieldSpec[] {
  const label = (measure: OutcomeMeasure, type: FieldType, description: string, extra: Partial<FieldSpec> = {}) =>
    f(`${measure}_${window}`, type, 'label', description, { window, measure, ...extra });
  return [
    label('status', 'string', '`pending`, `gap`, `invalid_price`, `not_applicable` or `complete`', {
      nullable: false,
      values: OUTCOME_STATUSES,
    }),
    label('return_pct', 'number', '100*(final_close/reference_open-1), percentage points', { unit: 'percentage points' }),
    label('direction_adjusted_return_pct', 'number', 'Raw return signed by event direction; null for controls', {
      unit: 'percentage points',
    }),
    label('mfe_pct', 'number', 'Nonnegative maximum favorable reference excursion, percentage points', { unit: 'percentage points' }),
    label('mae_pct', 'number', 'Nonnegative maximum adverse reference excursion, percentage points', { unit: 'percentage points' }),
    label('missing_candles', 'number', 'Missing or invalid-duration 5-minute bars when status is gap; null otherwise', {
      unit: 'candles',
    }),
    label('expected_candles', 'number', 'Expected 5-minute bars when computed; null when pending or not computed', {
      unit: 'candles',
    }),
  ];
}

/** Every Market Events row field, in spec (CSV column) order. */
export const MARKET_EVENT_FIELDS: readonly FieldSpec[] = [...SAMPLE_FIELDS, ...WINDOWS.flatMap(outcomeFields)];

/** Field names in spec order. */
export const MARKET_EVENT_FIELD_NAMES: readonly string[] = MARKET_EVENT_FIELDS.map((field) => field.name);

const FIELD_BY_NAME: ReadonlyMap<string, FieldSpec> = new Map(MARKET_EVENT_FIELDS.map((field) => [field.name, field]));

/** The spec of a row field, or undefined for a name that is not one. */
export function fieldSpec(name: string): FieldSpec | undefined {
  return FIELD_BY_NAME.get(name);
}

/** Names of the fields with the given role(s), in spec order. */
export function fieldsWithRole(...roles: FieldRole[]): string[] {
  return MARKET_EVENT_FIELDS.filter((field) => roles.includes(field.role)).map((field) => field.name);
}

/** The outcome field name of a window and measure, e.g. `return_pct_1h`. */
export function outcomeFieldName(measure: OutcomeMeasure, window: Window): string {
  return `${measure}_${window}`;
}

/** Names of all label (outcome) fields. */
export const LABEL_FIELD_NAMES: readonly string[] = fieldsWithRole('label');
/** Names of all predictor fields. */
export const PREDICTOR_FIELD_NAMES: readonly string[] = fieldsWithRole('predictor');
/** Names of identity fields: the columns that join predictors to labels (with release_id in the catalog). */
export const IDENTITY_FIELD_NAMES: readonly string[] = fieldsWithRole('identity');
