// The one door to the network: undici requests with the Bearer header, pacing, timeouts, bounded retries
// (429 after Retry-After + jitter with a total-wait cap, 5xx and connection failures with backoff) and
// typed errors. 4xx are never retried; a byte-budget 429 is never retried.

import { Agent, request, type Dispatcher } from 'undici';
import type { RdwError } from '../spec/index.js';
import {
  AbortedError,
  ByteBudgetError,
  NetworkError,
  RateLimitedError,
  RowQueryTooLargeError,
  TimeoutError,
  UnexpectedResponseError,
} from './client-errors.js';
import type { ResolvedClientOptions } from './client-options.js';
import { nextUtcDay } from './clock.js';
import { discardBody } from './discard-body.js';
import { apiErrorInfo, errorFromResponse, type ApiErrorInfo } from './error-from-response.js';
import { messages } from './messages.js';
import type { RateLimiter } from './rate-limiter.js';
import { parseRetryAfter } from './retry-after.js';
import { redactor, safeCause } from './safe-cause.js';

/** One GET to send. */
export interface TransportRequest {
  /** Absolute URL (never carries the key). */
  url: string;
  /** Whether to send `Authorization: Bearer <key>` (false for the public live scope). */
  auth: boolean;
  /** Limiter that paces this request (the key's, or the public per-IP one). */
  limiter: RateLimiter;
  /** Extra headers (e.g. Range). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** `rows` turns 413/503 into RowQueryTooLargeError. */
  kind?: 'rows' | 'default';
  releaseId?: string;
  /** Called when the server answers 429 `daily_byte_limit`. */
  onByteLimit?: () => Promise<void>;
  /** Extra status codes the caller handles itself (e.g. 416 for a stale Range). */
  passStatuses?: readonly number[];
}

export type TransportResponse = Dispatcher.ResponseData;

const RETRIED_5XX = new Set([502, 503, 504]);
const ERROR_BODY_LIMIT = 64 * 1024;

/** Sends requests for one client. Holds the key privately; never exposes it. */
export class HttpTransport {
  readonly #options: ResolvedClientOptions;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #authorization: string | undefined;
  readonly redact: (text: string) => string;
  /** Requests sent by this client (every attempt), for metrics. */
  requestCount = 0;

  constructor(options: ResolvedClientOptions) {
    this.#options = options;
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
    for (;;) {
      attempt += 1;
      await req.limiter.acquire();
      let failure: RdwError;
      let delayMs: number;
      try {
        this.requestCount += 1;
        const response = await request(req.url, {
          method: 'GET',
          dispatcher: this.#dispatcher,
          headers: this.#headers(req),
          headersTimeout: this.#options.timeouts.headersMs,
          bodyTimeout: this.#options.timeouts.bodyMs,
          ...(req.signal === undefined ? {} : { signal: req.signal }),
        });
        const status = response.statusCode;
        if ((status >= 200 && status < 300) || req.passStatuses?.includes(status)) return response;
        const info = await this.#readErrorInfo(response);
        if (status === 429) {
          const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now()) ?? 60;
          if (info.code === 'daily_byte_limit') {
            await req.onByteLimit?.();
            const next = nextUtcDay(clock.now());
            throw new ByteBudgetError(messages.byteBudgetServer(path, next.day), {
              status,
              apiCode: info.code,
              nextUtcDay: next.day,
              retryAfter,
            });
          }
          const wait = retryAfter * 1000 + this.#jitter();
          await req.limiter.blockUntil(clock.now() + retryAfter * 1000);
          if (attempt > retry.maxRetries || waitedMs + wait > retry.maxWaitMs) {
            throw new RateLimitedError(messages.rateLimited(path, retryAfter, waitedMs), { apiCode: info.code, retryAfter });
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
          throw errorFromResponse(status, info, { path, attempts: attempt, ...(req.releaseId === undefined ? {} : { releaseId: req.releaseId }) });
        }
        failure =
          req.kind === 'rows'
            ? new RowQueryTooLargeError(messages.rowQueryTooLarge(req.releaseId ?? path, status), { status, apiCode: info.code })
            : errorFromResponse(status, info, { path, attempts: attempt });
        const retryAfter = parseRetryAfter(response.headers['retry-after'], clock.now());
        delayMs = Math.max(retryAfter === undefined ? 0 : retryAfter * 1000, this.#backoff(attempt));
      } catch (error) {
        if (isRdwErrorLike(error)) throw error;
        failure = this.mapError(error, path);
        if (failure instanceof AbortedError) throw failure;
        delayMs = this.#backoff(attempt);
      }
      if (attempt > retry.maxRetries || waitedMs + delayMs > retry.maxWaitMs) throw failure;
      await clock.sleep(delayMs);
      waitedMs += delayMs;
    }
  }

  /** Sends and parses a JSON body. */
  async json<T>(req: TransportRequest): Promise<T> {
    const response = await this.send(req);
    const text = await this.readText(response, displayPath(req.url));
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UnexpectedResponseError(messages.badResponseBody(displayPath(req.url)), { status: response.statusCode });
    }
  }

  /** Reads a whole body as text, mapping stream failures to typed errors. */
  async readText(response: TransportResponse, path: string): Promise<string> {
    try {
      return await response.body.text();
    } catch (error) {
      throw this.mapError(error, path);
    }
  }

  /** Reads a whole body as bytes, mapping stream failures to typed errors. */
  async readBytes(response: TransportResponse, path: string): Promise<Uint8Array> {
    try {
      return new Uint8Array(await response.body.arrayBuffer());
    } catch (error) {
      throw this.mapError(error, path);
    }
  }

  /** An undici/socket failure as NetworkError, TimeoutError or AbortedError, with a detached, redacted cause. */
  mapError(error: unknown, path: string): RdwError {
    const code = (error as { code?: unknown } | null)?.code;
    const name = (error as { name?: unknown } | null)?.name;
    const cause = safeCause(error, this.redact);
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new TimeoutError(messages.headersTimeout(path, this.#options.timeouts.headersMs), { phase: 'headers', cause });
    }
    if (code === 'UND_ERR_BODY_TIMEOUT') {
      return new TimeoutError(messages.bodyTimeout(path, this.#options.timeouts.bodyMs), { phase: 'body', cause });
    }
    if (code === 'UND_ERR_ABORTED' || name === 'AbortError') return new AbortedError(messages.aborted(path), { cause });
    const detail = typeof code === 'string' ? code : typeof name === 'string' ? name : 'connection error';
    return new NetworkError(messages.network(path, detail), { cause });
  }

  /** Closes the keep-alive pool if this client created it. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  #headers(req: TransportRequest): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.#options.userAgent, accept: '*/*', ...req.headers };
    if (req.auth && this.#authorization !== undefined) headers.authorization = this.#authorization;
    return headers;
  }

  async #readErrorInfo(response: TransportResponse): Promise<ApiErrorInfo> {
    let text = '';
    try {
      for await (const chunk of response.body) {
        text += Buffer.from(chunk as Uint8Array).toString('utf8');
        if (text.length > ERROR_BODY_LIMIT) break;
      }
    } catch {
      // an unreadable error body still has its status
    }
    await discardBody(response.body);
    const info = apiErrorInfo(text);
    return { ...info, message: info.message === undefined ? undefined : this.redact(info.message) };
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
