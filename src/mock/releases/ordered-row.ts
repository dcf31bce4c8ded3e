// A row rebuilt with its keys in spec order (MARKET_EVENT_FIELD_NAMES), checked for values no file can carry.

import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../contract/index.js';
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

/**
 * `rows.map(orderedRow)` for rows the caller owns, without freezing: a row whose own keys already are
 * exactly the spec's fields in spec order, with no undefined value, is checked and kept as it is (the
 * simulator builds its rows that way); any other row is copied by `orderedRow`. The caller freezes the
 * rows after serializing them (`freezeRows`): V8 serializes frozen objects measurably slower.
 */
export function orderedRows(rows: readonly MarketEventRow[]): MarketEventRow[] {
  const names = MARKET_EVENT_FIELD_NAMES;
  return rows.map((row) => {
    const source = row as unknown as Record<string, unknown>;
    let index = 0;
    for (const key in source) {
      if (key !== names[index] || source[key] === undefined) return orderedRow(row);
      index++;
    }
    if (index !== names.length) return orderedRow(row);
    for (let i = 0; i < index; i++) {
      const value = source[names[i] as string];
      if (typeof value === 'number' && !Number.isFinite(value)) throw new ReleaseValueError(messages.nonFiniteValue(names[i] as string, value));
    }
    return row;
  });
}

/** Freezes every row (in place) and returns the array. */
export function freezeRows(rows: MarketEventRow[]): MarketEventRow[] {
  for (const row of rows) Object.freeze(row);
  return rows;
}
