// Response shapes the client returns (spec: "Resources and their fields"); fields the spec leaves open stay loose.

import type { FileDigest, ListedRelease, MarketEventRow, Release, SchemaDocument, DownloadFormat } from '../contract/index.js';
import type { ResearchTable } from './research-table.js';
import type { RowFilters } from './row-pages.js';

/** Account allowance as rdw uses it (spec: `limits.keys`, `limits.rpm`, `limits.daily_bytes`; "Limits" plan table). */
export interface AccountLimits {
  /** Active-key slots; undefined when the service did not say. */
  keys: number | undefined;
  /** Requests per minute, account-wide (reported, or the assumed fallback). */
  rpm: number;
  /** Paid file bytes per UTC day; 0 = no allowance; undefined = unknown (no local pre-check; stop on the daily 429). */
  daily_bytes: number | undefined;
  /** 'reported': read from the service's /catalog (or /research/catalog); 'assumed': rdw fell back to the spec's plan table. */
  source: 'reported' | 'assumed';
  /** Where it came from: '/catalog', '/research/catalog', or the reason it was assumed (one short phrase). */
  origin: string;
}

/** The `limits` object as a service sends it: any shape (the spec names keys, rpm and daily_bytes; a foreign service may differ). */
export interface ReportedLimits {
  keys?: unknown;
  rpm?: unknown;
  daily_bytes?: unknown;
  [field: string]: unknown;
}

/** Something the client wants a person to know (an assumption, a wait, a redirect); see ClientOptions.onNotice. */
export interface ClientNotice {
  /** Stable kind: 'limits_assumed' | 'pace_wait' | 'rate_wait' | 'retry_wait' | 'response_wait' | 'redirect' | 'unknown_item' | … */
  kind: string;
  /** One sentence for a person (never the key, never a full URL with host). */
  message: string;
  /** For waits: how long rdw will wait, in ms. */
  waitMs?: number;
}

/** `GET /research/catalog`. */
export interface ResearchCatalog {
  scope: string;
  datasets: { id: string; calculation_version: string; json_url: string; csv_url: string; [field: string]: unknown }[];
  limits: ReportedLimits;
  limitations: unknown[];
  [field: string]: unknown;
}

/**
 * `GET /research/<DATASET_ID>` (and the live JSON): the envelope; `stale: true` is passed through as-is.
 * The body is returned exactly as the service sent it: a service in another shape (envelope fields
 * absent, items not rows, or a body that is an array or a string) comes back as that JSON value, so
 * check fields before use; the client adds nothing (its cache interval is kept apart).
 */
export interface ResearchSnapshot {
  key: string;
  generated_at: number;
  updated: number;
  stale: boolean;
  /** Clients must cache and not poll faster (seconds). */
  refresh_seconds: number;
  calculation_version: string;
  source: string | null;
  source_url: string | null;
  window: unknown;
  summary: unknown;
  items: Record<string, unknown>[];
  limitation: unknown;
  [field: string]: unknown;
}

/** `GET /catalog` (paid): datasets coverage and the account limits (as sent: possibly absent or in another shape). */
export interface PaidCatalog {
  datasets: unknown;
  limits?: ReportedLimits | null;
  [field: string]: unknown;
}

/** A verified manifest: the release object, its exact bytes and their SHA-256 (what a study lock pins). */
export interface ManifestResult {
  release: Release;
  bytes: Uint8Array;
  sha256: string;
}

/** A verified bundled schema file. */
export interface BundledSchemaResult {
  document: SchemaDocument;
  bytes: Uint8Array;
  sha256: string;
}

export interface DownloadOptions {
  /** Expected digest. Default: the file's entry in the release manifest (fetched once per client). */
  expected?: FileDigest;
  /** Progress in bytes done / total, for progress bars. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface SnapshotOptions {
  /** Accept a cached snapshot up to this age (seconds). Default and minimum: the dataset's refresh_seconds. */
  maxAgeSeconds?: number;
}

export interface ReleasesOptions {
  /** Releases to list, 1-100. Default: the server's (20 on the mock). */
  limit?: number;
  /** Cuts the listing's request (AbortedError), e.g. on Ctrl-C while a slow service builds the listing. */
  signal?: AbortSignal;
}

/** The client of createClient. */
export interface RdwClient {
  /** Free Research scope (any valid key). */
  research: {
    catalog(): Promise<ResearchCatalog>;
    snapshot(datasetId: string, options?: SnapshotOptions): Promise<ResearchSnapshot>;
    csv(datasetId: string): Promise<ResearchTable>;
  };
  /** Public live scope: no key is ever sent. */
  live: {
    json(pageKey: string): Promise<ResearchSnapshot>;
    csv(pageKey: string): Promise<ResearchTable>;
  };
  catalog(): Promise<PaidCatalog>;
  schema(): Promise<SchemaDocument>;
  /** Listed releases, latest first; only `id` and `day` are sure to be present (spec: other fields "not shown"). */
  releases(options?: ReleasesOptions): Promise<ListedRelease[]>;
  /**
   * The item of this exact release ID in the newest `/releases` listing this client has read (no request);
   * undefined when no listing it read held the ID. What the catalog checks a manifest against.
   */
  listedRelease(releaseId: string): ListedRelease | undefined;
  rows(releaseId: string, filters?: RowFilters): AsyncIterable<MarketEventRow[]>;
  manifest(releaseId: string): Promise<ManifestResult>;
  bundledSchema(releaseId: string): Promise<BundledSchemaResult | undefined>;
  download(releaseId: string, format: DownloadFormat, dest: string, options?: DownloadOptions): Promise<FileDigest>;
  /** The account's limits: kept ones when current (no request), else /catalog's; `fresh` always asks the service. */
  limits(options?: { fresh?: boolean }): Promise<AccountLimits>;
  /** Today's byte budget as this home's shared state sees it (the limits: kept ones when current, else one /catalog per client). */
  byteBudget(): Promise<ByteBudgetLeft>;
  close(): Promise<void>;
}

/** The daily byte budget left (spec: "Limits", UTC calendar days). */
export interface ByteBudgetLeft {
  /** The plan's paid file bytes per UTC day; undefined when the service did not say. */
  dailyBytes: number | undefined;
  /** Bytes left today; undefined when the allowance is unknown (0 once the service's daily 429 was seen). */
  remainingBytes: number | undefined;
  /** The UTC day (YYYY-MM-DD) the budget next clears. */
  clearsOn: string;
}
