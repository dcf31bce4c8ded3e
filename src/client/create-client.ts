// createClient: the Research Data API client for all three scopes (free Research, public live, paid
// Market Events), composed of the shared core (options, transport, pacing, budget, limits) and one module per scope.

import type { DownloadFormat, FileDigest, ListedRelease, MarketEventRow, SchemaDocument } from '../contract/index.js';
import { ClientCore } from './client-core.js';
import { resolveClientOptions, type ClientOptions } from './client-options.js';
import type {
  AccountLimits,
  BundledSchemaResult,
  ByteBudgetLeft,
  DownloadOptions,
  ManifestResult,
  PaidCatalog,
  RdwClient,
  ReleasesOptions,
} from './client-types.js';
import { liveScope } from './live-scope.js';
import { marketEventsScope, type MarketEventsScope } from './market-events-scope.js';
import { releaseFilesScope, type ReleaseFilesScope } from './release-files-scope.js';
import { researchScope } from './research-scope.js';
import type { RowFilters } from './row-pages.js';

/**
 * Creates a client. Options are validated eagerly: a malformed key (quotes, whitespace, the display
 * prefix `rdw_sk_abcd…`) throws UsageError here, before any request. No I/O happens until a method is called.
 */
export function createClient(options: ClientOptions): RdwClient {
  return new Client(new ClientCore(resolveClientOptions(options)));
}

/** RdwClient: each method handed to its scope; every scope shares one core. */
class Client implements RdwClient {
  readonly #core: ClientCore;
  readonly #marketEvents: MarketEventsScope;
  readonly #releaseFiles: ReleaseFilesScope;
  /** Free Research scope (any valid key). */
  readonly research: RdwClient['research'];
  /** Public live scope: no key is ever sent. */
  readonly live: RdwClient['live'];

  constructor(core: ClientCore) {
    this.#core = core;
    this.#marketEvents = marketEventsScope(core);
    this.#releaseFiles = releaseFilesScope(core);
    this.research = researchScope(core);
    this.live = liveScope(core);
  }

  // ---- paid Market Events scope (market-events-scope.ts, release-files-scope.ts) ----

  catalog(): Promise<PaidCatalog> {
    return this.#marketEvents.catalog();
  }

  schema(): Promise<SchemaDocument> {
    return this.#marketEvents.schema();
  }

  releases(options?: ReleasesOptions): Promise<ListedRelease[]> {
    return this.#marketEvents.releases(options);
  }

  listedRelease(releaseId: string): ListedRelease | undefined {
    return this.#marketEvents.listedRelease(releaseId);
  }

  rows(releaseId: string, filters?: RowFilters): AsyncIterable<MarketEventRow[]> {
    return this.#marketEvents.rows(releaseId, filters);
  }

  manifest(releaseId: string): Promise<ManifestResult> {
    return this.#releaseFiles.manifest(releaseId);
  }

  bundledSchema(releaseId: string): Promise<BundledSchemaResult | undefined> {
    return this.#releaseFiles.bundledSchema(releaseId);
  }

  download(releaseId: string, format: DownloadFormat, dest: string, options?: DownloadOptions): Promise<FileDigest> {
    return this.#releaseFiles.download(releaseId, format, dest, options);
  }

  // ---- the account and the connection (client-core.ts, client-limits.ts) ----

  /**
   * The account's limits: from the paid /catalog (in any shape; what it does not say is assumed from the
   * spec's plan table and announced), or from /research/catalog for a key without a plan. Cached per client.
   * Limits kept from an earlier command (ClientOptions.knownLimits, `current`) answer without a request,
   * unless `fresh` asks the service. Throws the auth error for a 401, or a 403 on both catalogs.
   */
  limits(options: { fresh?: boolean } = {}): Promise<AccountLimits> {
    return options.fresh === true ? this.#core.limits.read() : this.#core.limits.current();
  }

  async byteBudget(): Promise<ByteBudgetLeft> {
    const { daily_bytes: dailyBytes } = await this.#core.limits.current();
    const remaining = await this.#core.budget.remaining(dailyBytes);
    return { dailyBytes, remainingBytes: Number.isFinite(remaining) ? remaining : undefined, clearsOn: this.#core.budget.next().day };
  }

  close(): Promise<void> {
    return this.#core.close();
  }
}
