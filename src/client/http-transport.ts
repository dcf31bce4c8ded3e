// The one door to the network: undici requests with the Bearer header, pacing, timeouts, bounded retries
// (429 after Retry-After, or a bounded announced wait without one, 5xx and connection failures with
// backoff), bounded redirects (the key only to the base URL's origin), decoded gzip/br/deflate bodies and
// typed errors. 4xx are never retried; a daily-byte 429 is never retried.

import { Agent, request, type Dispatcher } from 'undici';
import { EnvironmentError, type RdwError } from '../contract/index.js';
import {
  AbortedError,
  ByteBudgetError,
  RateLimitedError,
  RedirectError,
  ResponseTooLargeError,
  RowQueryTooLargeError,
  TimeoutError,
  UnexpectedResponseError,
} from './client-errors.js';
import type { ResolvedClientOptions } from './client-options.js';
import { nextUtcDay } from './clock.js';
import { decodeResponse, type ResponseBody } from './decode-body.js';
import { readBoundedBody } from './read-bounded-body.js';
import { RequestDeadline } from './request-deadline.js';
import { RESPONSE_KIND_WORDS, type ResponseKind } from './response-limits.js';
import { discardBody } from './discard-body.js';
import { errorFromResponse, readErrorInfo } from './error-from-response.js';
import { messages } from './messages.js';
import type { Notify } from './notice-sink.js';
import type { RateLimiter } from './rate-limiter.js';
import { noRetryAfterWaitMs, parseRetryAfter } from './retry-after.js';
import { redirectTarget } from './redirect-target.js';
import { redactor } from './safe-cause.js';
import { classifyTooManyRequests } from './too-many-requests.js';
import { failureWords, transportFailure } from './transport-failure.js';

/** One GET to send. */
export interface TransportRequest {
  /** Absolute URL (never carries the key). */
  url: string;
  /** Whether to send `Authorization: Bearer <key>` (false for the public live scope); only ever to the URL's own origin. */
  auth: boolean;
  /** Limiter that paces this request (the key's, or the public per-IP one); redirect hops to another origin are not paced. */
  limiter: RateLimiter;
  /** Extra headers (e.g. Range). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `rows` turns 413/503 into RowQueryTooLargeError. */
  kind?: 'rows' | 'default';
  releaseId?: string;
  /** Called when the server's 429 means the daily byte limit for the rest of the UTC day. */
  onByteLimit?: () => Promise<void>;
  /** Extra status codes the caller handles itself (e.g. 416 for a stale Range). */
  passStatuses?: readonly number[];
  /**
   * Ask for the bytes as stored, `accept-encoding: identity` (release files, so sizes and ranges are of
   * the file). Default false: `gzip, br`. A Range request always asks for identity.
   */
  identity?: boolean;
  /** Total deadline of each attempt, in ms (RequestDeadline). Default `timeouts.totalMs`. */
  deadlineMs?: number;
  /** Whether a wait for the body is announced (`response_wait`); false for a download whose progress is shown. Default true. */
  announceBody?: boolean;
}

/** A response whose body the caller must consume (or discard). */
export interface TransportResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded when it was content-encoded. */
  body: ResponseBody;
  /**
   * True when the body was content-encoded on the wire and is decoded here: its length and byte offsets
   * are not those of the wire (Content-Length is removed from `headers`; a Range does not apply to it).
   */
  encoded: boolean;
  /** This attempt's total deadline: already running; done when the body has been read or dropped. */
  deadline: RequestDeadline;
  /**
   * True when a redirect led to another origin and the key was therefore not sent there: a 401 from it says
   * nothing about the key.
   */
  keyWithheld: boolean;
}

/** Most redirects followed for one request; one more is a RedirectError. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const RETRIED_5XX = new Set([502, 503, 504]);

/** Sends requests for one client. Holds the key privately; never exposes it. */
export class HttpTransport {
  readonly #options: ResolvedClientOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #authorization: string | undefined;
  readonly #notify: Notify;
  #crossOriginAnnounced = false;
  readonly redact: (text: string) => string;
  /** Requests sent by this client (every attempt and every redirect hop), for metrics. */
  requestCount = 0;

