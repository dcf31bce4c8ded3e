// Typed shape of one Market Events row and of the release objects around it (spec: "Resources").
// Names mirror MARKET_EVENT_FIELDS; a test checks that the generator's rows carry exactly those keys.

import { DAY_PATTERN } from '../base/index.js';
import type { MarketSymbol } from './symbols.js';
import type {
  ControlStatus,
  DerivativeStatus,
  Direction,
  EventKind,
  EventTimeframe,
  ExcursionReference,
  FeatureStatus,
  OutcomeStatus,
  ReleaseStatus,
  SampleType,
  TakerStatus,
} from './value-sets.js';
import type { Window } from './windows.js';
import type { FieldType } from './fields.js';

type OutcomeNumberMeasure =
  | 'return_pct'
  | 'direction_adjusted_return_pct'
  | 'mfe_pct'
  | 'mae_pct'
  | 'missing_candles'
  | 'expected_candles';

/** The outcome block: `status_W` is never null; every number is null unless computed. */
export type OutcomeColumns = { [K in `status_${Window}`]: OutcomeStatus } & {
  [K in `${OutcomeNumberMeasure}_${Window}`]: number | null;
};

/** One Market Events row. Times are UTC Unix seconds; money is USDT unless the name says USD. */
export interface SampleColumns {
  row_id: string;
  dataset: string;
  calculation_version: string;
  sample_type: SampleType;
  symbol: MarketSymbol;
  venue: string;
  event_kind: EventKind | null;
  direction: Direction | null;
  event_timeframe: EventTimeframe | null;
  control_status: ControlStatus;
  sample_time: number;
  event_time: number | null;
  event_recorded_at: number | null;
  trigger_value: number | null;
  trigger_threshold: number | null;
  feature_status: FeatureStatus;
  feature_pit_eligible: boolean;
  taker_status: TakerStatus;
  price: number | null;
  price_time: number | null;
  feature_age_seconds: number | null;
  quote_volume_5m: number | null;
  taker_buy_quote_5m: number | null;
  taker_buy_fraction: number | null;
  net_taker_quote_5m: number | null;
  volume_ratio_20: number | null;
  feature_available_at: number | null;
  derivative_venue: string | null;
  derivative_status: DerivativeStatus;
  funding_hourly_pct: number | null;
  oi_usd: number | null;
  derivative_time: number | null;
  derivative_available_at: number | null;
  excursion_reference: ExcursionReference;
  reference_start: number;
}

export type MarketEventRow = SampleColumns & OutcomeColumns;

/** Checksum and size of one release file. */
export interface FileDigest {
  /** Lowercase hex SHA-256 of the file bytes. */
  sha256: string;
  /** File size in bytes. */
  bytes: number;
}

/** File formats of a release (`files` keys) and the extra `manifest` download. */
export const RELEASE_FILE_FORMATS = ['json', 'csv', 'parquet', 'schema'] as const;
export type ReleaseFileFormat = (typeof RELEASE_FILE_FORMATS)[number];
export const DOWNLOAD_FORMATS = ['csv', 'parquet', 'json', 'manifest', 'schema'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** `files` of a release: `schema` is absent for releases older than their bundled schema. */
export type ReleaseFiles = { json: FileDigest; csv: FileDigest; parquet: FileDigest; schema?: FileDigest };

export interface ReleaseCoverage {
  symbols: MarketSymbol[];
  samples: Record<SampleType, number>;
  feature_status: Partial<Record<FeatureStatus, number>>;
  taker_status: Partial<Record<TakerStatus, number>>;
  outcomes: Record<Window, Partial<Record<OutcomeStatus, number>>>;
}

/** The release object (spec: "Release (paid scope)"); with all `files` it is the manifest. */
export interface Release {
  /** 64 characters (RELEASE_ID_PATTERN), kept exactly as the service gives it; immutable. */
  id: string;
  dataset: string;
  version: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  generated_at: number;
  rows: number;
  files: ReleaseFiles;
  coverage: ReleaseCoverage;
  min_sample_time: number | null;
  max_sample_time: number | null;
  limitations: string[];
}

/**
 * One item of a `/releases` listing. The spec names only `id`, `day`, `version` and `files` ("fields beyond
 * … not shown"), so every other release field may be absent, and fields the spec does not name are kept
 * as given. The client keeps only items with a usable `id` and `day` (it reports the others); an absent
 * value is shown empty, never invented.
 */
export type ListedRelease = Pick<Release, 'id' | 'day' | 'version'> &
  Partial<Omit<Release, 'id' | 'day' | 'version'>> &
  Record<string, unknown>;

/** One field of a schema document: the bundled schema file and `/schema`. */
export interface SchemaField {
  type: FieldType;
  description: string;
  nullable: boolean;
}

/** The release document shape of the spec (the `json` file). */
export interface ReleaseDocument {
  dataset: string;
  version: string;
  status: ReleaseStatus;
  limitations: string[];
  fields: Record<string, SchemaField>;
  /** The release object; its `files` cannot hold the document's own checksum, so it omits `json`. */
  release: Omit<Release, 'files'> & { files: Omit<ReleaseFiles, 'json'> };
  items: MarketEventRow[];
  stale: boolean;
}

/** Paged row response of `/rows/<RELEASE_ID>`. */
export interface PagedRows<Row = MarketEventRow> {
  items: Row[];
  total: number;
  has_more: boolean;
  /** Offset of the next page; present when has_more is true. */
  next_offset: number | null;
}

/**
 * A release ID: 64 URL-unreserved characters (letters of either case, digits, `.`, `_`, `~`, `-`). The spec
 * says only "64 characters", so any ID a server lists is accepted and kept exactly as given (never
 * case-folded); a wrong length, `/`, a space, `%`, `?` or `#` is refused before any lookup. The mock's
 * own IDs are 64 lowercase hex characters.
 */
export const RELEASE_ID_PATTERN = /^[A-Za-z0-9._~-]{64}$/;
/** True when `value` is a release ID by RELEASE_ID_PATTERN (exact: no trimming, no case folding). */
export function isReleaseId(value: unknown): value is string {
  return typeof value === 'string' && RELEASE_ID_PATTERN.test(value);
}

/** True when `value` is a release `day`: a `YYYY-MM-DD` string naming a real UTC calendar day. */
export function isReleaseDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY_PATTERN.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}
