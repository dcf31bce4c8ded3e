// Options of createClient and their one normalizer: validates eagerly (the key before any request) and
// applies the documented defaults.

import type { Dispatcher } from 'undici';
import { API_VERSION_SEGMENT, DISPLAY_KEY_PATTERN, UsageError } from '../contract/index.js';
import type { AccountLimits, ClientNotice } from './client-types.js';
import { systemClock, type Clock } from './clock.js';
import { messages } from './messages.js';
import { DEFAULT_RESPONSE_LIMITS, type ResponseLimits } from './response-limits.js';
import { refuseSecretsInUrls } from './refuse-secrets-in-urls.js';
import { seededRandom } from '../base/index.js';

export interface RetryOptions {
  /** Retries after the first attempt, for 429 (request rate), 5xx and connection failures. Default 4. */
  maxRetries?: number;
  /** Cap on the total time spent waiting between retries of one call, in ms. Default 120_000. */
  maxWaitMs?: number;
  /** First backoff for 5xx and connection failures, in ms; doubles per retry. Default 500. */
  baseDelayMs?: number;
  /** Largest random jitter added to each wait, in ms. Default 1_000. */
  jitterMs?: number;
  /** Source of jitter in [0, 1). Default: a seeded PRNG (seed from the process ID). */
  random?: () => number;
}

export interface TimeoutOptions {
  /** Time allowed until the response headers arrive, in ms. Default 30_000. */
  headersMs?: number;
  /** Longest allowed pause between body chunks, in ms. Default 60_000. */
  bodyMs?: number;
  /**
   * Longest a request may take from sending to the body's last byte, redirects included, however steadily
   * the bytes trickle, in ms; not retried when passed. A release file streamed to disk gets this plus one
   * second per 64 KiB it is expected to hold (a floor of 64 KiB/s). Default 120_000.
   */
  totalMs?: number;
}

export interface ClientOptions {
  /** `{base_url}`: the API root including `/v1`. Required. */
  baseUrl: string;
  /** `{site_url}` for the public live endpoints. Default: the origin of baseUrl. */
  siteUrl?: string;
  /** API key, sent only as `Authorization: Bearer`. Default: none (public live scope only). */
  apiKey?: string;
  /** RDW_HOME: shared pacing and byte-budget state lives in `<home>/state/`. Default: in-memory for this process only. */
  home?: string;
  /** Clock for pacing, retries, caches and budgets. Default: the system clock. */
  clock?: Clock;
  retry?: RetryOptions;
  timeouts?: TimeoutOptions;
  /**
   * Largest decoded size, in bytes, of a response read into memory, by kind: `document` (JSON: catalog,
   * schema, listing, manifest, snapshot, live page), `rows` (a /rows page), `csv` (a research or live CSV
   * table). A larger answer stops the reading: ResponseTooLargeError (exit 5). Release files streamed to disk
   * are bounded by the manifest's `bytes` instead. Default DEFAULT_RESPONSE_LIMITS: 8, 32 and 32 MiB.
   */
  responseLimits?: Partial<ResponseLimits>;
  /** undici dispatcher. Default: one keep-alive Agent per client, closed by close(). */
  dispatcher?: Dispatcher;
  /** User-Agent header. Default `rdw-client/0.1`. */
  userAgent?: string;
  /**
   * Share of the plan's rpm the limiter may use, in (0, 1]. Default 1: the limiter paces to the plan's full
   * rate, with a 250 ms latency margin on its 60 s window (src/client/rate-limiter.ts), not fewer requests.
   */
  rateShare?: number;
  /**
   * The account's limits as an earlier client learned them from the paid /catalog (the workbench keeps them
   * in the home): the limiter starts at `rpm` instead of the smallest plan's 60. With `current: true` the
   * client also takes them as the account's limits and does not read /catalog for them, unless its local
   * byte-budget check would refuse a download (then it asks the service once, in case the plan changed).
   * Default: none (start at 60 rpm, read /catalog before the first paid call).
   */
  knownLimits?: KnownAccountLimits;
  /**
   * A name for the Research Desk account the key belongs to: every client (in this process, and with `home`
   * in other processes) declared with the same name paces against one request window and one daily byte
   * budget, whichever key it uses (spec "Limits": account-wide, not per key). Default: none (per key).
   */
  account?: string;
  /** Told once per client when the account's limits were read from the service (source 'reported'). Default: none. */
  onLimits?: (limits: AccountLimits) => void;
  /**
   * Told what a person should know: limits assumed ('limits_assumed'), a wait of 1 s or more (pacing
   * 'pace_wait', a 429 'rate_wait', a retry 'retry_wait', an answer still coming 'response_wait', each with
   * waitMs), a redirect to another origin
   * ('redirect'), … Each kind and message once per client (every wait is told); never the key or a host.
   * Default: none (notices are dropped).
   */
  onNotice?: (notice: ClientNotice) => void;
}

