// `--watch INTERVAL` of `rdw sync`: a number and a unit (s, m, h), from one minute to one day.

import { CliUsageError } from './cli-errors.js';
import { syncMessages } from './messages.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };
/** Shortest interval (seconds): the listing is one request, but a sync is not a poll loop. */
export const MIN_WATCH_SECONDS = 60;
/** Longest interval (seconds): beyond a day, cron or a timer is the tool. */
export const MAX_WATCH_SECONDS = 86_400;

/** `text` (e.g. `15m`, `1h`, `90s`) in seconds; CliUsageError (exit 2) for anything else or out of range. */
export function parseWatchInterval(text: string): number {
  const match = /^(\d{1,6})([smh])$/.exec(text.trim());
  const seconds = match === null ? Number.NaN : Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  if (!(seconds >= MIN_WATCH_SECONDS && seconds <= MAX_WATCH_SECONDS)) throw new CliUsageError(syncMessages.badInterval(text), { option: 'watch' });
  return seconds;
}
