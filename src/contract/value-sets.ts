// Value sets of Market Events fields (spec: "States and transitions" and the row table).

export const SAMPLE_TYPES = ['event', 'control'] as const;
export type SampleType = (typeof SAMPLE_TYPES)[number];

export const DIRECTIONS = ['up', 'down'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** status_W of every window. Only `complete` carries a usable outcome; every other status is missing. */
export const OUTCOME_STATUSES = ['pending', 'gap', 'invalid_price', 'not_applicable', 'complete'] as const;
export type OutcomeStatus = (typeof OUTCOME_STATUSES)[number];

export const FEATURE_STATUSES = ['locally_known', 'retrospective', 'missing_candle'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

export const TAKER_STATUSES = ['usable', 'invalid_or_zero_volume', 'missing_candle'] as const;
export type TakerStatus = (typeof TAKER_STATUSES)[number];

export const RELEASE_STATUSES = ['ready'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/**
 * control_status. The spec gives `not_applicable` for events; the value for a control that passed
 * the one-hour rule is not shown, so rdw uses `no_recorded_event_1h` (DESIGN.md section 3).
 */
export const CONTROL_STATUSES = ['no_recorded_event_1h', 'not_applicable'] as const;
export type ControlStatus = (typeof CONTROL_STATUSES)[number];

/**
 * derivative_status: the spec's observed values. `normalized_type_unavailable` accompanies an
 * observation whose funding was normalized without knowing its native type; the other means none.
 */
export const DERIVATIVE_STATUSES = ['normalized_type_unavailable', 'no_locally_known_recent_observation'] as const;
export type DerivativeStatus = (typeof DERIVATIVE_STATUSES)[number];

/** excursion_reference: `long` for controls and up events, `short` for down events. */
export const EXCURSION_REFERENCES = ['long', 'short'] as const;
export type ExcursionReference = (typeof EXCURSION_REFERENCES)[number];

/** Public rule families that record `event` samples (event_kind), with their trigger timeframe. */
export const EVENT_KINDS = ['breakout', 'volume_spike', 'momentum'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const EVENT_TIMEFRAMES = ['5m', '1h', '4h'] as const;
export type EventTimeframe = (typeof EVENT_TIMEFRAMES)[number];
