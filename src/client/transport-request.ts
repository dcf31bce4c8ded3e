// One GET as the client's scopes hand it to the transport (http-transport.ts): URL, pacing, key, extra headers.

import type { RateLimiter } from './rate-limiter.js';

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

/** A 2xx, or a status the caller handles itself (`passStatuses`). */
export function isSuccess(status: number, req: TransportRequest): boolean {
  return (status >= 200 && status < 300) || req.passStatuses?.includes(status) === true;
}
