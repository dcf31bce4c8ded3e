// Rows to an Arrow table typed from the spec (tableFromJSON would drop all-null columns).

import { Bool, Float64, Table, Utf8, vectorFromArray, type Vector } from 'apache-arrow';
import { MARKET_EVENT_FIELDS } from '../../src/contract/index.js';

export function rowsToArrow(rows: readonly Record<string, unknown>[], extra: Record<string, string> = {}): Table {
  const vectors: Record<string, Vector> = {};
  for (const [name, value] of Object.entries(extra)) vectors[name] = vectorFromArray(rows.map(() => value), new Utf8());
  for (const field of MARKET_EVENT_FIELDS) {
    const values = rows.map((row) => row[field.name] ?? null);
    vectors[field.name] =
      field.type === 'string'
        ? vectorFromArray(values as (string | null)[], new Utf8())
        : field.type === 'boolean'
          ? vectorFromArray(values as (boolean | null)[], new Bool())
          : vectorFromArray(values as (number | null)[], new Float64());
  }
  return new Table(vectors);
}
