// The choices a foreign Research Data API server makes where the spec says "not shown" or leaves a
// choice open. Every field is optional; the documented default is the plainest reading of the spec.

/** One foreign server's choices. */
export interface SpecVariation {
  /** Published days (one release each), newest last in time. Default 3. */
  days?: number;
  /** Product version string of the releases and rows. Default `mev-calc-4`. */
  productVersion?: string;
  /** Another product version string for the newest day only (a new calculation starts mid-range). Default: the same. */
  newestDayVersion?: string;
  /**
   * Release ID alphabet: `hex` lowercase SHA-256 hex (default); `upper` uppercase hex; `mixed` mixed case
   * with `-` and `_`. Always 64 characters (the spec says only "64 characters").
   */
  idStyle?: 'hex' | 'upper' | 'mixed';
  /** The paid /catalog `limits`: `full` (default) numbers; `absent`; `null-daily` (`daily_bytes: null`); `other-shape`. */
  limits?: 'full' | 'absent' | 'null-daily' | 'other-shape';
  /** Status of the paid /catalog: 200 (default) or 404 (endpoint missing). */
  catalogStatus?: 200 | 404;
  /** 401: the key is refused everywhere (revoked); 403: the key has no paid plan (paid scope refused). Default: accepted. */
  keyRefused?: 401 | 403;
  /** `/releases` items: `full` release objects (default) or `sparse` (only id, day, version, files). */
  listing?: 'full' | 'sparse';
  /** Times and counts stored as integers (BIGINT in Parquet, integral values). Default false (DOUBLE, events fractional). */
  integerColumns?: boolean;
  /** Type words of the bundled schema: `spec` (string/number/boolean, default) or `arrow` (utf8/float64/int64/bool). */
  typeWords?: 'spec' | 'arrow';
  /** A field beyond the spec's list, in the bundled schema and every data file. Default none. */
  extraField?: { name: string };
  /** The oldest release has no bundled schema: `files.schema` absent and /download/<id>/schema answers 404. Default false. */
  oldReleaseWithoutSchema?: boolean;
  /** Every `{base_url}` path is served under `/old/v1` with this redirect status to `/v1`. Default: no redirect. */
  moved?: 301 | 302 | 307;
  /** Every /download answers this redirect status to a second origin (a "CDN" server on another port). Default: served here. */
  cdn?: 301 | 302 | 307;
  /** ETag on downloads: `none` (default), or `other-sha256`: a 64-hex SHA-256 of something other than the file. */
  etag?: 'none' | 'other-sha256';
  /** Every response sent with Transfer-Encoding: chunked and no Content-Length. Default false. */
  chunked?: boolean;
  /** JSON responses compressed with this Content-Encoding when the request's Accept-Encoding allows it. Default none. */
  compress?: 'gzip' | 'br';
  /** The public live page's JSON shape. Default `envelope` (the snapshot envelope of the spec). */
  liveShape?: 'envelope' | 'items-object' | 'no-refresh' | 'array-body';
  /** The first request whose path ends with this suffix (e.g. `/releases`) answers 429 (without Retry-After by default). */
  rateLimitFirst?: string;
  /** Retry-After of that 429: `none` (default) or `http-date` (an HTTP-date 3 s ahead, which HTTP allows). */
  rateLimitRetryAfter?: 'none' | 'http-date';
  /** /download/<id>/parquet answers 404 (the manifest still lists it): the file is unavailable. Default false. */
  parquetUnavailable?: boolean;
  /** The status of that answer: 404, or the spec's 413/503 for "a file unavailable or failing its checksum". Default 404. */
  parquetUnavailableStatus?: 404 | 413 | 503;
  /** The free snapshot's open parts: `objects` (default) or `strings` (window, summary, limitation as strings; source null). */
  researchShape?: 'objects' | 'strings';
  /** Data file downloads answer a daily-byte 429 with a long Retry-After and this body. Default: no limit. */
  dailyByteLimit?: 'json-message' | 'text';
  /** The newest release's parquet is served with one byte changed (the manifest is right). Default false. */
  tamperParquet?: boolean;
  /** Error bodies: `json` (`{"error":{"status","message"}}`, default) or `text` (plain text). */
  errorBody?: 'json' | 'text';
  /** Error bodies echo the Authorization header received (a careless server); rdw must still never print the key. Default false. */
  echoKey?: boolean;
  /** Answer 422 to any query parameter the spec does not list for the path. Default false (unknown ones ignored). */
  strictParameters?: boolean;
  /** The last page of /rows: `null` next_offset (default) or `absent` (no next_offset key at all). */
  lastPageNextOffset?: 'null' | 'absent';
  /** Whether paged row responses carry `total`. Default true. */
  pageTotal?: boolean;
  /** The newest day was revised: a second release (new ID, later generated_at) is listed before the first, both served. Default false. */
  revisedNewestDay?: boolean;
  /** Fields the spec does not name in the manifest, its file entries, /releases items and /catalog. Default false. */
  unknownFields?: boolean;
  /** Column order of the CSV file: `spec` (default) or `reversed` (the header names them). */
  csvColumnOrder?: 'spec' | 'reversed';
  /** The key's service prefix (the spec says only "a fixed service-specific prefix"). Default `rdw_sk_`. */
  keyPrefix?: string;
  /** The free snapshot is past its freshness boundary (`stale: true`, still 200). Default false. */
  stale?: boolean;
}

/** A variation with every default applied. */
export type ResolvedVariation = Required<Omit<SpecVariation, 'newestDayVersion' | 'moved' | 'cdn' | 'keyRefused' | 'extraField' | 'rateLimitFirst' | 'dailyByteLimit' | 'compress'>> &
  Pick<SpecVariation, 'newestDayVersion' | 'moved' | 'cdn' | 'keyRefused' | 'extraField' | 'rateLimitFirst' | 'dailyByteLimit' | 'compress'>;

/** Applies the documented defaults. */
export function resolveVariation(variation: SpecVariation = {}): ResolvedVariation {
  return {
    days: 3,
    productVersion: 'mev-calc-4',
    idStyle: 'hex',
    limits: 'full',
    catalogStatus: 200,
    listing: 'full',
    integerColumns: false,
    typeWords: 'spec',
    oldReleaseWithoutSchema: false,
    etag: 'none',
    liveShape: 'envelope',
    rateLimitRetryAfter: 'none',
    parquetUnavailable: false,
    parquetUnavailableStatus: 404,
    researchShape: 'objects',
    revisedNewestDay: false,
    unknownFields: false,
    csvColumnOrder: 'spec',
    keyPrefix: 'rdw_sk_',
    tamperParquet: false,
    errorBody: 'json',
    strictParameters: false,
    lastPageNextOffset: 'null',
    pageTotal: true,
    stale: false,
    chunked: false,
    echoKey: false,
    ...variation,
  };
}
