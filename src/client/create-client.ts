// createClient: the Research Data API client for all three scopes (free Research, public live, paid
// Market Events), built from the transport, the shared pacing/budget state and the verified downloader.

import { createHash } from 'node:crypto';
import {
  DOWNLOAD_FORMATS,
  PUBLIC_LIVE_RPM_PER_IP,
  PLANS,
  RELEASES_QUERY,
  ROW_QUERY,
  SAMPLE_TYPES,
  SYMBOLS,
  UsageError,
  isReleaseId,
  liveDataset,
  researchDataset,
  type DownloadFormat,
  type FileDigest,
  type MarketEventRow,
  type ListedRelease,
  type PagedRows,
  type Release,
  type SchemaDocument,
} from '../contract/index.js';
import { assumedLimits, limitsFromDocument, type LimitsOutcome } from './account-limits.js';
import { ByteBudget } from './byte-budget.js';
import {
  ApiNotFoundError,
  ByteBudgetError,
  ChecksumMismatchError,
  ConflictError,
  ForbiddenError,
  ImpossibleSizeError,
  ManifestMismatchError,
  ServiceUnavailableError,
  SizeMismatchError,
  UnexpectedResponseError,
  ValidationError,
} from './client-errors.js';
import { resolveClientOptions, type ClientOptions, type ResolvedClientOptions } from './client-options.js';
import type {
  AccountLimits,
  BundledSchemaResult,
  DownloadOptions,
  ManifestResult,
  PaidCatalog,
  RdwClient,
  ReleasesOptions,
  ResearchCatalog,
  ResearchSnapshot,
  SnapshotOptions,
} from './client-types.js';
import { downloadFile } from './download-file.js';
import { readListedReleases } from './listed-releases.js';
import { HttpTransport, displayPath, type TransportRequest } from './http-transport.js';
import { KeyState, keyId } from './key-state.js';
import { messages } from './messages.js';
import { noticeSink, type Notify } from './notice-sink.js';
import { RateLimiter } from './rate-limiter.js';
import { researchTableFromCsv, type ResearchTable } from './research-table.js';
import { rowPages, type RowFilters } from './row-pages.js';

const PATH_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Before the account's limits are known, pace at the smallest plan rpm. */
const DEFAULT_RPM = Math.min(...Object.values(PLANS).map((plan) => plan.rpm));
/** The largest daily byte allowance of the spec's plans: no download larger than this (or the reported allowance) can ever fit. */
const LARGEST_DAILY_BYTES = Math.max(...Object.values(PLANS).map((plan) => plan.daily_bytes));

interface Cached<T> {
  fetchedAt: number;
  value: T;
}

/**
 * A snapshot or live page as the service sent it (any JSON shape), with the interval it is cached for:
 * its own `refresh_seconds`, else the dataset's in src/contract, else UNDECLARED_REFRESH_SECONDS.
 */
interface CachedDocument extends Cached<ResearchSnapshot> {
  refreshSeconds: number;
}

/**
 * Cache interval (seconds) of a Research or live document that declares no `refresh_seconds` and whose
 * dataset src/contract does not know: the spec forbids polling faster than the declared interval, so an
 * undeclared one is not taken as "no limit"; one minute is the public per-IP rate window.
 */
const UNDECLARED_REFRESH_SECONDS = 60;

/** What the paid /catalog told this client: the account limits (reported or assumed), or the 403 of a key without a plan. */
type PaidLimits = { limits: AccountLimits; refusal?: undefined } | { refusal: ForbiddenError };

/**
 * Creates a client. Options are validated eagerly: a malformed key (quotes, whitespace, the display
 * prefix `rdw_sk_abcd…`) throws UsageError here, before any request. No I/O happens until a method is called.
 */
export function createClient(options: ClientOptions): RdwClient {
  return new Client(resolveClientOptions(options));
}

