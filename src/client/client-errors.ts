// The client's typed errors: one small class per failure, each in an rdw-error family (exit code), with
// a literal `code` and the HTTP `status` when there was one. None of them ever holds the API key.

import { AuthError, IntegrityError, LimitError, NotFoundError, RdwError, UsageError } from '../contract/index.js';
import type { RdwErrorOptions } from '../contract/index.js';

/** What every client error may carry besides its message. */
export interface ClientErrorOptions extends RdwErrorOptions {
  /** HTTP status of the response that failed, when there was one. */
  status?: number;
  /** The API's own error code from the body (`invalid_parameter`, `daily_byte_limit`, ...). */
  apiCode?: string;
}

/** 401: missing, incorrect or revoked key (or, `keyWithheld`, a host rdw was redirected to and sent no key). */
export class UnauthorizedError extends AuthError {
  override readonly code = 'RDW_UNAUTHORIZED' as const;
  readonly status = 401 as const;
  readonly apiCode: string | undefined;
  /**
   * True when the 401 came from another origin a redirect led to, where rdw did not send the key (spec
   * "Authentication": the key goes to {base_url} only): it says nothing about the key itself.
   */
  readonly keyWithheld: boolean;
  constructor(message: string, options: ClientErrorOptions & { keyWithheld?: boolean } = {}) {
    super(message, options);
    this.apiCode = options.apiCode;
    this.keyWithheld = options.keyWithheld === true;
  }
}

/** 403: no active data plan, or a key over the plan's allowance after a downgrade. */
export class ForbiddenError extends AuthError {
  override readonly code = 'RDW_FORBIDDEN' as const;
  readonly status = 403 as const;
  readonly apiCode: string | undefined;
  constructor(message: string, options: ClientErrorOptions = {}) {
    super(message, options);
    this.apiCode = options.apiCode;
  }
}

/** 404 from the API: unknown release, dataset, page or file (or a release older than its bundled schema). */
export class ApiNotFoundError extends NotFoundError {
  override readonly code = 'RDW_API_NOT_FOUND' as const;
  readonly status = 404 as const;
}

/** 409: the account state conflicts with the request (key slots full). */
export class ConflictError extends RdwError {
  override readonly code = 'RDW_CONFLICT' as const;
  readonly status = 409 as const;
}

/** 413 or 503 on /rows (or an offset past the limit): the remedy is a full download. */
export class RowQueryTooLargeError extends LimitError {
  override readonly code = 'RDW_ROW_QUERY_TOO_LARGE' as const;
  readonly status: number | undefined;
  constructor(message: string, options: ClientErrorOptions = {}) {
    super(message, options);
    this.status = options.status;
  }
}

/** 422: the API rejected a parameter; `parameter` names it. */
export class ValidationError extends UsageError {
  override readonly code = 'RDW_API_VALIDATION' as const;
  readonly status = 422 as const;
  readonly parameter: string | undefined;
  constructor(message: string, options: ClientErrorOptions & { parameter?: string } = {}) {
    super(message, { cause: options.cause, ...(options.parameter === undefined ? {} : { option: options.parameter }) });
    this.parameter = options.parameter;
  }
}

/** 429 request-rate limit, after the bounded retries or the total-wait cap were used up. */
export class RateLimitedError extends LimitError {
  override readonly code = 'RDW_RATE_LIMITED' as const;
  readonly status = 429 as const;
  /** Seconds the server asked to wait (Retry-After) on the last 429. */
  readonly retryAfter: number;
  constructor(message: string, options: ClientErrorOptions & { retryAfter: number }) {
    super(message, options);
    this.retryAfter = options.retryAfter;
  }
}

/** The account's daily byte budget cannot hold a download: refused locally before sending, or a 429 `daily_byte_limit`. */
export class ByteBudgetError extends LimitError {
  override readonly code = 'RDW_BYTE_BUDGET' as const;
  /** 429 when the server refused; undefined when refused locally before sending. */
  readonly status: number | undefined;
  /** The UTC day (YYYY-MM-DD) when the budget clears. */
  readonly nextUtcDay: string;
  /** Seconds until the next UTC day. */
  readonly retryAfter: number;
  constructor(message: string, options: ClientErrorOptions & { nextUtcDay: string; retryAfter: number }) {
    super(message, options);
    this.status = options.status;
    this.nextUtcDay = options.nextUtcDay;
    this.retryAfter = options.retryAfter;
  }
}

