// The paid Market Events scope's documents: the paid catalog, the schema, the release listing and the
// row query (release files are in release-files-scope.ts).

import {
  RELEASES_QUERY,
  ROW_QUERY,
  SAMPLE_TYPES,
  SYMBOLS,
  UsageError,
  type ListedRelease,
  type MarketEventRow,
  type PagedRows,
  type SchemaDocument,
} from '../contract/index.js';
import { checkLimit, checkReleaseId } from './check-input.js';
import { UnexpectedResponseError } from './client-errors.js';
import type { ClientCore } from './client-core.js';
import type { PaidCatalog, RdwClient } from './client-types.js';
import { readListedReleases } from './listed-releases.js';
import { messages } from './messages.js';
import { rowPages } from './row-pages.js';

/** The Market Events methods of RdwClient other than release files. */
export type MarketEventsScope = Pick<RdwClient, 'catalog' | 'schema' | 'releases' | 'listedRelease' | 'rows'>;

/** The Market Events scope of one client: `/catalog`, `/schema`, `/releases` and `/rows/<id>`. */
export function marketEventsScope(core: ClientCore): MarketEventsScope {
  /** Each release ID's item in the newest /releases listing read (listedRelease). */
  const listed = new Map<string, ListedRelease>();
  return {
    async catalog() {
      const catalog = await core.getJson<PaidCatalog>(core.apiUrl('/catalog'));
      core.limits.adoptCatalog(catalog);
      return catalog;
    },

    async schema() {
      await core.limits.ensure();
      return core.getJson<SchemaDocument>(core.apiUrl('/schema'));
    },

    async releases(options = {}) {
      checkLimit('limit', options.limit, RELEASES_QUERY.limit);
      await core.limits.ensure(options.signal);
      const query = options.limit === undefined ? '' : `?limit=${options.limit}`;
      const signal = options.signal === undefined ? {} : { signal: options.signal };
      const body = await core.getJson<{ items?: unknown[] }>(core.apiUrl(`/releases${query}`), signal);
      if (!Array.isArray(body?.items)) throw new UnexpectedResponseError(messages.badResponseBody('/releases'));
      // Items carry only what the service chose to show (spec: beyond id, day, version, files "not shown"):
      // kept as given; an item without a usable id or day is left out and reported, never fatal.
      const { releases, skipped } = readListedReleases(body.items, options.limit);
      if (skipped.length > 0) core.notify({ kind: 'unknown_item', message: messages.listingItemsSkipped(skipped) });
      for (const release of releases) listed.set(release.id, release);
      return releases;
    },

    listedRelease(releaseId) {
      return listed.get(releaseId);
    },

    rows(releaseId, filters = {}) {
      // Checked when called, before any page is asked for.
      checkReleaseId(releaseId);
      checkOneOf('symbol', filters.symbol, SYMBOLS);
      checkOneOf('sample_type', filters.sample_type, SAMPLE_TYPES);
      checkLimit('pageSize', filters.pageSize, ROW_QUERY.limit);
      core.requireKey('The Market Events row query');
      const fixed = { ...filters };
      const pages = async function* () {
        await core.limits.ensure();
        yield* rowPages(releaseId, fixed, (query) => {
          const url = core.apiUrl(`/rows/${encodeURIComponent(releaseId)}?${query.toString()}`);
          return core.transport.json<PagedRows<MarketEventRow>>(core.request(url, { kind: 'rows', releaseId }));
        });
      };
      return { [Symbol.asyncIterator]: () => pages() };
    },
  };
}

/** A row filter that is one of the spec's values when given; option `option`. */
function checkOneOf(option: string, value: string | undefined, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value)) throw new UsageError(messages.badFilter(option, allowed), { option });
}
