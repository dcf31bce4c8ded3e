// Paging over `/rows/<RELEASE_ID>`: keeps the release ID and the filters on every page (spec rules 1-2),
// stops on has_more false (or, without has_more, on a short page), treats total 0 as success (rule 3), and turns an oversized query into
// RowQueryTooLargeError whose remedy is a full download (rule 6). Pages must line up (each next_offset the end of
// the page before) and add up to their total: otherwise rows would be skipped or repeated without a word.

import { ROW_QUERY, type MarketEventRow, type MarketSymbol, type PagedRows, type SampleType } from '../contract/index.js';
import { RowQueryTooLargeError, UnexpectedResponseError } from './client-errors.js';
import { messages } from './messages.js';

/** Filters of a row query. */
export interface RowFilters {
  /** One of the six pairs, uppercase. Default: all six. */
  symbol?: MarketSymbol;
  /** `event` or `control`. Default: both. */
  sample_type?: SampleType;
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
  let seen = 0;
  let total: number | undefined;
  for (;;) {
    if (offset > ROW_QUERY.offset.max) throw new RowQueryTooLargeError(messages.rowOffsetTooLarge(releaseId, ROW_QUERY.offset.max));
    const query = new URLSearchParams();
    if (filters.symbol !== undefined) query.set('symbol', filters.symbol);
    if (filters.sample_type !== undefined) query.set('sample_type', filters.sample_type);
    const limit = filters.pageSize ?? ROW_QUERY.limit.max;
    query.set('limit', String(limit));
    query.set('offset', String(offset));
    const page = await fetchPage(query);
    if (!Array.isArray(page?.items)) throw new UnexpectedResponseError(messages.badResponseBody(`/rows/${releaseId}`));
    // The spec names total, has_more and next_offset, but a server may leave one out: total is compared only
    // when given; without has_more, a page is the last when it is short, empty, or reaches total.
    const pageTotal = typeof page.total === 'number' ? page.total : undefined;
    // An immutable release cannot change its total between pages; if it does, stop rather than mix rows.
    if (total !== undefined && pageTotal !== undefined && pageTotal !== total) {
      throw new UnexpectedResponseError(messages.badResponseBody(`/rows/${releaseId}`));
    }
    total = pageTotal ?? total;
    const hasMore =
      typeof page.has_more === 'boolean'
        ? page.has_more
        : page.items.length > 0 && page.items.length >= limit && (total === undefined || offset + page.items.length < total);
    const next = page.next_offset ?? offset + page.items.length;
    // Checked before the page is handed out: a consumer never holds rows of a paging that goes wrong after them.
    if (hasMore && next !== offset + page.items.length) {
      throw new UnexpectedResponseError(messages.rowPagesMisaligned(releaseId, offset, page.items.length, next));
    }
    seen += page.items.length;
    if (!hasMore && total !== undefined && seen !== total) throw new UnexpectedResponseError(messages.rowPagesShort(releaseId, seen, total));
    if (page.items.length > 0) yield page.items;
    if (!hasMore) return;
    if (page.items.length === 0) throw new UnexpectedResponseError(messages.rowPagesMisaligned(releaseId, offset, 0, next));
    offset = next;
  }
}
