// Requests-per-minute windows on the rate clock: a sliding 60 s log per subject (account or IP).

import { RATE_WINDOW_SECONDS } from '../../contract/index.js';

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

/** Request times of one subject, oldest first, as a queue over a growable array. */
interface Log {
  times: number[];
  head: number;
}

/** Sliding-window request limits keyed by subject; the clock is milliseconds and injectable. */
export class RateWindow {
  readonly #logs = new Map<string, Log>();
  readonly #clock: () => number;

  /** @param clock milliseconds (real or fake time). */
  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /**
   * Counts a request of `subject` against `limit` per minute.
   * @returns 0 when admitted, else the whole seconds (>= 1) until the oldest request leaves the window.
   */
  admit(subject: string, limit: number): number {
    const now = this.#clock();
    let log = this.#logs.get(subject);
    if (!log) {
      log = { times: [], head: 0 };
      this.#logs.set(subject, log);
    }
    while (log.head < log.times.length && log.times[log.head]! <= now - WINDOW_MS) log.head += 1;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    if (log.times.length - log.head >= limit) {
      const oldest = log.times[log.times.length - limit]!;
      return Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    }
    log.times.push(now);
    return 0;
  }

  /** Forgets every window (after a limits change). */
  clear(): void {
    this.#logs.clear();
  }
}
