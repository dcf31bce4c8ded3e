// The `csv` release file: header of MARKET_EVENT_FIELD_NAMES, one line per row in file order.

import { MARKET_EVENT_FIELD_NAMES, type MarketEventRow } from '../../contract/index.js';
import { formatCsv } from './csv-text.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of the release CSV (RFC 4180, `\n` line ends, nulls as empty fields). */
export function releaseCsv(rows: readonly MarketEventRow[]): Uint8Array {
  return encoder.encode(formatCsv(MARKET_EVENT_FIELD_NAMES, rows as unknown as Record<string, unknown>[]));
}
