// One attempt of a request: the GET and up to MAX_REDIRECTS redirects, paced on the request's own origin, the
// key never sent past it, the body decoded. HttpTransport.send runs it once per attempt and retries around it.

import { request, type Dispatcher } from 'undici';
import type { ResolvedClientOptions } from './client-options.js';
import { RedirectError } from './client-errors.js';
import { decodeResponse } from './decode-body.js';
import { discardBody } from './discard-body.js';
import { messages } from './messages.js';
import type { Notify } from './notice-sink.js';
import { redirectTarget } from './redirect-target.js';
import { RequestDeadline } from './request-deadline.js';
import { isSuccess, type TransportRequest } from './transport-request.js';
import type { TransportResponse } from './transport-response.js';

/** Most redirects followed for one request; one more is a RedirectError. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What an attempt needs of its transport (HttpTransport builds one): the pool, options, notices, headers. */
export interface AttemptContext {
  readonly dispatcher: Dispatcher;
  readonly options: ResolvedClientOptions;
  readonly notify: Notify;
  /** Whether the client has a key (a 401 past another origin then says nothing about it). */
  readonly hasKey: boolean;
  /** The headers of one hop; `auth`: whether the key may go with it. */
  headers(req: TransportRequest, auth: boolean): Record<string, string>;
  /** Counts one request sent (every attempt and every hop). */
  sent(): void;
  /** Called at each hop to another origin (the transport announces the first one of the client). */
  leftOrigin(path: string): void;
}

/**
 * One attempt: the request and up to MAX_REDIRECTS redirects (301/302/303/307/308, always as GET).
 * Hops on the request's own origin are paced; once a hop leaves that origin the key is never sent again
 * in this chain (spec "Authentication": the key goes to {base_url} only). A loop, a sixth hop, a missing
 * Location or a non-http(s) target is one RedirectError.
 */
export async function followRedirects(req: TransportRequest, path: string, attempt: AttemptContext): Promise<TransportResponse> {
  const start = new URL(req.url);
  let url = start;
  let auth = req.auth;
  let deadline: RequestDeadline | undefined;
  const visited = new Set([url.href]);
  try {
    for (let hops = 0; ; hops += 1) {
      // A 429's hold longer than the call may wait in all (another command's "retry in an hour") is not slept.
      if (url.origin === start.origin) await req.limiter.acquire(attempt.options.retry.maxWaitMs);
      // The deadline starts with the first request sent (not while pacing), and covers every hop and the body.
      const { headersMs, totalMs } = attempt.options.timeouts;
      deadline ??= new RequestDeadline(req.deadlineMs ?? totalMs, path, attempt.notify, req.signal, headersMs);
      deadline.sending();
      attempt.sent();
      const response = await request(url, {
        method: 'GET',
        dispatcher: attempt.dispatcher,
        headers: attempt.headers(req, auth),
        headersTimeout: attempt.options.timeouts.headersMs,
        bodyTimeout: attempt.options.timeouts.bodyMs,
        signal: deadline.signal,
      });
      deadline.answered();
      const status = response.statusCode;
      if (!REDIRECT_STATUSES.has(status)) {
        const ending = deadline;
        response.body.once('close', () => ending.done());
        if (req.announceBody === false) deadline.quiet();
        const decoded = await decodeResponse(response, isSuccess(status, req), path);
        const keyWithheld = req.auth && !auth && attempt.hasKey;
        return { ...decoded, deadline, keyWithheld };
      }
      await discardBody(response.body);
      const target = redirectTarget(response.headers.location, url, { path, status, apiKey: attempt.options.apiKey });
      if (hops + 1 > MAX_REDIRECTS) throw new RedirectError(messages.redirectTooMany(path, MAX_REDIRECTS), { status, reason: 'too_many' });
      if (visited.has(target.href)) throw new RedirectError(messages.redirectLoop(path), { status, reason: 'loop' });
      visited.add(target.href);
      if (target.origin !== start.origin) {
        auth = false;
        attempt.leftOrigin(path);
      }
      url = target;
    }
  } catch (error) {
    deadline?.done();
    throw error;
  }
}
