// Identity and versions of the paid dataset (spec: "Versioning").

/** The paid dataset's identity; also `dataset` on every row. */
export const MARKET_EVENTS_DATASET = 'market-events-v1';

/** Product version string: "a name with a numeric suffix", carried in `version` and `calculation_version`. */
export const PRODUCT_VERSION = 'mev-calc-4';

/** Recent daily partitions re-checked hourly (spec: Freshness rule 3). */
export const RECHECKED_DAYS = 9;

/** Re-check interval of recent partitions, in seconds. */
export const RECHECK_INTERVAL_SECONDS = 3600;

/** Control samples sit on a fixed hourly grid and need no recorded event in the hour before (seconds). */
export const CONTROL_GRID_SECONDS = 3600;
export const CONTROL_LOOKBACK_SECONDS = 3600;

/** Price selection: most recent closed 5-minute bar within this age counts as locally known (seconds). */
export const PRICE_MAX_AGE_SECONDS = 30 * 60;

/** Derivative observations older than this at sample_time are not used (seconds). */
export const DERIVATIVE_MAX_AGE_SECONDS = 1800;

/** Bars in the volume_ratio_20 baseline. */
export const VOLUME_RATIO_BARS = 20;

/** Scope and interpretation boundaries that travel with every release (spec wording). */
export const MARKET_EVENTS_LIMITATIONS: readonly string[] = [
  'Six fixed spot pairs on one spot exchange; not a raw exchange feed and not an all-market multi-year archive.',
  'Control samples are scheduled comparison observations on a fixed hourly grid, not matched negative signals; absence of a recorded event does not prove that no rule triggered.',
  'Outcome fields are future labels and must never be used as predictor inputs.',
  'Pending or gap outcomes are missing values, not zero returns.',
  'Reference prices exclude fees, slippage and fills; excursion references are not executable trades.',
  'trigger_value and trigger_threshold are not comparable across rule families; a threshold is not a probability.',
  'Derivative context comes from a derivatives venue that is not the spot exchange; funding is normalized per hour with native type and settlement unknown; open interest is not net inflow.',
  'Old gaps are not guaranteed to be repaired; recent days may be revised under a new release ID.',
];
