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
  type PagedRows,
  type Release,
  type SchemaDocument,
} from '../spec/index.js';
import { ByteBudget } from './byte-budget.js';
import {
  ApiNotFoundError,
  ByteBudgetError,
  ChecksumMismatchError,
  ForbiddenError,
  ManifestMismatchError,
  SizeMismatchError,
  UnexpectedResponseError,
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
import { HttpTransport, displayPath, type TransportRequest } from './http-transport.js';
import { KeyState, keyId } from './key-state.js';
import { messages } from './messages.js';
import { RateLimiter } from './rate-limiter.js';
import { researchTableFromCsv, type ResearchTable } from './research-table.js';
import { rowPages, type RowFilters } from './row-pages.js';

const PATH_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Before the account's limits are known, pace at the smallest plan rpm. */
const DEFAULT_RPM = Math.min(...Object.values(PLANS).map((plan) => plan.rpm));

interface Cached<T> {
  fetchedAt: number;
  value: T;
}

interface KnownLimits extends AccountLimits {
  /** True when read from the paid /catalog (the key opens the paid scope). */
  paid: boolean;
}

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
  #limits: Promise<KnownLimits> | undefined;
  readonly #manifests = new Map<string, Promise<ManifestResult>>();
  readonly #snapshots = new Map<string, Cached<ResearchSnapshot>>();
  readonly #tables = new Map<string, Cached<ResearchTable>>();

  readonly research: RdwClient['research'];
  readonly live: RdwClient['live'];

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
    this.#transport = new HttpTransport(options);
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
      const refresh = cached.value.refresh_seconds;
      if (this.#fresh(cached, Math.max(refresh, options.maxAgeSeconds ?? refresh))) return cached.value;
    }
    const snapshot = await this.#getJson<ResearchSnapshot>(this.#apiUrl(`/research/${datasetId}`));
    if (typeof snapshot?.refresh_seconds !== 'number') snapshot.refresh_seconds = researchDataset(datasetId)?.refresh_seconds ?? 0;
    this.#snapshots.set(datasetId, { fetchedAt: this.#options.clock.now(), value: snapshot });
    return snapshot;
  }

  async #researchCsv(datasetId: string): Promise<ResearchTable> {
    checkSegment(datasetId);
    const spec = researchDataset(datasetId);
    return this.#cachedTable(`research:${datasetId}`, spec?.refresh_seconds ?? 0, async () => {
      const text = await this.#getText(this.#apiUrl(`/research/${datasetId}/csv`));
      return researchTableFromCsv(text, spec?.columns);
    });
  }

  // ---- public live scope (no key, per-IP limiter) ----

  async #liveJson(pageKey: string): Promise<ResearchSnapshot> {
    checkSegment(pageKey);
    const name = `live:${pageKey}`;
    const cached = this.#snapshots.get(name);
    if (cached !== undefined && this.#fresh(cached, cached.value.refresh_seconds)) return cached.value;
    const url = `${this.#options.siteUrl}/api/research/live/${pageKey}`;
    const snapshot = await this.#transport.json<ResearchSnapshot>({ url, auth: false, limiter: this.#publicLimiter });
    if (typeof snapshot?.refresh_seconds !== 'number') snapshot.refresh_seconds = liveDataset(pageKey)?.refresh_seconds ?? 0;
    this.#snapshots.set(name, { fetchedAt: this.#options.clock.now(), value: snapshot });
    return snapshot;
  }

  async #liveCsv(pageKey: string): Promise<ResearchTable> {
    checkSegment(pageKey);
    const spec = liveDataset(pageKey);
    return this.#cachedTable(`live:${pageKey}`, spec?.refresh_seconds ?? 0, async () => {
      const url = `${this.#options.siteUrl}/api/research/live/${pageKey}.csv`;
      const response = await this.#transport.send({ url, auth: false, limiter: this.#publicLimiter });
      return researchTableFromCsv(await this.#transport.readText(response, displayPath(url)), spec?.columns);
    });
  }

  // ---- paid Market Events scope ----

  async catalog(): Promise<PaidCatalog> {
    const catalog = await this.#getJson<PaidCatalog>(this.#apiUrl('/catalog'));
    const limits = readLimits(catalog?.limits, '/catalog');
    this.#keyLimiter.setRpm(limits.rpm);
    this.#limits ??= Promise.resolve({ ...limits, paid: true });
    return catalog;
  }

  async schema(): Promise<SchemaDocument> {
    await this.#ensureLimits();
    return this.#getJson<SchemaDocument>(this.#apiUrl('/schema'));
  }

  async releases(options: ReleasesOptions = {}): Promise<Release[]> {
    const { min, max } = RELEASES_QUERY.limit;
    if (options.limit !== undefined && !(Number.isInteger(options.limit) && options.limit >= min && options.limit <= max)) {
      throw new UsageError(messages.badLimit('limit', min, max), { option: 'limit' });
    }
    await this.#ensureLimits();
    const query = options.limit === undefined ? '' : `?limit=${options.limit}`;
    const body = await this.#getJson<{ items?: Release[] }>(this.#apiUrl(`/releases${query}`));
    if (!Array.isArray(body?.items)) throw new UnexpectedResponseError(messages.badResponseBody('/releases'));
    return body.items;
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
          this.#request(this.#apiUrl(`/rows/${releaseId}?${query.toString()}`), { kind: 'rows', releaseId }),
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
      request: this.#request(this.#apiUrl(`/download/${releaseId}/${format}`), {
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

  /** The account's limits: from the paid /catalog, or from /research/catalog for a key without a plan. Cached per client. */
  async limits(): Promise<AccountLimits> {
    const { keys, rpm, daily_bytes } = await this.#knownLimits();
    return { keys, rpm, daily_bytes };
  }

  async close(): Promise<void> {
    // Give back unused leased tokens and write this process's byte counts to the shared state.
    await Promise.all([this.#keyLimiter.release(), this.#publicLimiter.release(), this.#budget.flush()]).catch(() => undefined);
    await this.#transport.close();
  }

  // ---- internals ----

  #knownLimits(): Promise<KnownLimits> {
    if (this.#limits === undefined) {
      this.#requireKey('The account limits');
      const pending = (async (): Promise<KnownLimits> => {
        try {
          const catalog = await this.#getJson<PaidCatalog>(this.#apiUrl('/catalog'));
          return { ...readLimits(catalog?.limits, '/catalog'), paid: true };
        } catch (error) {
          if (!(error instanceof ForbiddenError)) throw error;
          const catalog = await this.#getJson<ResearchCatalog>(this.#apiUrl('/research/catalog'));
          return { ...readLimits(catalog?.limits, '/research/catalog'), paid: false };
        }
      })();
      this.#limits = pending;
      pending.then(
        (limits) => this.#keyLimiter.setRpm(limits.rpm),
        () => {
          if (this.#limits === pending) this.#limits = undefined;
        },
      );
    }
    return this.#limits;
  }

  /** Sizes the limiter before paid calls (one /catalog per client). */
  async #ensureLimits(): Promise<void> {
    this.#requireKey('The Market Events scope');
    const limits = await this.#knownLimits();
    this.#keyLimiter.setRpm(limits.rpm);
  }

  /** Refuses before sending when today's remaining byte budget cannot hold `needed` bytes (or is used up). */
  async #checkBudget(what: string, needed: number | undefined): Promise<void> {
    const limits = await this.#knownLimits();
    if (!limits.paid) return; // the server answers 403 for a key without a plan
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
    const release = parseJson<Release>(bytes, `/download/${releaseId}/manifest`);
    if (typeof release?.id !== 'string' || typeof release.files !== 'object' || release.files === null) {
      throw new UnexpectedResponseError(messages.badResponseBody(`/download/${releaseId}/manifest`));
    }
    if (release.id !== releaseId) throw new ManifestMismatchError(messages.manifestMismatch(releaseId, release.id));
    return { release, bytes, sha256 };
  }

  /** A small release file into memory, verified against `expected` or else the server's ETag and length. */
  async #fetchFileBytes(releaseId: string, format: DownloadFormat, expected: FileDigest | undefined): Promise<Uint8Array> {
    const what = `the ${format} file of release ${releaseId.slice(0, 12)}…`;
    await this.#checkBudget(what, expected?.bytes);
    const url = this.#apiUrl(`/download/${releaseId}/${format}`);
    const response = await this.#transport.send(this.#request(url));
    const bytes = await this.#transport.readBytes(response, displayPath(url));
    await this.#budget.record(bytes.length);
    const etag = /^(?:W\/)?"?([0-9a-f]{64})"?$/.exec(String(response.headers.etag ?? '').trim())?.[1];
    const length = Number(response.headers['content-length'] ?? bytes.length);
    const reference = expected ?? { sha256: etag ?? sha256Hex(bytes), bytes: Number.isFinite(length) ? length : bytes.length };
    const label = `The ${format} file of release ${releaseId.slice(0, 12)}…`;
    if (bytes.length !== reference.bytes) {
      throw new SizeMismatchError(messages.sizeMismatch(label, bytes.length, reference.bytes), { expected: reference.bytes, actual: bytes.length });
    }
    const sha256 = sha256Hex(bytes);
    if (sha256 !== reference.sha256) {
      throw new ChecksumMismatchError(messages.checksumMismatch(label, sha256, reference.sha256), { expected: reference.sha256, actual: sha256 });
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

function checkSegment(id: string): void {
  if (typeof id !== 'string' || !PATH_SEGMENT.test(id)) throw new UsageError(messages.badDatasetId(String(id)), { option: 'datasetId' });
}

function readLimits(value: unknown, path: string): AccountLimits {
  const limits = value as Partial<AccountLimits> | undefined;
  if (typeof limits?.rpm !== 'number' || typeof limits.daily_bytes !== 'number' || typeof limits.keys !== 'number') {
    throw new UnexpectedResponseError(messages.badResponseBody(path));
  }
  return { keys: limits.keys, rpm: limits.rpm, daily_bytes: limits.daily_bytes };
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
