// Response shapes the client returns (spec: "Resources and their fields"); fields the spec leaves open stay loose.

import type { FileDigest, MarketEventRow, Release, SchemaDocument, DownloadFormat } from '../spec/index.js';
import type { ResearchTable } from './research-table.js';
import type { RowFilters } from './row-pages.js';

/** Account allowance (spec: `limits.keys`, `limits.rpm`, `limits.daily_bytes`). */
export interface AccountLimits {
  /** Active-key slots. */
  keys: number;
  /** Requests per minute, account-wide. */
  rpm: number;
  /** Paid file bytes per UTC day; 0 means no bulk-download allowance. */
  daily_bytes: number;
}

/** `GET /research/catalog`. */
export interface ResearchCatalog {
  scope: string;
  datasets: { id: string; calculation_version: string; json_url: string; csv_url: string; [field: string]: unknown }[];
  limits: AccountLimits;
  limitations: unknown[];
  [field: string]: unknown;
}

/** `GET /research/<DATASET_ID>` (and the live JSON): the envelope; `stale: true` is passed through as-is. */
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

/** `GET /catalog` (paid): datasets coverage and the account limits. */
export interface PaidCatalog {
  datasets: unknown;
  limits: AccountLimits;
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
  releases(options?: ReleasesOptions): Promise<Release[]>;
  rows(releaseId: string, filters?: RowFilters): AsyncIterable<MarketEventRow[]>;
  manifest(releaseId: string): Promise<ManifestResult>;
  bundledSchema(releaseId: string): Promise<BundledSchemaResult | undefined>;
  download(releaseId: string, format: DownloadFormat, dest: string, options?: DownloadOptions): Promise<FileDigest>;
  limits(): Promise<AccountLimits>;
  close(): Promise<void>;
}
