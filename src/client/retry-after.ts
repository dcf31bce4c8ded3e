// Parses a Retry-After header (delta seconds or an HTTP date) into seconds, and the bounded wait rdw
// chooses when a 429 carries none (spec "Errors": wait at least Retry-After; never retry in a tight loop).

/** First wait after a 429 without Retry-After, in ms; doubles per 429 of the same call. */
export const NO_RETRY_AFTER_FIRST_WAIT_MS = 5_000;
/** Longest single wait after a 429 without Retry-After, in ms: one request-rate window (spec "Limits": requests per minute). */
export const NO_RETRY_AFTER_MAX_WAIT_MS = 60_000;

/**
 * Seconds to wait from a Retry-After value, or undefined when absent or unreadable. An HTTP-date is
 * measured against the response's own `Date` header when it has a readable one (`dateHeader`; both are
 * the server's clock, so a server 10 minutes ahead sending its Date + 3 s means 3 s), else against `nowMs`.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number, dateHeader?: string | string[]): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  const sent = Date.parse((Array.isArray(dateHeader) ? dateHeader[0] : dateHeader) ?? '');
  return Math.max(0, Math.ceil((date - (Number.isNaN(sent) ? nowMs : sent)) / 1000));
}

/**
 * The wait (ms, before jitter) after the `count`-th 429 of one call that gave no Retry-After:
 * 5 s, 10 s, 20 s, 40 s, then 60 s each (with the default 4 retries: 75 s in all, inside retry.maxWaitMs 120 s).
 */
export function noRetryAfterWaitMs(count: number): number {
  return Math.min(NO_RETRY_AFTER_MAX_WAIT_MS, NO_RETRY_AFTER_FIRST_WAIT_MS * 2 ** Math.max(0, count - 1));
}