/** Downloaded bytes whose SHA-256 differs from the expected digest; nothing was kept. */
export class ChecksumMismatchError extends IntegrityError {
  override readonly code = 'RDW_INTEGRITY_MISMATCH' as const;
  readonly status: number | undefined = undefined;
  readonly expected: string;
  readonly actual: string;
  constructor(message: string, options: RdwErrorOptions & { expected: string; actual: string }) {
    super(message, options);
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

/** Downloaded bytes whose count differs from the expected size. */
export class SizeMismatchError extends IntegrityError {
  override readonly code = 'RDW_INTEGRITY_SIZE' as const;
  readonly status: number | undefined = undefined;
  readonly expected: number;
  readonly actual: number;
  constructor(message: string, options: RdwErrorOptions & { expected: number; actual: number }) {
    super(message, options);
    this.expected = options.expected;
    this.actual = options.actual;
  }
}

/**
 * A file whose stated size no daily byte allowance could hold (larger than the largest plan's, or the
 * account's reported one when larger): the statement is wrong, not the budget; nothing was sent.
 */
export class ImpossibleSizeError extends IntegrityError {
  override readonly code = 'RDW_IMPOSSIBLE_SIZE' as const;
  readonly status: number | undefined = undefined;
}

/** A manifest that describes another release than the one requested. */
export class ManifestMismatchError extends IntegrityError {
  override readonly code = 'RDW_MANIFEST_MISMATCH' as const;
  readonly status: number | undefined = undefined;
}

/** 5xx (502/503/504 or another server error) after the bounded retries. */
export class ServiceUnavailableError extends RdwError {
  override readonly code = 'RDW_SERVICE_UNAVAILABLE' as const;
  readonly status: number;
  constructor(message: string, options: ClientErrorOptions & { status: number }) {
    super(message, options);
    this.status = options.status;
  }
}

/**
 * A response larger than rdw reads into memory for its kind (ClientOptions.responseLimits, decoded size):
 * the reading stopped at the limit and the connection was dropped.
 */
export class ResponseTooLargeError extends LimitError {
  override readonly code = 'RDW_RESPONSE_TOO_LARGE' as const;
  readonly status: number | undefined;
  /** The limit that was passed, in bytes. */
  readonly limit: number;
  /** What the response was: 'document', 'rows' or 'csv'. */
  readonly kind: 'document' | 'rows' | 'csv';
  constructor(message: string, options: ClientErrorOptions & { limit: number; kind: ResponseTooLargeError['kind'] }) {
    super(message, options);
    this.status = options.status;
    this.limit = options.limit;
    this.kind = options.kind;
  }
}

/** A status or body the client does not expect (e.g. 405, malformed JSON). */
export class UnexpectedResponseError extends RdwError {
  override readonly code = 'RDW_UNEXPECTED_RESPONSE' as const;
  readonly status: number | undefined;
  constructor(message: string, options: ClientErrorOptions = {}) {
    super(message, options);
    this.status = options.status;
  }
}

/**
 * A URL given to rdw (base or site URL) carrying a key, a key-shaped token, a user:password part, a query or a
 * fragment: refused before any request, and never echoed (exit 2).
 */
export class CredentialsInUrlError extends UsageError {
  override readonly code = 'RDW_URL_CREDENTIALS' as const;
  /** What the URL carried. */
  readonly carried: 'key' | 'userinfo' | 'query' | 'fragment';
  constructor(message: string, options: RdwErrorOptions & { option: string; carried: CredentialsInUrlError['carried'] }) {
    super(message, options);
    this.carried = options.carried;
  }
}

/** A redirect rdw will not follow: more than 5 hops, a loop, no usable Location, or a non-http(s) target. */
export class RedirectError extends RdwError {
  override readonly code = 'RDW_REDIRECT' as const;
  /** The 3xx status of the last hop. */
  readonly status: number;
  readonly reason: 'too_many' | 'loop' | 'no_location' | 'scheme' | 'credentials';
  constructor(message: string, options: RdwErrorOptions & { status: number; reason: RedirectError['reason'] }) {
    super(message, options);
    this.status = options.status;
    this.reason = options.reason;
  }
}

/** The connection failed (refused, reset, closed early). */
export class NetworkError extends RdwError {
  override readonly code = 'RDW_NETWORK' as const;
  readonly status: number | undefined = undefined;
}

/**
 * No headers within timeouts.headersMs, the body stalled longer than timeouts.bodyMs, or the whole answer
 * took longer than timeouts.totalMs (phase 'total': a trickling body; not retried).
 */
export class TimeoutError extends RdwError {
  override readonly code = 'RDW_TIMEOUT' as const;
  readonly status: number | undefined = undefined;
  readonly phase: 'headers' | 'body' | 'total';
  constructor(message: string, options: RdwErrorOptions & { phase: 'headers' | 'body' | 'total' }) {
    super(message, options);
    this.phase = options.phase;
  }
}

/** The caller aborted the request through its AbortSignal. */
export class AbortedError extends RdwError {
  override readonly code = 'RDW_ABORTED' as const;
  readonly status: number | undefined = undefined;
}
