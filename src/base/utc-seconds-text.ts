// A time as ISO UTC to the second (no milliseconds): how rdw's sentences and tables write a moment.

/** `2026-11-27T19:46:29Z` for epoch milliseconds `ms` (milliseconds dropped, not rounded). */
export function utcSecondsText(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