class Client implements RdwClient {
  readonly #options: ResolvedClientOptions;
  readonly #transport: HttpTransport;
  readonly #keyLimiter: RateLimiter;
  readonly #publicLimiter: RateLimiter;
  readonly #budget: ByteBudget;
  /** Tells ClientOptions.onNotice (once per kind and message) what a person should know. */
  readonly #notify: Notify;
  /** The paid /catalog's answer, fetched once per client (a 403 is asked again on the next paid call). */
  #limits: Promise<PaidLimits> | undefined;
  /** Limits of a key without a paid plan, from /research/catalog (limits() only). */
  #freeLimits: Promise<AccountLimits> | undefined;
  readonly #manifests = new Map<string, Promise<ManifestResult>>();
  /** Each release ID's item in the newest /releases listing read (listedRelease). */
  readonly #listed = new Map<string, ListedRelease>();
  readonly #snapshots = new Map<string, CachedDocument>();
  readonly #tables = new Map<string, Cached<ResearchTable>>();

  readonly research: RdwClient['research'];
  readonly live: RdwClient['live'];

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#notify = noticeSink(options.onNotice);
    this.#transport = new HttpTransport(options, this.#notify);
    const keyState = KeyState.for(keyId(options.apiKey), options.home);
    this.#keyLimiter = new RateLimiter(keyState, options.clock, { rpm: DEFAULT_RPM, share: options.rateShare });
    this.#publicLimiter = new RateLimiter(KeyState.for('public', options.home), options.clock, {
      rpm: PUBLIC_LIVE_RPM_PER_IP,
      share: options.rateShare,
    });
    this.#budget = new ByteBudget(keyState, options.clock);
    this.research = {
      catalog: () => this.#researchCatalog(),
      snapshot: (datasetId, snapshotOptions) => this.#researchSnapshot(datasetId, snapshotOptions),
      csv: (datasetId) => this.#researchCsv(datasetId),
    };
    this.live = {
      json: (pageKey) => this.#liveJson(pageKey),
      csv: (pageKey) => this.#liveCsv(pageKey),
    };
  }

  // ---- free Research scope ----

  async #researchCatalog(): Promise<ResearchCatalog> {
    const catalog = await this.#getJson<ResearchCatalog>(this.#apiUrl('/research/catalog'));
    const rpm = catalog?.limits?.rpm;
    if (typeof rpm === 'number') this.#keyLimiter.setRpm(rpm);
    return catalog;
  }

  async #researchSnapshot(datasetId: string, options: SnapshotOptions = {}): Promise<ResearchSnapshot> {
    checkSegment(datasetId);
    if (options.maxAgeSeconds !== undefined && !(options.maxAgeSeconds >= 0)) {
      throw new UsageError(messages.badOption('maxAgeSeconds', 'a number of seconds >= 0'), { option: 'maxAgeSeconds' });
    }
    const cached = this.#snapshots.get(datasetId);
    if (cached !== undefined) {
      const refresh = cached.refreshSeconds;
      if (this.#fresh(cached, Math.max(refresh, options.maxAgeSeconds ?? refresh))) return cached.value;
    }
    // The body is returned as sent, whatever its shape (an object without the envelope, an array, a
    // string): nothing is added to it; the cache interval is kept beside it.
    const snapshot = await this.#getJson<ResearchSnapshot>(this.#apiUrl(`/research/${datasetId}`));
    const refreshSeconds = declaredRefreshSeconds(snapshot) ?? researchDataset(datasetId)?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS;
    this.#snapshots.set(datasetId, { fetchedAt: this.#options.clock.now(), value: snapshot, refreshSeconds });
    return snapshot;
  }

  async #researchCsv(datasetId: string): Promise<ResearchTable> {
    checkSegment(datasetId);
    const spec = researchDataset(datasetId);
    return this.#cachedTable(`research:${datasetId}`, spec?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS, async () => {
      const text = await this.#getText(this.#apiUrl(`/research/${datasetId}/csv`));
      return researchTableFromCsv(text, spec?.columns);
    });
  }

  // ---- public live scope (no key, per-IP limiter) ----

  async #liveJson(pageKey: string): Promise<ResearchSnapshot> {
    checkSegment(pageKey);
    const name = `live:${pageKey}`;
    const cached = this.#snapshots.get(name);
    if (cached !== undefined && this.#fresh(cached, cached.refreshSeconds)) return cached.value;
    const url = `${this.#options.siteUrl}/api/research/live/${pageKey}`;
    // As for research snapshots: the page as sent, any JSON shape; the cache interval beside it.
    const snapshot = await this.#transport.json<ResearchSnapshot>({ url, auth: false, limiter: this.#publicLimiter });
    const refreshSeconds = declaredRefreshSeconds(snapshot) ?? liveDataset(pageKey)?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS;
    this.#snapshots.set(name, { fetchedAt: this.#options.clock.now(), value: snapshot, refreshSeconds });
    return snapshot;
  }

  async #liveCsv(pageKey: string): Promise<ResearchTable> {
    checkSegment(pageKey);
    const spec = liveDataset(pageKey);
    return this.#cachedTable(`live:${pageKey}`, spec?.refresh_seconds ?? UNDECLARED_REFRESH_SECONDS, async () => {
      const url = `${this.#options.siteUrl}/api/research/live/${pageKey}.csv`;
      const response = await this.#transport.send({ url, auth: false, limiter: this.#publicLimiter });
      return researchTableFromCsv(await this.#transport.readText(response, displayPath(url)), spec?.columns);
    });
  }

  // ---- paid Market Events scope ----

  async catalog(): Promise<PaidCatalog> {
    const catalog = await this.#getJson<PaidCatalog>(this.#apiUrl('/catalog'));
    this.#limits ??= Promise.resolve(this.#adopt(limitsFromDocument(catalog, '/catalog')));
    return catalog;
  }

  async schema(): Promise<SchemaDocument> {
    await this.#ensureLimits();
    return this.#getJson<SchemaDocument>(this.#apiUrl('/schema'));
  }

  async releases(options: ReleasesOptions = {}): Promise<ListedRelease[]> {
    const { min, max } = RELEASES_QUERY.limit;
    if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit >= min && options.limit <= max)) {
      throw new UsageError(messages.badLimit('limit', min, max), { option: 'limit' });
    }
    await this.#ensureLimits();
    const query = options.limit === undefined ? '' : `?limit=${options.limit}`;
    const body = await this.#getJson<{ items?: unknown[] }>(this.#apiUrl(`/releases${query}`));
    if (!Array.isArray(body?.items)) throw new UnexpectedResponseError(messages.badResponseBody('/releases'));
    // Items carry only what the service chose to show (spec: beyond id, day, version, files "not shown"):
    // kept as given; an item without a usable id or day is left out and reported, never fatal.
    const { releases, skipped } = readListedReleases(body.items, options.limit);
    if (skipped.length > 0) this.#notify({ kind: 'unknown_item', message: messages.listingItemsSkipped(skipped) });
    for (const release of releases) this.#listed.set(release.id, release);
    return releases;
  }

  listedRelease(releaseId: string): ListedRelease | undefined {
    return this.#listed.get(releaseId);
  }

  rows(releaseId: string, filters: RowFilters = {}): AsyncIterable<MarketEventRow[]> {
    checkReleaseId(releaseId);
    if (filters.symbol !== undefined && !(SYMBOLS as readonly string[]).includes(filters.symbol)) {
      throw new UsageError(messages.badFilter('symbol', SYMBOLS), { option: 'symbol' });
    }
    if (filters.sample_type !== undefined && !(SAMPLE_TYPES as readonly string[]).includes(filters.sample_type)) {
      throw new UsageError(messages.badFilter('sample_type', SAMPLE_TYPES), { option: 'sample_type' });
    }
    const { min, max } = ROW_QUERY.limit;
    if (filters.pageSize !== undefined && !(Number.isInteger(filters.pageSize) && filters.pageSize >= min && filters.pageSize <= max)) {
      throw new UsageError(messages.badLimit('pageSize', min, max), { option: 'pageSize' });
    }
    this.#requireKey('The Market Events row query');
    const fixed = { ...filters };
    const pages = async function* (this: Client) {
      await this.#ensureLimits();
      yield* rowPages(releaseId, fixed, (query) =>
        this.#transport.json<PagedRows<MarketEventRow>>(
          this.#request(this.#apiUrl(`/rows/${encodeURIComponent(releaseId)}?${query.toString()}`), { kind: 'rows', releaseId }),
        ),
      );
    };
    return { [Symbol.asyncIterator]: () => pages.call(this) };
  }

  manifest(releaseId: string): Promise<ManifestResult> {
    checkReleaseId(releaseId);
    let pending = this.#manifests.get(releaseId);
    if (pending === undefined) {
      pending = this.#fetchManifest(releaseId);
      this.#manifests.set(releaseId, pending);
      pending.catch(() => this.#manifests.delete(releaseId));
    }
    return pending;
  }

  async bundledSchema(releaseId: string): Promise<BundledSchemaResult | undefined> {
    const { release } = await this.manifest(releaseId);
    const expected = release.files?.schema;
    if (expected === undefined) return undefined;
    let bytes: Uint8Array;
    try {
      bytes = await this.#fetchFileBytes(releaseId, 'schema', expected);
    } catch (error) {
      if (error instanceof ApiNotFoundError) return undefined;
      throw error;
    }
    const sha256 = sha256Hex(bytes);
    return { document: parseJson<SchemaDocument>(bytes, `/download/${releaseId}/schema`), bytes, sha256 };
  }

  async download(releaseId: string, format: DownloadFormat, dest: string, options: DownloadOptions = {}): Promise<FileDigest> {
    checkReleaseId(releaseId);
    checkFormat(format);
    if (typeof dest !== 'string' || dest === '') throw new UsageError(messages.badOption('dest', 'a file path'), { option: 'dest' });
    this.#requireKey('A Market Events download');
    await this.#ensureLimits();
    let expected = options.expected;
    if (expected === undefined) {
      if (format === 'manifest') {
        const cached = this.#manifests.get(releaseId);
        if (cached !== undefined) {
          const manifest = await cached;
          expected = { sha256: manifest.sha256, bytes: manifest.bytes.length };
        }
      } else {
        const { release } = await this.manifest(releaseId);
        expected = release.files?.[format];
        if (expected === undefined) throw new ApiNotFoundError(messages.noBundledSchemaFile(releaseId));
      }
    }
    const { retry } = this.#options;
    return downloadFile({
      transport: this.#transport,
      request: this.#request(this.#apiUrl(`/download/${encodeURIComponent(releaseId)}/${format}`), {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      }),
      releaseId,
      format,
      dest,
      expected,
      clock: this.#options.clock,
      maxRetries: retry.maxRetries,
      backoffMs: (attempt) => retry.baseDelayMs * 2 ** (attempt - 1) + Math.floor(retry.random() * retry.jitterMs),
      beforeSend: (needed) => this.#checkBudget(`the ${format} file of release ${releaseId.slice(0, 12)}…`, needed),
      onBytes: (bytes) => this.#budget.record(bytes),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
  }

  /**
   * The account's limits: from the paid /catalog (in any shape; what it does not say is assumed from the
   * spec's plan table and announced), or from /research/catalog for a key without a plan. Cached per client.
   * Throws the auth error for a 401, or a 403 on both catalogs.
   */
  async limits(): Promise<AccountLimits> {
    const paid = await this.#paidLimits();
    if (paid.refusal === undefined) return { ...paid.limits };
    if (this.#freeLimits === undefined) {
      const pending = this.#readFreeLimits();
      this.#freeLimits = pending;
      pending.catch(() => {
        if (this.#freeLimits === pending) this.#freeLimits = undefined;
      });
    }
    return { ...(await this.#freeLimits) };
  }

  async close(): Promise<void> {
    // Give back unused leased tokens and write this process's byte counts to the shared state.
    await Promise.all([this.#keyLimiter.release(), this.#publicLimiter.release(), this.#budget.flush()]).catch(() => undefined);
    await this.#transport.close();
  }

  // ---- internals ----

  /** The paid /catalog's answer, once per client; a 401 (and a network failure) is thrown and asked again next time. */
  #paidLimits(): Promise<PaidLimits> {
    if (this.#limits === undefined) {
      this.#requireKey('The account limits');
      const pending = this.#readPaidLimits();
      this.#limits = pending;
      pending.catch(() => {
        if (this.#limits === pending) this.#limits = undefined;
      });
    }
    return this.#limits;
  }

  /**
   * 1. `/catalog`: a 403 is kept as the refusal; a 401, 429 or network failure is thrown. 2. Another answer
   * that is not a readable catalog (404, 5xx, not JSON) ⇒ the spec's plan table, assumed. 3. The limits read
   * from the document in whatever shape, missing parts assumed; every assumption announced once.
   */
  async #readPaidLimits(): Promise<PaidLimits> {
    let catalog: unknown;
    try {
      catalog = await this.#getJson<unknown>(this.#apiUrl('/catalog'));
    } catch (error) {
      if (error instanceof ForbiddenError) return { refusal: error };
      const reason = unreadableReason(error, '/catalog');
      if (reason === undefined) throw error;
      return this.#adopt(assumedLimits('/catalog', reason));
    }
    return this.#adopt(limitsFromDocument(catalog, '/catalog'));
  }

  /** A key without a paid plan: its limits from /research/catalog, or the spec's free plan. */
  async #readFreeLimits(): Promise<AccountLimits> {
    let catalog: unknown;
    try {
      catalog = await this.#getJson<unknown>(this.#apiUrl('/research/catalog'));
    } catch (error) {
      const reason = unreadableReason(error, '/research/catalog');
      if (reason === undefined) throw error;
      return this.#adopt(assumedLimits('/research/catalog', reason)).limits;
    }
    return this.#adopt(limitsFromDocument(catalog, '/research/catalog')).limits;
  }

  /** Sizes the limiter from limits and announces what was assumed. */
  #adopt(outcome: LimitsOutcome): { limits: AccountLimits } {
    for (const message of outcome.notices) this.#notify({ kind: 'limits_assumed', message });
    this.#keyLimiter.setRpm(outcome.limits.rpm);
    return { limits: outcome.limits };
  }

  /**
   * Before paid calls: the account limits (one /catalog per client) sizing the limiter. A key the paid
   * /catalog refused (403) fails here with that ForbiddenError (exit 4) before anything else is read; the
   * refusal is not cached, so a plan activated later is seen by the next paid call.
   */
  async #ensureLimits(): Promise<AccountLimits> {
    this.#requireKey('The Market Events scope');
    const pending = this.#paidLimits();
    const paid = await pending;
    if (paid.refusal !== undefined) {
      if (this.#limits === pending) this.#limits = undefined;
      throw paid.refusal;
    }
    this.#keyLimiter.setRpm(paid.limits.rpm);
    return paid.limits;
  }

  /**
   * Refuses before sending when today's remaining byte budget cannot hold `needed` bytes (or is used up),
   * and (ImpossibleSizeError, exit 3) when no daily allowance could ever hold them.
   * With `daily_bytes` unknown there is no local pre-check, unless the service's daily 429 already marked
   * today as used up.
   */
  async #checkBudget(what: string, needed: number | undefined): Promise<void> {
    const limits = await this.#ensureLimits();
    // A size beyond every daily allowance is a wrong statement (exit 3), not a budget to wait for (exit 5).
    // With the allowance unknown there is no bound: the service decides (as for the budget itself).
    if (needed !== undefined && limits.daily_bytes !== undefined) {
      const ceiling = Math.max(LARGEST_DAILY_BYTES, limits.daily_bytes);
      if (needed > ceiling) throw new ImpossibleSizeError(messages.impossibleSize(what, needed, ceiling));
    }
    const remaining = await this.#budget.remaining(limits.daily_bytes);
    if ((needed ?? 1) > remaining || remaining <= 0) {
      const next = this.#budget.next();
      throw new ByteBudgetError(messages.byteBudgetLocal(what, needed ?? 0, remaining, next.day), {
        nextUtcDay: next.day,
        retryAfter: next.seconds,
      });
    }
  }

  async #fetchManifest(releaseId: string): Promise<ManifestResult> {
    await this.#ensureLimits();
    const bytes = await this.#fetchFileBytes(releaseId, 'manifest', undefined);
    const sha256 = sha256Hex(bytes);
    const release = manifestRelease(parseJson<unknown>(bytes, `/download/${releaseId}/manifest`));
    if (typeof release?.id !== 'string' || typeof release.files !== 'object' || release.files === null) {
      throw new UnexpectedResponseError(messages.badResponseBody(`/download/${releaseId}/manifest`));
    }
    if (release.id !== releaseId) throw new ManifestMismatchError(messages.manifestMismatch(releaseId, release.id));
    return { release, bytes, sha256 };
  }

  /**
   * A small release file into memory, verified against `expected`; without it (the manifest: nothing names
   * its digest before it is read) only against the Content-Length of an unencoded body. An ETag is never
   * taken as a checksum (a server may hash anything into it): the manifest's checksum is the SHA-256 of
   * the manifest bytes received.
   */
  async #fetchFileBytes(releaseId: string, format: DownloadFormat, expected: FileDigest | undefined): Promise<Uint8Array> {
    const what = `the ${format} file of release ${releaseId.slice(0, 12)}…`;
    await this.#checkBudget(what, expected?.bytes);
    const url = this.#apiUrl(`/download/${encodeURIComponent(releaseId)}/${format}`);
    const response = await this.#transport.send(this.#request(url, { identity: true }));
    const bytes = await this.#transport.readBytes(response, displayPath(url));
    await this.#budget.record(bytes.length);
    const declared = /^\d+$/.test(String(response.headers['content-length'] ?? '')) ? Number(response.headers['content-length']) : undefined;
    const size = expected?.bytes ?? declared;
    const label = `The ${format} file of release ${releaseId.slice(0, 12)}…`;
    if (size !== undefined && bytes.length !== size) {
      throw new SizeMismatchError(messages.sizeMismatch(label, bytes.length, size), { expected: size, actual: bytes.length });
    }
    const sha256 = sha256Hex(bytes);
    if (expected !== undefined && sha256 !== expected.sha256) {
      throw new ChecksumMismatchError(messages.checksumMismatch(label, sha256, expected.sha256), { expected: expected.sha256, actual: sha256 });
    }
    return bytes;
  }

  async #cachedTable(name: string, refreshSeconds: number, load: () => Promise<ResearchTable>): Promise<ResearchTable> {
    const cached = this.#tables.get(name);
    if (cached !== undefined && this.#fresh(cached, refreshSeconds)) return cached.value;
    const value = await load();
    this.#tables.set(name, { fetchedAt: this.#options.clock.now(), value });
    return value;
  }

  #fresh(cached: Cached<unknown>, maxAgeSeconds: number): boolean {
    return this.#options.clock.now() - cached.fetchedAt < maxAgeSeconds * 1000;
  }

  #request(url: string, extra: Partial<TransportRequest> = {}): TransportRequest {
    return {
      url,
      auth: true,
      limiter: this.#keyLimiter,
      onByteLimit: () => this.#budget.exhaust(),
      ...extra,
    };
  }

  #getJson<T>(url: string): Promise<T> {
    this.#requireKey(`The request for ${displayPath(url)}`);
    return this.#transport.json<T>(this.#request(url));
  }

  async #getText(url: string): Promise<string> {
    this.#requireKey(`The request for ${displayPath(url)}`);
    const response = await this.#transport.send(this.#request(url));
    return this.#transport.readText(response, displayPath(url));
  }

  #apiUrl(path: string): string {
    return `${this.#options.baseUrl}${path}`;
  }

  #requireKey(what: string): void {
    if (!this.#transport.hasKey) throw new UsageError(messages.keyRequired(what), { option: 'apiKey' });
  }
}

