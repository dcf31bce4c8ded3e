// The one door to the network: undici requests with the Bearer header, pacing, timeouts, bounded retries
// (429 after Retry-After, or a bounded announced wait without one, 5xx and connection failures with
// backoff), bounded redirects (follow-redirects.ts: the key only to the base URL's origin), decoded bodies and
// typed errors. 4xx are never retried; a daily-byte 429 is never retried.

import { Agent, request, type Dispatcher } from 'undici';
import { parseJsonText, utcSecondsText } from '../base/index.js';
import { EnvironmentError, type RdwError } from '../contract/index.js';
import {
  AbortedError,
  ByteBudgetError,
  RateLimitedError,
  ResponseTooLargeError,
  RowQueryTooLargeError,
  TimeoutError,
  UnexpectedResponseError,
} from './client-errors.js';
import type { ResolvedClientOptions } from './client-options.js';
import { nextUtcDay } from './clock.js';
import { declaredBytes, readBoundedBody } from './read-bounded-body.js';
import { RESPONSE_KIND_WORDS, type ResponseKind } from './response-limits.js';
import { errorFromResponse, readErrorInfo } from './error-from-response.js';
import { messages } from './messages.js';
import type { Notify } from './notice-sink.js';
import { noRetryAfterWaitMs, parseRetryAfter } from './retry-after.js';
import { followRedirects, type AttemptContext } from './follow-redirects.js';
import { PaceBlockedError } from './rate-limiter.js';
import { redactor } from './safe-cause.js';
import { isSuccess, type TransportRequest } from './transport-request.js';
import type { TransportResponse } from './transport-response.js';
import { classifyTooManyRequests } from './too-many-requests.js';
import { failureWords, transportFailure } from './transport-failure.js';

const RETRIED_5XX = new Set([502, 503, 504]);

/** Sends requests for one client. Holds the key privately; never exposes it. */
export class HttpTransport {
  readonly #options: ResolvedClientOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #authorization: string | undefined;
  readonly #notify: Notify;
  #crossOriginAnnounced = false;
  /** What each attempt (followRedirects) uses of this transport. */
  readonly #attempt: AttemptContext;
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
    this.#attempt = {
      dispatcher: this.#dispatcher,
      options,
      notify,
      hasKey: this.#authorization !== undefined,
      headers: (req, auth) => this.#headers(req, auth),
      sent: () => {
        this.requestCount += 1;
      },
      leftOrigin: (path) => {
        if (this.#crossOriginAnnounced) return;
        this.#crossOriginAnnounced = true;
        notify({ kind: 'redirect', message: messages.redirectCrossOrigin(path) });
      },
    };
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
        const response = await followRedirects(req, path, this.#attempt);
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
            // Judged by a Retry-After that ends before the next UTC day: say the service's time, not tomorrow.
            const message =
              verdict.marksDay || retryAfter === undefined
                ? messages.byteBudgetServer(path, next.day)
                : messages.longRetryAfter(path, retryAfter, utcSecondsText(clock.now() + retryAfter * 1000));
            throw new ByteBudgetError(message, {
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
        if (error instanceof PaceBlockedError) {
          const seconds = Math.ceil(error.waitMs / 1000);
          throw new RateLimitedError(messages.rateHeld(path, seconds, utcSecondsText(clock.now() + error.waitMs)), { retryAfter: seconds });
        }
        failure = this.mapError(error, path, req.signal);
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
      return parseJsonText<T>(text);
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
    const declared = response.encoded ? undefined : declaredBytes(response.headers['content-length']);
    try {
      return await readBoundedBody(response.body, { limit: Math.min(limit, within?.bytes ?? limit), declared, tooLarge });
    } catch (error) {
      if (isRdwErrorLike(error)) throw error;
      throw this.mapError(error, path, response.deadline.callerSignal);
    } finally {
      response.deadline.done();
    }
  }

  /**
   * An undici/socket/decoder failure as NetworkError, TimeoutError, AbortedError or (a body that does not decode)
   * UnexpectedResponseError. Once the caller's `signal` is aborted the failure is its abort, whatever undici threw
   * (undici rejects with the signal's reason as given, e.g. the string 'SIGINT').
   */
  mapError(error: unknown, path: string, signal?: AbortSignal): RdwError {
    if (signal?.aborted === true) return new AbortedError(messages.aborted(path));
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


function isRdwErrorLike(error: unknown): error is RdwError {
  return typeof error === 'object' && error !== null && Symbol.for('rdw.error') in error;
}
