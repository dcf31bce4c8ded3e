// The `csv` release file: header of MARKET_EVENT_FIELD_NAMES, one line per row in file order.

import { formatCsv, type CsvOptions } from '../../base/index.js';
import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../contract/index.js';
import { messages } from './messages.js';
import { ReleaseValueError } from './release-errors.js';

const encoder = new TextEncoder();

/**
 * How the mock writes every CSV it serves (release files, Research snapshots): an empty string as `""` so
 * readers can tell it from null; a NaN or infinite number is refused with ReleaseValueError (no file can carry it).
 */
export const RELEASE_CSV_OPTIONS: CsvOptions = {
  quoteEmpty: true,
  nonFinite: (value, column) => {
    throw new ReleaseValueError(messages.nonFiniteValue(column, value));
  },
};

/** UTF-8 bytes of the release CSV (RFC 4180, `\n` line ends, nulls as empty fields). */
export function releaseCsv(rows: readonly MarketEventRow[]): Uint8Array {
  return encoder.encode(formatCsv(MARKET_EVENT_FIELD_NAMES, rows as unknown as Record<string, unknown>[], RELEASE_CSV_OPTIONS));
}
