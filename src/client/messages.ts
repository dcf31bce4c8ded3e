// Every user-facing message of the client layer, as functions (one sentence: what failed, on what, what to do).
// Messages never take the API key as an input; callers pass paths, IDs and numbers only.

/** A duration in words: whole seconds ("3 s"), a tenth below ten. */
const seconds = (ms: number): string => `${ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000)} s`;
/** A byte count in MiB ("8 MiB", "0.5 MiB"). */
const mebibytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;
const short = (id: string): string => (id.length > 12 ? `${id.slice(0, 12)}…` : id);
/** A request path for a notice: release IDs (64 characters) shortened like `short`, the rest as it is. */
const shortPath = (path: string): string => path.replace(/[A-Za-z0-9._~-]{64}/g, short);
/** A server-sent word for a message: printable ASCII only, at most 40 characters. */
const printable = (text: string): string => text.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);

/**
 * What to check after a 404, by the kind of path: an ID or format the caller chose, or, for an endpoint
 * every service has (/catalog, /releases), where the server serves the API: the base URL already ends in
 * /v1 (the client refuses any other), so a 404 there means the server serves it under another prefix.
 */
const notFoundRemedy = (path: string): string => {
  // Every release has a manifest: its 404 is about the ID alone (a pull asks for it first; the user chose no format).
  if (/\/download\/[^/?]+\/manifest$/.test(path)) return 'check the release ID (the whole ID, from rdw releases --full-ids)';
  if (/\/(download|releases)\/[^/?]/.test(path)) return 'check the release ID (the whole ID, from rdw releases --full-ids) and the format';
  if (/\/live\/[^/?]/.test(path)) return 'check the page key (and RDW_SITE_URL when the public pages are on another host)';
  if (/\/research\/[^/?]/.test(path) && !/\/research\/catalog(\?|$)/.test(path)) return 'check the dataset ID (rdw research catalog lists them)';
  return (
    'the server answers, but serves no API under this base URL; it may serve it under another prefix (a gateway path, ' +
    'or a mock server that ignores server paths: serve it the current rdw openapi output, whose paths begin with /v1), ' +
    'so set RDW_BASE_URL to the prefix it uses, ending in /v1'
  );
};

