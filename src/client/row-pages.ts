// Paging over `/rows/<RELEASE_ID>`: keeps the release ID and the filters on every page (spec rules 1-2),
// stops on has_more false, treats total 0 as success (rule 3), and turns an oversized query into
// RowQueryTooLargeError whose remedy is a full download (rule 6).

import { ROW_QUERY, type MarketEventRow, type PagedRows } from '../spec/index.js';
import { RowQueryTooLargeError, UnexpectedResponseError } from './client-errors.js';
import { messages } from './messages.js';

/** Filters of a row query. */
export interface RowFilters {
  /** One of the six pairs, uppercase. Default: all six. */
  symbol?: string;
  /** `event` or `control`. Default: both. */
  sample_type?: string;
  /** Rows per request, 1-500. Default 500 (fewest requests). */
  pageSize?: number;
}

/** Yields each non-empty page of rows; `fetchPage(query)` sends one request. */
export async function* rowPages(
  releaseId: string,
  filters: RowFilters,
  fetchPage: (query: URLSearchParams) => Promise<PagedRows<MarketEventRow>>,
): AsyncGenerator<MarketEventRow[], void, undefined> {
  let offset = 0;
  let total: number | undefined;
  for (;;) {
    if (offset > ROW_QUERY.offset.max) throw new RowQueryTooLargeError(messages.rowOffsetTooLarge(releaseId, ROW_QUERY.offset.max));
    const query = new URLSearchParams();
    if (filters.symbol !== undefined) query.set('symbol', filters.symbol);
    if (filters.sample_type !== undefined) query.set('sample_type', filters.sample_type);
    query.set('limit', String(filters.pageSize ?? ROW_QUERY.limit.max));
    query.set('offset', String(offset));
    const page = await fetchPage(query);
    if (!Array.isArray(page?.items) || typeof page.total !== 'number' || typeof page.has_more !== 'boolean') {
      throw new UnexpectedResponseError(messages.badResponseBody(`/rows/${releaseId}`));
    }
    // An immutable release cannot change its total between pages; if it does, stop rather than mix rows.
    if (total !== undefined && page.total !== total) throw new UnexpectedResponseError(messages.badResponseBody(`/rows/${releaseId}`));
    total = page.total;
    if (page.items.length > 0) yield page.items;
    if (!page.has_more) return;
    const next = page.next_offset ?? offset + page.items.length;
    if (next <= offset) throw new UnexpectedResponseError(messages.badResponseBody(`/rows/${releaseId}`));
    offset = next;
  }
}
