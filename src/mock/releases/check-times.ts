// Publication and re-check times of daily releases (spec: Freshness rule 3; DESIGN.md 3). Times: UTC Unix seconds.

import { RECHECKED_DAYS, RECHECK_INTERVAL_SECONDS } from '../../contract/index.js';

export const DAY_SECONDS = 86_400;

/** Seconds from a day's end (its first publication) to its last re-check: nine days of hourly checks. */
export const RECHECK_SPAN_SECONDS = RECHECKED_DAYS * DAY_SECONDS;

/** Start of a UTC day `YYYY-MM-DD`. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/** End of a UTC day: when its release is first published (D+1 00:00 UTC). */
export function dayEnd(day: string): number {
  return dayStart(day) + DAY_SECONDS;
}

/** The UTC day `YYYY-MM-DD` holding time `t`. */
export function dayOf(t: number): string {
  return new Date(Math.floor(t / DAY_SECONDS) * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** The latest check time (on the hour) at or before `t`. */
export function latestCheckTime(t: number): number {
  return Math.floor(t / RECHECK_INTERVAL_SECONDS) * RECHECK_INTERVAL_SECONDS;
}

/** The last check of a day: its end plus nine days; after it the day is final. */
export function lastCheckTime(day: string): number {
  return dayEnd(day) + RECHECK_SPAN_SECONDS;
}

/** The check time a day's content is taken as of at archive time `now`; undefined before it is published. */
export function asOfTime(day: string, now: number): number | undefined {
  const first = dayEnd(day);
  if (now < first) return undefined;
  return Math.min(latestCheckTime(now), lastCheckTime(day));
}

/** True while a day is still re-checked at archive time `now` (published, and its last check is later). */
export function isRechecked(day: string, now: number): boolean {
  return dayEnd(day) <= now && lastCheckTime(day) > latestCheckTime(now);
}

/**
 * The first check of `day` (on the hour, from its end) at or after `changedAt`: the first check that saw
 * content which last changed at `changedAt` (UTC Unix seconds; -Infinity or earlier -> the day's end).
 */
export function firstCheckSeeing(day: string, changedAt: number): number {
  const first = dayEnd(day);
  if (!(changedAt > first)) return first;
  return first + Math.ceil((changedAt - first) / RECHECK_INTERVAL_SECONDS) * RECHECK_INTERVAL_SECONDS;
}