function checkReleaseId(releaseId: string): void {
  if (!isReleaseId(releaseId)) throw new UsageError(messages.badReleaseId(String(releaseId)), { option: 'releaseId' });
}

function checkFormat(format: string): void {
  if (!(DOWNLOAD_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(messages.badFormat(String(format), DOWNLOAD_FORMATS), { option: 'format' });
  }
}

/** The document's own `refresh_seconds` when it is an object declaring a finite number >= 0; else undefined. */
function declaredRefreshSeconds(document: unknown): number | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const value = (document as { refresh_seconds?: unknown }).refresh_seconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function checkSegment(id: string): void {
  if (typeof id !== 'string' || !PATH_SEGMENT.test(id)) throw new UsageError(messages.badDatasetId(String(id)), { option: 'datasetId' });
}

/**
 * Why a catalog counts as unreadable (one short phrase) when the service answered with something other
 * than the document: 404, another status, 5xx after retries, a body that is not JSON. Undefined for
 * failures that are not about the catalog (401/403, 429, network, timeout, abort, redirect): those are thrown.
 */
function unreadableReason(error: unknown, path: string): string | undefined {
  if (error instanceof ApiNotFoundError) return `${path} answered 404`;
  if (error instanceof ServiceUnavailableError || error instanceof ConflictError || error instanceof ValidationError) {
    return `${path} answered ${error.status}`;
  }
  if (error instanceof UnexpectedResponseError) {
    const status = error.status;
    return status === undefined || (status >= 200 && status < 300) ? `${path} was not readable JSON` : `${path} answered ${status}`;
  }
  return undefined;
}

/**
 * The release object of a manifest. The spec leaves open which download carries which shape: a manifest
 * may be the release object itself (the mock's choice) or the release document shape with the object
 * under `release` (its `dataset`/`version` outside filling gaps inside). The checksum a lock pins stays
 * the hash of the bytes received either way.
 */
function manifestRelease(body: unknown): Release | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const inner = record.release;
  const release: Record<string, unknown> =
    record.id === undefined && typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? { dataset: record.dataset, version: record.version, ...(inner as Record<string, unknown>) }
      : { ...record };
  return { ...release, files: lowerCaseDigests(release.files) } as unknown as Release;
}

/** `files` with each hex `sha256` in lower case: the spec says only "hex digest", and case carries no meaning in one. */
function lowerCaseDigests(files: unknown): unknown {
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return files;
  return Object.fromEntries(
    Object.entries(files).map(([format, digest]) => {
      const sha256 = (digest as { sha256?: unknown } | null)?.sha256;
      return [format, typeof sha256 === 'string' && /^[0-9A-Fa-f]{64}$/.test(sha256) ? { ...digest, sha256: sha256.toLowerCase() } : digest];
    }),
  );
}

function parseJson<T>(bytes: Uint8Array, path: string): T {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    throw new UnexpectedResponseError(messages.badResponseBody(path));
  }
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
