// UTC day arithmetic: 'YYYY-MM-DD' <-> day numbers (days since 1970-01-01) and their start times.

import { DAY_PATTERN } from '../../base/index.js';

/** Seconds in a UTC day. */
export const DAY_SECONDS = 86_400;

/** Day number (days since 1970-01-01) of a strict 'YYYY-MM-DD' calendar date; undefined when malformed. */
export function parseDay(day: unknown): number | undefined {
  if (typeof day !== 'string') return undefined;
  const match = DAY_PATTERN.exec(day);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (!Number.isFinite(ms)) return undefined;
  const number = ms / 1000 / DAY_SECONDS;
  return formatDay(number) === day ? number : undefined;
}

/** 'YYYY-MM-DD' of a day number. */
export function formatDay(dayNumber: number): string {
  return new Date(dayNumber * DAY_SECONDS * 1000).toISOString().slice(0, 10);
}

/** Day number holding a UTC Unix time (seconds). */
export function dayNumberOf(time: number): number {
  return Math.floor(time / DAY_SECONDS);
}
