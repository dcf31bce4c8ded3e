// Which value sets of src/contract the spec gives as closed lists (its "States" table and the row table's "one of"
// fields). Every other value set (event kinds, timeframes, control and derivative statuses) is the mock's choice or
// "observed values", so it stays open: the OpenAPI document writes it as examples, an import takes any value.

import { SYMBOLS } from './symbols.js';
import { DIRECTIONS, EXCURSION_REFERENCES, FEATURE_STATUSES, OUTCOME_STATUSES, SAMPLE_TYPES, TAKER_STATUSES } from './value-sets.js';

/** The closed value sets, by identity (compare a field's `values` with `includes`). */
export const CLOSED_VALUE_SETS: readonly (readonly string[])[] = [
  SAMPLE_TYPES,
  SYMBOLS,
  DIRECTIONS,
  FEATURE_STATUSES,
  TAKER_STATUSES,
  OUTCOME_STATUSES,
  EXCURSION_REFERENCES,
];
