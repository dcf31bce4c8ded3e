// The total deadline of one request: from sending until the body's last byte, across redirect hops,
// however slowly the bytes come (undici's idle timeouts fire only on silence: 1 byte every 5 s never
// trips them). Said while it runs: a request still open after a second is announced, then every 10 s.

import { messages } from './messages.js';
import type { Notify } from './notice-sink.js';

/** `code` of the abort reason when the deadline passes (transport-failure.ts maps it to TimeoutError 'total'). */
export const DEADLINE_PASSED_CODE = 'RDW_DEADLINE_PASSED';

/** First announcement of an open request, in ms after sending (every wait of a second or more is said). */
export const FIRST_ANNOUNCEMENT_MS = 1_000;
/** Later announcements, every this many ms. */
export const ANNOUNCEMENT_INTERVAL_MS = 10_000;
/**
 * A timer that fires later than this (ms) found this process busy (an in-process mock building a document, a
 * long synchronous step), not the network slow: the answer may be waiting in the socket, so look again then.
 */
const BUSY_LOOP_MS = 200;

/** One request's deadline: a signal to give undici, announcements while it runs, `done()` when the body is read. */
export class RequestDeadline {
  /** Aborts (reason code DEADLINE_PASSED_CODE) when the deadline passes, or when `outer` aborts. */
  readonly signal: AbortSignal;
  /** The deadline, in ms after sending. */
  readonly ms: number;
  /** The caller's own signal (`outer`), if any: its abort is the caller's, not a passed deadline. */
  readonly callerSignal: AbortSignal | undefined;
  readonly #controller = new AbortController();
  readonly #started = performance.now();
  readonly #path: string;
  readonly #notify: Notify;
  /** undici's headersTimeout of each hop (ms), when given: before an answer begins, a try ends there first. */
  readonly #headersMs: number | undefined;
  /** Elapsed ms when the hop now waiting for its headers was sent; undefined once an answer has begun. */
  #hopSentAt: number | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #announceTimer: NodeJS.Timeout | undefined;
  #expired = false;

  /**
   * Starts the deadline of a request for `path` (real time, as undici's own timeouts): `ms` until the whole
   * body must be in; `outer` is the caller's signal, if any; `notify` receives the announcements; `headersMs`, the
   * time each hop has to begin its answer (announced as the try's end while it is the nearer bound).
   */
  constructor(ms: number, path: string, notify: Notify, outer?: AbortSignal, headersMs?: number) {
    this.ms = ms;
    this.#headersMs = headersMs;
    this.callerSignal = outer;
    this.#path = path;
    this.#notify = notify;
    this.signal = outer === undefined ? this.#controller.signal : AbortSignal.any([outer, this.#controller.signal]);
    this.#deadlineTimer = setTimeout(() => this.#expire(), ms).unref();
    this.#arm(Math.min(FIRST_ANNOUNCEMENT_MS, ms));
  }

  /** A hop is sent: until `answered()`, its headers timeout may end the try before the deadline. */
  sending(): void {
    this.#hopSentAt = performance.now() - this.#started;
  }

  /** The hop's answer has begun (headers in): only the deadline bounds the rest. */
  answered(): void {
    this.#hopSentAt = undefined;
  }

  /** True once the deadline has passed (the request was aborted for it). */
  get expired(): boolean {
    return this.#expired;
  }

  /** Stops the announcements but keeps the deadline (a download whose progress is shown otherwise). */
  quiet(): void {
    clearTimeout(this.#announceTimer);
    this.#announceTimer = undefined;
  }

  /** The request is over (body read, dropped or failed): no more announcements, no abort. Idempotent. */
  done(): void {
    this.quiet();
    clearTimeout(this.#deadlineTimer);
    this.#deadlineTimer = undefined;
  }

  #expire(): void {
    this.#expired = true;
    this.done();
    const reason = Object.assign(new Error(`the request passed its ${this.ms} ms deadline`), { code: DEADLINE_PASSED_CODE, deadlineMs: this.ms });
    this.#controller.abort(reason);
  }

  #arm(inMs: number): void {
    const due = performance.now() + inMs;
    this.#announceTimer = setTimeout(() => this.#announce(due), inMs).unref();
  }

  #announce(due: number): void {
    const now = performance.now();
    if (now - due > BUSY_LOOP_MS) return this.#arm(BUSY_LOOP_MS);
    const elapsedMs = now - this.#started;
    const leftMs = Math.max(0, this.ms - elapsedMs);
    // No answer begun yet: this try ends at its headers timeout when that comes first (then the transport retries
    // or fails), so "gives up at 120 s" would not be true of it.
    const tryEndsMs = this.#hopSentAt === undefined || this.#headersMs === undefined ? undefined : this.#hopSentAt + this.#headersMs;
    const message =
      tryEndsMs !== undefined && tryEndsMs < this.ms
        ? messages.responseWaitTry(this.#path, elapsedMs, tryEndsMs)
        : messages.responseWait(this.#path, elapsedMs, this.ms);
    const untilMs = tryEndsMs !== undefined && tryEndsMs < this.ms ? tryEndsMs - elapsedMs : leftMs;
    this.#notify({ kind: 'response_wait', message, waitMs: Math.max(0, Math.round(untilMs)) });
    if (leftMs > ANNOUNCEMENT_INTERVAL_MS) this.#arm(ANNOUNCEMENT_INTERVAL_MS);
  }
}