  constructor(options: ResolvedClientOptions, notify: Notify = () => {}) {
    this.#options = options;
    this.#notify = notify;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 8 });
    this.#authorization = options.apiKey === undefined ? undefined : `Bearer ${options.apiKey}`;
    this.redact = redactor(options.apiKey);
  }

  get hasKey(): boolean {
    return this.#authorization !== undefined;
  }

  /** Sends the request; resolves with a 2xx (or a pass-through status) response whose body the caller must consume. */
  async send(req: TransportRequest): Promise<TransportResponse> {
    const { clock, retry } = this.#options;
    const path = displayPath(req.url);
    let attempt = 0;
    let waitedMs = 0;
    let tooManyRequests = 0;
    for (;;) {
      attempt += 1;
      let failure: RdwError;
      let delayMs: number;
      /** Why this attempt failed, in a few words for the retry notice. */
      let reason: string;
      try {
        const response = await this.#follow(req, path);
        const status = response.statusCode;
        if (isSuccess(status, req)) return response;
        const info = await readErrorInfo(response.body, this.redact);
        if (status === 429) {
          // 1. A daily-byte 429 (by its code, or a Retry-After no request-rate window needs) is never retried.
          tooManyRequests += 1;
          const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now(), response.headers.date);
          const verdict = classifyTooManyRequests(info.code, retryAfter, clock.now());
          if (verdict.kind === 'daily_bytes') {
            if (verdict.marksDay) await req.onByteLimit?.();
            const next = nextUtcDay(clock.now());
            throw new ByteBudgetError(messages.byteBudgetServer(path, next.day), {
              status,
              apiCode: info.code,
              nextUtcDay: next.day,
              retryAfter: retryAfter ?? Math.ceil(next.inMs / 1000),
            });
          }
          // 2. A request-rate 429: Retry-After, or without one a bounded doubling wait; announced, capped.
          const baseMs = retryAfter === undefined ? noRetryAfterWaitMs(tooManyRequests) : retryAfter * 1000;
          const wait = baseMs + this.#jitter();
          await req.limiter.blockUntil(clock.now() + baseMs);
          if (attempt > retry.maxRetries || waitedMs + wait > retry.maxWaitMs) {
            const seconds = retryAfter ?? Math.ceil(baseMs / 1000);
            throw new RateLimitedError(messages.rateLimited(path, seconds, waitedMs), { apiCode: info.code, retryAfter: seconds });
          }
          if (wait >= 1000) {
            const message = messages.rateWait(path, wait, attempt, retry.maxRetries, retryAfter !== undefined);
            this.#notify({ kind: 'rate_wait', message, waitMs: wait });
          }
          await clock.sleep(wait);
          waitedMs += wait;
          continue;
        }
        const tooLarge = req.kind === 'rows' && (status === 413 || info.code === 'query_too_large');
        if (tooLarge) {
          throw new RowQueryTooLargeError(messages.rowQueryTooLarge(req.releaseId ?? path, status), { status, apiCode: info.code });
        }
        if (!RETRIED_5XX.has(status)) {
          throw errorFromResponse(status, info, {
            path,
            attempts: attempt,
            keyWithheld: response.keyWithheld,
            ...(req.releaseId === undefined ? {} : { releaseId: req.releaseId }),
          });
        }
        failure =
          req.kind === 'rows'
            ? new RowQueryTooLargeError(messages.rowQueryTooLarge(req.releaseId ?? path, status), { status, apiCode: info.code })
            : errorFromResponse(status, info, { path, attempts: attempt });
        const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now(), response.headers.date);
        delayMs = Math.max(retryAfter === undefined ? 0 : retryAfter * 1000, this.#backoff(attempt));
        reason = `HTTP ${status}`;
      } catch (error) {
        if (isRdwErrorLike(error)) throw error;
        failure = this.mapError(error, path);
        // An abort, this machine's disk refusing a write (pacing state, a download), or a passed total deadline
        // (a server that trickled this slowly will again): no retry can help.
        if (failure instanceof AbortedError || failure instanceof EnvironmentError) throw failure;
        if (failure instanceof TimeoutError && failure.phase === 'total') throw failure;
        delayMs = this.#backoff(attempt);
        reason = failureWords(error);
      }
      if (attempt > retry.maxRetries || waitedMs + delayMs > retry.maxWaitMs) throw failure;
      // A wait a person would notice (1 s or more) is said, as for a 429: a refused port is not silence.
      if (delayMs >= 1000) {
        this.#notify({ kind: 'retry_wait', message: messages.retryWait(path, reason, delayMs, attempt, retry.maxRetries), waitMs: delayMs });
      }
      await clock.sleep(delayMs);
      waitedMs += delayMs;
    }
  }

  /** Sends and parses a JSON body (a `/rows` page, `kind: 'rows'`, or a document: its size limit). */
  async json<T>(req: TransportRequest): Promise<T> {
    const response = await this.send(req);
    const text = await this.readText(response, displayPath(req.url), req.kind === 'rows' ? 'rows' : 'document');
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UnexpectedResponseError(messages.badResponseBody(displayPath(req.url)), { status: response.statusCode });
    }
  }

  /** Reads a whole body as UTF-8 text within the size limit of its `kind`, mapping failures to typed errors. */
  async readText(response: TransportResponse, path: string, kind: ResponseKind): Promise<string> {
    return (await this.readBytes(response, path, kind)).toString('utf8');
  }

  /**
   * Reads a whole body within the size limit of its `kind` (ResponseTooLargeError past it, the connection
   * dropped), or within `within` when that is smaller (a file whose size the manifest states: its own error
   * past it). Stream failures, the total deadline included, become typed errors.
   */
  async readBytes(
    response: TransportResponse,
    path: string,
    kind: ResponseKind,
    within?: { bytes: number; tooLarge: (seen: number) => RdwError },
  ): Promise<Buffer> {
    const limit = this.#options.responseLimits[kind];
    const tooLarge =
      within !== undefined && within.bytes < limit
        ? within.tooLarge
        : () => new ResponseTooLargeError(messages.responseTooLarge(path, RESPONSE_KIND_WORDS[kind], limit), { status: response.statusCode, limit, kind });
    const declared = response.encoded ? undefined : headerBytes(response.headers['content-length']);
    try {
      return await readBoundedBody(response.body, { limit: Math.min(limit, within?.bytes ?? limit), declared, tooLarge });
    } catch (error) {
      if (isRdwErrorLike(error)) throw error;
      throw this.mapError(error, path);
    } finally {
      response.deadline.done();
    }
  }

  /** An undici/socket/decoder failure as NetworkError, TimeoutError, AbortedError or (a body that does not decode) UnexpectedResponseError. */
  mapError(error: unknown, path: string): RdwError {
    return transportFailure(error, path, this.#options.timeouts, this.redact);
  }

  /**
   * One GET without the key, not paced, not retried, a redirect not followed (rdw doctor's reachability
   * probe): any HTTP answer resolves with its status and headers, the body dropped at once (a trickling one
   * would hold the probe). A failure rejects with the undici/socket error as it is (mapError words it).
   */
  async probe(url: string): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined> }> {
    const { headersMs, bodyMs } = this.#options.timeouts;
    this.requestCount += 1;
    const response = await request(url, {
      method: 'GET',
      dispatcher: this.#dispatcher,
      headers: { 'user-agent': this.#options.userAgent, accept: '*/*' },
      headersTimeout: headersMs,
      bodyTimeout: bodyMs,
      signal: AbortSignal.timeout(headersMs + 1000),
    });
    response.body.on('error', () => {});
    response.body.destroy();
    return { statusCode: response.statusCode, headers: response.headers };
  }

  /** Closes the keep-alive pool if this client created it. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  /**
   * One attempt: the request and up to MAX_REDIRECTS redirects (301/302/303/307/308, always as GET).
   * Hops on the request's own origin are paced; once a hop leaves that origin the key is never sent again
   * in this chain (spec "Authentication": the key goes to {base_url} only). A loop, a sixth hop, a missing
   * Location or a non-http(s) target is one RedirectError.
   */
  async #follow(req: TransportRequest, path: string): Promise<TransportResponse> {
    const start = new URL(req.url);
    let url = start;
    let auth = req.auth;
    let deadline: RequestDeadline | undefined;
    const visited = new Set([url.href]);
    try {
      for (let hops = 0; ; hops += 1) {
        if (url.origin === start.origin) await req.limiter.acquire();
        // The deadline starts with the first request sent (not while pacing), and covers every hop and the body.
        deadline ??= new RequestDeadline(req.deadlineMs ?? this.#options.timeouts.totalMs, path, this.#notify, req.signal);
        this.requestCount += 1;
        const response = await request(url, {
          method: 'GET',
          dispatcher: this.#dispatcher,
          headers: this.#headers(req, auth),
          headersTimeout: this.#options.timeouts.headersMs,
          bodyTimeout: this.#options.timeouts.bodyMs,
          signal: deadline.signal,
        });
        const status = response.statusCode;
        if (!REDIRECT_STATUSES.has(status)) {
          const ending = deadline;
          response.body.once('close', () => ending.done());
          if (req.announceBody === false) deadline.quiet();
          const decoded = await decodeResponse(response, isSuccess(status, req), path);
          const keyWithheld = req.auth && !auth && this.#authorization !== undefined;
          return { ...decoded, deadline, keyWithheld };
        }
        await discardBody(response.body);
        const target = redirectTarget(response.headers.location, url, { path, status, apiKey: this.#options.apiKey });
        if (hops + 1 > MAX_REDIRECTS) throw new RedirectError(messages.redirectTooMany(path, MAX_REDIRECTS), { status, reason: 'too_many' });
        if (visited.has(target.href)) throw new RedirectError(messages.redirectLoop(path), { status, reason: 'loop' });
        visited.add(target.href);
        if (target.origin !== start.origin) {
          auth = false;
          if (!this.#crossOriginAnnounced) {
            this.#crossOriginAnnounced = true;
            this.#notify({ kind: 'redirect', message: messages.redirectCrossOrigin(path) });
          }
        }
        url = target;
      }
    } catch (error) {
      deadline?.done();
      throw error;
    }
  }

  #headers(req: TransportRequest, auth: boolean): Record<string, string> {
    const identity = req.identity === true || req.headers?.range !== undefined;
    const headers: Record<string, string> = {
      'user-agent': this.#options.userAgent,
      accept: '*/*',
      'accept-encoding': identity ? 'identity' : 'gzip, br',
      ...req.headers,
    };
    if (auth && this.#authorization !== undefined) headers.authorization = this.#authorization;
    return headers;
  }

  #backoff(attempt: number): number {
    const { baseDelayMs } = this.#options.retry;
    return baseDelayMs * 2 ** (attempt - 1) + this.#jitter();
  }

  #jitter(): number {
    const { jitterMs, random } = this.#options.retry;
    return Math.floor(random() * jitterMs);
  }
}

/** The path and query of a URL, for messages (hosts and keys never appear). */
export function displayPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A Content-Length in bytes, or undefined when absent or not a number. */
function headerBytes(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || !/^\d+$/.test(text) ? undefined : Number(text);
}

/** A 2xx, or a status the caller handles itself (`passStatuses`). */
function isSuccess(status: number, req: TransportRequest): boolean {
  return (status >= 200 && status < 300) || req.passStatuses?.includes(status) === true;
}

function isRdwErrorLike(error: unknown): error is RdwError {
  return typeof error === 'object' && error !== null && Symbol.for('rdw.error') in error;
}