export const messages = {
  keyMissing: (): string => 'No API key was given; set RDW_API_KEY to the key shown once when it was created.',
  keyHasQuotesOrWhitespace: (): string =>
    'The API key contains quotes or whitespace; set it to the bare key exactly as shown once at creation.',
  keyIsDisplayPrefix: (): string =>
    'The API key looks like the shortened prefix shown in the key list, which is not a key; use the full secret (or revoke and replace a lost key).',
  keyTooShort: (min: number): string =>
    `The API key is shorter than ${min} characters, so it is a prefix or a typo; set RDW_API_KEY to the full secret shown once at creation.`,
  keyNotPrintable: (): string =>
    'The API key contains characters an HTTP header cannot carry; set RDW_API_KEY to the bare key exactly as shown once at creation.',
  urlCarriesSecret: (setting: 'base URL' | 'site URL', carried: 'key' | 'userinfo' | 'query' | 'fragment'): string =>
    `The ${setting} carries ${URL_SECRET_WORDS[carried]}; rdw refuses it before any request and does not repeat it. Give the bare URL (scheme, host, path); the key goes only in RDW_API_KEY, which rdw sends in the Authorization header.`,
  redirectCarriesSecret: (path: string, status: number): string =>
    `${path} answered HTTP ${status} with a redirect whose target carries a key or a user:password part; rdw does not follow it, so the key stays in the header. Report it to the service.`,
  badBaseUrl: (): string => 'The base URL is not an absolute http(s) URL ending in /v1; pass {base_url} including the version segment.',
  badSiteUrl: (): string => 'The site URL is not an absolute http(s) URL; pass {site_url} (for example https://host).',
  badOption: (name: string, expected: string): string => `The client option ${name} is invalid: expected ${expected}.`,
  badFormat: (value: string, allowed: readonly string[]): string =>
    `"${value}" is not a download format; use one of ${allowed.join(', ')}.`,
  badLimit: (name: string, min: number, max: number): string => `${name} must be an integer from ${min} to ${max}.`,
  badFilter: (name: string, allowed: readonly string[]): string => `The ${name} filter must be one of ${allowed.join(', ')}.`,
  badDatasetId: (value: string): string => `"${short(value)}" is not a dataset ID or page key; use an ID from the research catalog.`,
  keyRequired: (what: string): string => `${what} needs an API key; set RDW_API_KEY.`,

  unauthorized: (path: string): string =>
    `The API refused the key for ${path} (401: missing, incorrect or revoked); create a new key and set RDW_API_KEY.`,
  unauthorizedKeyWithheld: (path: string): string =>
    `${shortPath(path)} was redirected to another host, which answered 401; rdw does not send the key beyond the base URL's host, so the key was not tried there: set RDW_BASE_URL to the API's own address or ask its operator.`,
  forbidden: (path: string, code: string | undefined): string =>
    code === 'key_over_allowance'
      ? `The key is over the plan's key allowance for ${path} (403); use the account's first key or upgrade the plan.`
      : `The account has no active data plan for ${path} (403); activate a Researcher or Research Desk plan.`,
  notFound: (path: string): string => `${path} was not found (404); ${notFoundRemedy(path)}.`,
  // The spec's only 409 is for creating a key with every slot used, which rdw never asks for (it only reads).
  conflict: (path: string): string =>
    `The service answered ${path} with 409 (conflict), which the spec gives only for creating a key when every key slot is used; rdw only reads, so it is the service's own state: try again later.`,
  rowQueryTooLarge: (releaseId: string, status: number): string =>
    `The row query on release ${short(releaseId)} is too large for /rows (${status}); download the full release file instead.`,
  rowPagesMisaligned: (releaseId: string, offset: number, rows: number, next: number): string =>
    `The /rows pages of release ${short(releaseId)} do not line up: the page at offset ${offset} held ${rows} rows but the next starts at ${next}, so rows would be ${next > offset + rows ? 'skipped' : 'repeated'}; download the full release file instead.`,
  rowPagesShort: (releaseId: string, rows: number, total: number): string =>
    `The /rows pages of release ${short(releaseId)} ended after ${rows} rows of the ${total} their total states; download the full release file instead.`,
  rowOffsetTooLarge: (releaseId: string, max: number): string =>
    `Paging release ${short(releaseId)} would pass the /rows offset limit of ${max}; download the full release file instead.`,
  validation: (path: string, parameter: string | undefined, detail: string): string =>
    `The API rejected ${parameter === undefined ? 'a parameter' : `the parameter ${parameter}`} of ${path} (422: ${detail}); fix the value and try again.`,
  rateLimited: (path: string, retryAfter: number, waitedMs: number): string =>
    `The request rate limit was hit for ${path} (429) and retries gave up after ${Math.round(waitedMs / 1000)} s of waiting; try again in ${retryAfter} s or lower the request rate.`,
  rateHeld: (path: string, seconds: number, until: string): string =>
    `The request for ${path} was not sent: an earlier 429 of this key or account asked every request to wait until ${until} (${seconds} s more), longer than a request waits; try again then, or lower the request rate.`,
  longRetryAfter: (path: string, seconds: number, until: string): string =>
    `The service refused ${path} with 429 and asked to wait ${seconds} s (until ${until}), longer than a request-rate limit needs, so rdw takes it as the daily byte limit and does not wait; try again after ${until}.`,
  byteBudgetServer: (path: string, nextDay: string): string =>
    `The account's daily download byte limit is used up (429 on ${path}); try again after ${nextDay}T00:00:00Z or change the plan.`,
  impossibleSize: (what: string, needed: number, ceiling: number): string =>
    `${what[0]!.toUpperCase()}${what.slice(1)} is said to be ${needed} bytes, more than the largest daily byte allowance (${ceiling} bytes) could ever download; the service's statement is wrong, nothing was sent.`,
  byteBudgetLocal: (what: string, needed: number | undefined, remaining: number, nextDay: string): string =>
    needed === undefined || remaining <= 0
      ? `Today's download byte budget is used up, so ${what} was not downloaded; nothing was sent, try again after ${nextDay}T00:00:00Z.`
      : `Downloading ${what} needs ${needed} bytes but only ${remaining} remain of today's byte budget; nothing was sent, try again after ${nextDay}T00:00:00Z.`,
  fileUnavailable: (path: string, status: number): string =>
    `The API could not serve ${path} (${status}: the file is unavailable or failed its own checksum); try again later, or report it to the API operator.`,
  serviceUnavailable: (path: string, attempts: number): string =>
    `The API is unavailable for ${path} (5xx after ${attempts} attempt${attempts === 1 ? '' : 's'}); try again later.`,
  unexpectedStatus: (path: string, status: number): string =>
    `The API answered ${path} with an unexpected status ${status}; try again later or report it.`,
  badResponseBody: (path: string): string => `The API sent a response for ${path} that is not the expected JSON; try again later or report it.`,
  listingItemsSkipped: (skipped: readonly { index: number; reason: string }[]): string =>
    `The /releases listing had ${skipped.length} item(s) rdw cannot use (${skipped
      .slice(0, 3)
      .map((item) => `item ${item.index + 1}: ${item.reason}`)
      .join('; ')}${skipped.length > 3 ? '; …' : ''}); they were left out, the other releases are listed.`,
  network: (path: string, detail: string): string =>
    `The connection failed while requesting ${path} (${detail}); check the base URL (RDW_BASE_URL) and the network, then try again.`,
  bodyBrokeOff: (done: number, expected: number | undefined): string =>
    `its body broke off after ${done}${expected === undefined ? '' : ` of ${expected}`} bytes`,
  retryWait: (path: string, reason: string, waitMs: number, retry: number, maxRetries: number): string =>
    `The request for ${shortPath(path)} failed (${reason}); retrying in ${Math.round(waitMs / 1000)} s (retry ${retry} of ${maxRetries}).`,
  headersTimeout: (path: string, ms: number): string =>
    `The API sent no response headers for ${path} within ${ms} ms; try again later or raise timeouts.headersMs.`,
  bodyTimeout: (path: string, ms: number): string =>
    `The API stalled for more than ${ms} ms while sending ${path}; try again (a download resumes) or raise timeouts.bodyMs.`,
  totalTimeout: (path: string, ms: number): string =>
    `The API had not finished sending ${shortPath(path)} after ${seconds(ms)} (the whole answer, however slowly it comes); rdw gave up, try again later or raise the deadline (timeouts.totalMs, RDW_REQUEST_DEADLINE).`,
  responseWaitTry: (path: string, elapsedMs: number, tryEndsMs: number): string =>
    // Short enough for 100 columns with the CLI's "rdw: " and a download's path (issue 29 item 6).
    `No answer yet to ${shortPath(path)} after ${seconds(elapsedMs)}; this try gives up at ${seconds(tryEndsMs)}.`,
  responseWait: (path: string, elapsedMs: number, deadlineMs: number): string =>
    `Still waiting for ${shortPath(path)} after ${seconds(elapsedMs)}; rdw gives up at ${seconds(deadlineMs)}.`,
  responseTooLarge: (path: string, kind: string, limit: number): string =>
    `The API's answer to ${shortPath(path)} is larger than rdw's limit of ${mebibytes(limit)} for ${kind}; rdw stopped reading it, report it to the API operator (or raise the limit with RDW_MAX_RESPONSE_MB if such answers are expected).`,
  aborted: (path: string): string => `The request for ${path} was aborted by the caller.`,
  redirectTooMany: (path: string, max: number): string =>
    `The API redirected ${path} more than ${max} times; rdw stopped following, check the base URL or report it to the API operator.`,
  redirectLoop: (path: string): string =>
    `The API's redirects for ${path} lead back to an address already visited (a loop); check the base URL or report it to the API operator.`,
  redirectNoLocation: (path: string, status: number): string =>
    `The API answered ${path} with a redirect (${status}) but no usable Location header; try again later or report it.`,
  redirectScheme: (path: string, scheme: string): string =>
    `The API redirected ${path} to a ${printable(scheme)} address; rdw follows only http and https redirects, report it to the API operator.`,
  redirectCrossOrigin: (path: string): string =>
    `The API redirected ${shortPath(path)} to another origin (e.g. a download host); rdw follows such redirects without sending the API key.`,
  unsupportedEncoding: (path: string, coding: string): string =>
    `The API sent ${path} with Content-Encoding "${printable(coding)}", which rdw cannot decode (it reads gzip, br and deflate); report it to the API operator.`,
  badEncodedBody: (path: string, detail: string): string =>
    `The API sent a compressed body for ${path} that does not decode (${printable(detail)}); try again later or report it.`,
  rateWait: (path: string, waitMs: number, retry: number, maxRetries: number, retryAfterGiven: boolean): string =>
    `The API answered 429 (request rate) for ${shortPath(path)}${retryAfterGiven ? '' : ' without Retry-After'}; waiting ${Math.round(waitMs / 1000)} s (retry ${retry} of ${maxRetries}).`,
  paceWait: (waitMs: number, reason: 'window' | 'blocked', capacity: number, basis: 'account' | 'assumed' | 'public'): string =>
    reason === 'blocked'
      ? `Pacing: the API answered 429 (request rate) to another request of this key or account; every rdw request of it waits ${Math.round(waitMs / 1000)} s.`
      : `Pacing: ${PACE_BASIS[basis](capacity)} have all been used in the last minute (by this or another rdw process); waiting ${Math.round(waitMs / 1000)} s.`,
  limitsAssumed: (reason: string, rpm: number): string =>
    `The API did not state the account limits (${reason}); rdw assumes the smallest plan's ${rpm} requests/min and no byte budget (downloads stop on the service's daily 429).`,
  rpmAssumed: (reason: string, rpm: number): string =>
    `The API did not report a request rate (${reason}); rdw assumes the smallest plan's ${rpm} requests per minute.`,
  dailyBytesUnknown: (path: string): string =>
    `The API's ${path} gives no daily byte limit; rdw does not check downloads against a byte budget (a download stops on the service's daily 429).`,
  freeLimitsAssumed: (reason: string, rpm: number): string =>
    `The API did not report the account limits (${reason}); rdw assumes the free plan: ${rpm} requests per minute and no paid download bytes.`,

  checksumMismatch: (what: string, actual: string, expected: string): string =>
    // `expected` is the manifest's digest, or the catalog's record of it (rdw verify --repair): "expected" is true of both.
    `${what} failed its checksum: sha256 was ${short(actual)}, ${short(expected)} was expected; nothing was kept, download it again.`,
  sizeMismatch: (what: string, actual: number, expected: number): string =>
    `${what} has ${actual} bytes but ${expected} were expected; nothing was kept at the destination, download it again.`,
  announcedSizeMismatch: (what: string, announced: number, expected: number): string =>
    `The API announced ${announced} bytes (Content-Length) for ${what.charAt(0).toLowerCase()}${what.slice(1)}, but ${expected} were expected; nothing was downloaded: report it to the API operator (a release's files never change).`,
  manifestMismatch: (requested: string, received: string): string =>
    `The manifest requested for release ${short(requested)} describes release ${short(received)}; nothing was used, report this to the API operator.`,
  noBundledSchemaFile: (releaseId: string): string =>
    `Release ${short(releaseId)} predates its bundled schema, so it has no schema file; use bundledSchema() which returns undefined for it.`,
} as const;

/** Whose requests per minute a pacing wait keeps to, in words. */
const PACE_BASIS = {
  account: (capacity: number) => `the account's ${capacity} requests per minute`,
  assumed: (capacity: number) => `the ${capacity} requests per minute rdw assumes until the account's limit is read`,
  public: (capacity: number) => `the public pages' ${capacity} requests per minute`,
} as const;

/** What a refused URL carried, in words (never the value). */
const URL_SECRET_WORDS = {
  key: 'an API key (or a key-shaped rdw_sk_ token)',
  userinfo: 'a user@ or user:password@ part',
  query: 'a query (?…)',
  fragment: 'a fragment (#…)',
} as const;
