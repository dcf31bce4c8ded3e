// A row rebuilt with its keys in spec order (MARKET_EVENT_FIELD_NAMES), checked for values no file can carry.

import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../spec/index.js';
import { messages } from './messages.js';
import { ReleaseValueError } from './release-errors.js';

/**
 * A frozen copy of `row` holding exactly the spec's fields in spec order (absent -> null), so JSON items,
 * CSV columns and Parquet columns agree. Throws `ReleaseValueError` on NaN or Infinity.
 */
export function orderedRow(row: Readonly<MarketEventRow>): MarketEventRow {
  const source = row as unknown as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const name of MARKET_EVENT_FIELD_NAMES) {
    const value = source[name] ?? null;
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw new ReleaseValueError(messages.nonFiniteValue(name, value));
    }
    ordered[name] = value;
  }
  return Object.freeze(ordered) as unknown as MarketEventRow;
}