export interface ResolvedClientOptions {
  baseUrl: string;
  siteUrl: string;
  apiKey: string | undefined;
  home: string | undefined;
  clock: Clock;
  retry: Required<RetryOptions>;
  timeouts: Required<TimeoutOptions>;
  responseLimits: ResponseLimits;
  dispatcher: Dispatcher | undefined;
  userAgent: string;
  rateShare: number;
  knownLimits: KnownAccountLimits | undefined;
  account: string | undefined;
  onLimits: ((limits: AccountLimits) => void) | undefined;
  onNotice: ((notice: ClientNotice) => void) | undefined;
}

/**
 * Refuses a key that cannot be right before it is ever sent: empty or too short, quotes, whitespace or
 * characters a header cannot carry, or the shortened display form `rdw_sk_abcd…`. The service's prefix is not
 * checked: the spec says only "a fixed service-specific prefix" (the mock's is `rdw_sk_`), and a real
 * service's may differ. The key never appears in the thrown error.
 */
export function validateApiKey(key: string): void {
  if (key === '') throw new UsageError(messages.keyMissing(), { option: 'apiKey' });
  if (/["'`\s]/.test(key)) throw new UsageError(messages.keyHasQuotesOrWhitespace(), { option: 'apiKey' });
  if (DISPLAY_KEY_PATTERN.test(key) || key.includes('…') || key.endsWith('...')) {
    throw new UsageError(messages.keyIsDisplayPrefix(), { option: 'apiKey' });
  }
  if (!/^[\x21-\x7e]+$/.test(key)) throw new UsageError(messages.keyNotPrintable(), { option: 'apiKey' });
  if (key.length < MIN_KEY_LENGTH) throw new UsageError(messages.keyTooShort(MIN_KEY_LENGTH), { option: 'apiKey' });
}

/** Shorter than this is a prefix or a typo, not a secret (the mock's keys have 39 characters). */
const MIN_KEY_LENGTH = 12;

function parseHttpUrl(value: unknown, message: string, option: string): URL {
  if (typeof value !== 'string') throw new UsageError(message, { option });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(message, { option });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(message, { option });
  return url;
}

function number(value: unknown, fallback: number, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(messages.badOption(name, `a number from ${min} to ${max}`), { option: name });
  }
  return value;
}

let clientSerial = 0;

/** Validates ClientOptions and applies defaults; throws UsageError naming the bad option. */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  // 1. Keys stay in the header: a base or site URL that could carry a secret is refused first, never echoed.
  refuseSecretsInUrls(options ?? {});
  const base = parseHttpUrl(options?.baseUrl, messages.badBaseUrl(), 'baseUrl');
  const basePath = base.pathname.replace(/\/+$/, '');
  if (!basePath.endsWith(API_VERSION_SEGMENT) || base.search !== '' || base.hash !== '') {
    throw new UsageError(messages.badBaseUrl(), { option: 'baseUrl' });
  }
  const baseUrl = `${base.origin}${basePath}`;
  const siteUrl =
    options.siteUrl === undefined
      ? base.origin
      : parseHttpUrl(options.siteUrl, messages.badSiteUrl(), 'siteUrl').href.replace(/\/+$/, '');
  if (options.apiKey !== undefined) {
    if (typeof options.apiKey !== 'string') throw new UsageError(messages.keyMissing(), { option: 'apiKey' });
    validateApiKey(options.apiKey);
  }
  if (options.home !== undefined && (typeof options.home !== 'string' || options.home === '')) {
    throw new UsageError(messages.badOption('home', 'a folder path'), { option: 'home' });
  }
  const clock = options.clock ?? systemClock;
  if (typeof clock.now !== 'function' || typeof clock.sleep !== 'function') {
    throw new UsageError(messages.badOption('clock', 'an object with now() and sleep(ms)'), { option: 'clock' });
  }
  if (options.onNotice !== undefined && typeof options.onNotice !== 'function') {
    throw new UsageError(messages.badOption('onNotice', 'a function'), { option: 'onNotice' });
  }
  if (options.onLimits !== undefined && typeof options.onLimits !== 'function') {
    throw new UsageError(messages.badOption('onLimits', 'a function'), { option: 'onLimits' });
  }
  if (options.account !== undefined && (typeof options.account !== 'string' || options.account.trim() === '')) {
    throw new UsageError(messages.badOption('account', 'a non-empty name'), { option: 'account' });
  }
  const knownLimits = options.knownLimits === undefined ? undefined : resolveKnownLimits(options.knownLimits);
  const retry = options.retry ?? {};
  clientSerial += 1;
  return {
    baseUrl,
    siteUrl,
    apiKey: options.apiKey,
    home: options.home,
    clock,
    retry: {
      maxRetries: number(retry.maxRetries, 4, 'retry.maxRetries', 0, 20),
      maxWaitMs: number(retry.maxWaitMs, 120_000, 'retry.maxWaitMs', 0),
      baseDelayMs: number(retry.baseDelayMs, 500, 'retry.baseDelayMs', 0),
      jitterMs: number(retry.jitterMs, 1_000, 'retry.jitterMs', 0),
      random: retry.random ?? seededRandom(process.pid * 7919 + clientSerial),
    },
    timeouts: {
      headersMs: number(options.timeouts?.headersMs, 30_000, 'timeouts.headersMs', 1),
      bodyMs: number(options.timeouts?.bodyMs, 60_000, 'timeouts.bodyMs', 1),
      totalMs: number(options.timeouts?.totalMs, 120_000, 'timeouts.totalMs', 1),
    },
    responseLimits: {
      document: number(options.responseLimits?.document, DEFAULT_RESPONSE_LIMITS.document, 'responseLimits.document', 1024),
      rows: number(options.responseLimits?.rows, DEFAULT_RESPONSE_LIMITS.rows, 'responseLimits.rows', 1024),
      csv: number(options.responseLimits?.csv, DEFAULT_RESPONSE_LIMITS.csv, 'responseLimits.csv', 1024),
    },
    dispatcher: options.dispatcher,
    userAgent: options.userAgent ?? 'rdw-client/0.1',
    rateShare: number(options.rateShare, 1, 'rateShare', 0.01, 1),
    knownLimits,
    account: options.account?.trim(),
    onLimits: options.onLimits,
    onNotice: options.onNotice,
  };
}

/** Limits an earlier client read from the paid /catalog (ClientOptions.knownLimits). */
export interface KnownAccountLimits {
  /** Requests per minute, account-wide. */
  rpm: number;
  /** Paid file bytes per UTC day; undefined when the service did not say. */
  daily_bytes?: number | undefined;
  /** Active-key slots; undefined when the service did not say. */
  keys?: number | undefined;
  /** True: use them as the account's limits without reading /catalog (the caller judged them recent). */
  current?: boolean | undefined;
}

function resolveKnownLimits(known: KnownAccountLimits): KnownAccountLimits {
  const optional = (value: number | undefined, name: string) => (value === undefined ? undefined : number(value, 0, `knownLimits.${name}`, 0));
  return {
    rpm: number(known?.rpm ?? Number.NaN, 0, 'knownLimits.rpm', 1),
    daily_bytes: optional(known.daily_bytes, 'daily_bytes'),
    keys: optional(known.keys, 'keys'),
    current: known.current === true,
  };
}
