// Tells a daily-byte 429 from a request-rate 429 whatever the error body looks like (spec "Errors": body
// shape "not shown"; a daily byte limit "does not clear within a minute and clears at the next UTC day").

import { parseJsonText } from '../base/index.js';
import { RATE_WINDOW_SECONDS } from '../contract/index.js';
import { nextUtcDay } from './clock.js';

/**
 * A Retry-After longer than this (seconds) cannot be a request-rate limit: a per-minute window clears
 * within 60 s, so twice that is the most a rate limit needs. Longer ⇒ the daily byte limit.
 */
export const DAILY_LIMIT_MIN_RETRY_AFTER_SECONDS = 2 * RATE_WINDOW_SECONDS;

/** What a 429 means. */
export interface TooManyRequests {
  kind: 'daily_bytes' | 'rate';
  /**
   * For 'daily_bytes': whether today's local budget is marked used up (true when the body says so, or
   * when Retry-After reaches the next UTC midnight; a long Retry-After alone only stops this call).
   */
  marksDay: boolean;
}

const DAILY_CODE = /byte|daily|bandwidth/i;
const RATE_CODE = /rate|rpm|minute/i;

/**
 * Classifies a 429 by its error code (any of the usual body shapes, see errorCodeOf) and its Retry-After
 * (seconds, undefined when absent): a daily-byte code, or a Retry-After over 120 s without a rate code,
 * is the daily byte limit; anything else is the request-rate limit.
 */
export function classifyTooManyRequests(code: string | undefined, retryAfter: number | undefined, nowMs: number): TooManyRequests {
  if (code !== undefined && DAILY_CODE.test(code)) return { kind: 'daily_bytes', marksDay: true };
  if (code !== undefined && RATE_CODE.test(code)) return { kind: 'rate', marksDay: false };
  if (retryAfter !== undefined && retryAfter > DAILY_LIMIT_MIN_RETRY_AFTER_SECONDS) {
    const untilMs = nowMs + retryAfter * 1000;
    return { kind: 'daily_bytes', marksDay: untilMs >= nowMs + nextUtcDay(nowMs).inMs - RATE_WINDOW_SECONDS * 1000 };
  }
  return { kind: 'rate', marksDay: false };
}

/**
 * The error code of an error body in any common shape: `{"error":{"code"}}` (the mock's), `{"code"}`,
 * `{"error":"…"}`, `{"error":{"type"}}`, `{"type"}`, `{"reason"}`; undefined for anything else.
 */
export function errorCodeOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = parseJsonText(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const error = record.error;
  const nested = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  for (const value of [nested.code, nested.type, typeof error === 'string' ? error : undefined, record.code, record.type, record.reason]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
