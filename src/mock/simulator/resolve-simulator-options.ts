// Options of the market simulator: one normalizer turns user input into a validated, defaulted configuration.

import { messages } from './messages.js';
import { SimulatorOptionError } from './simulator-errors.js';
import { DAY_SECONDS, dayNumberOf, formatDay, parseDay } from './utc-day.js';

/** Input options of `MarketSimulator`. */
export interface SimulatorOptions {
  /** Randomness seed, a non-negative safe integer. Default 1. */
  seed?: number;
  /**
   * The simulator clock: an ISO 8601 time (a date-time without offset is read as UTC) or UTC Unix seconds.
   * Default '2026-11-01T00:00:00Z'.
   */
  now?: string | number;
  /** Number of covered UTC days, the days before `now`'s day; an integer >= 1. Default 120. */
  days?: number;
  /** 'YYYY-MM-DD': days before it have no bundled schema. Default: 60 days before `now`'s day. */
  schemaSince?: string;
}

/** Validated options with defaults applied. */
export interface ResolvedSimulatorOptions {
  seed: number;
  /** UTC Unix seconds. */
  now: number;
  days: number;
  schemaSince: string;
  /** Oldest covered day, 'YYYY-MM-DD'. */
  firstDay: string;
  /** Newest covered day (the day before `now`'s day), 'YYYY-MM-DD'. */
  lastDay: string;
}

/** Default clock: a fixed time, so generated data are the same on every machine. */
export const DEFAULT_SIMULATOR_NOW = '2026-11-01T00:00:00Z';
const MAX_DAYS = 100_000;
const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

function resolveNow(now: unknown): number {
  if (typeof now === 'number') {
    if (Number.isFinite(now) && now >= 0) return now;
  } else if (typeof now === 'string' && ISO_PATTERN.test(now)) {
    // A date-time without an offset would be local time in JavaScript: read it as UTC instead.
    const text = now.length > 10 && !/(Z|[+-]\d{2}:\d{2})$/.test(now) ? `${now}Z` : now;
    const ms = Date.parse(text);
    if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  }
  throw new SimulatorOptionError(messages.option('now', now, 'an ISO 8601 time or UTC Unix seconds >= 0'), 'now');
}

/** Validates simulator options and applies defaults; throws `SimulatorOptionError` naming the bad option. */
export function resolveSimulatorOptions(input: SimulatorOptions = {}): ResolvedSimulatorOptions {
  const seed = input.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new SimulatorOptionError(messages.option('seed', seed, 'a non-negative safe integer'), 'seed');
  }
  const now = resolveNow(input.now ?? DEFAULT_SIMULATOR_NOW);
  const days = input.days ?? 120;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    throw new SimulatorOptionError(messages.option('days', days, `an integer from 1 to ${MAX_DAYS}`), 'days');
  }
  const nowDay = dayNumberOf(now);
  const schemaSince = input.schemaSince ?? formatDay(nowDay - 60);
  if (parseDay(schemaSince) === undefined) {
    throw new SimulatorOptionError(messages.option('schemaSince', schemaSince, "a calendar date 'YYYY-MM-DD'"), 'schemaSince');
  }
  if ((nowDay - days) * DAY_SECONDS < 0) {
    throw new SimulatorOptionError(messages.option('days', days, 'a range starting at or after 1970-01-01'), 'days');
  }
  return { seed, now, days, schemaSince, firstDay: formatDay(nowDay - days), lastDay: formatDay(nowDay - 1) };
}
