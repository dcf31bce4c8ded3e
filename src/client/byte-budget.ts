// The account's daily download byte budget as seen by this key: bytes fetched per UTC day, kept in the
// key's shared state, checked before a download is sent (spec: "Limits", daily byte budgets use UTC days).

import { nextUtcDay, utcDay, type Clock } from './clock.js';
import type { KeyState } from './key-state.js';

/** The byte count that marks a UTC day as used up (after the service's daily 429). */
const EXHAUSTED = Number.MAX_SAFE_INTEGER;

/** Tracks and checks the bytes downloaded today. */
export class ByteBudget {
  readonly #state: KeyState;
  readonly #clock: Clock;

  constructor(state: KeyState, clock: Clock) {
    this.#state = state;
    this.#clock = clock;
  }

  /**
   * Bytes still allowed today given the plan's `dailyBytes`. Other processes' downloads are seen through
   * the shared file as read at most `maxAgeMs` (real time, default 1_000) ago; this process's at once.
   * With `dailyBytes` unknown (undefined): Infinity (no local pre-check), or 0 once the service's daily
   * 429 marked today as used up (exhaust()).
   */
  async remaining(dailyBytes: number | undefined, maxAgeMs = 1_000): Promise<number> {
    const today = utcDay(this.#clock.now());
    const used = await this.#state.usedBytes(today, maxAgeMs);
    if (dailyBytes === undefined) return used >= EXHAUSTED ? 0 : Number.POSITIVE_INFINITY;
    return Math.max(0, dailyBytes - used);
  }

  /** Adds downloaded bytes to today's count (in memory now; in the shared file with the next round trip). */
  async record(bytes: number): Promise<void> {
    if (bytes <= 0) return;
    this.#state.addBytes(utcDay(this.#clock.now()), bytes);
  }

  /** Marks today's budget as used up (after the server's `daily_byte_limit` 429). */
  async exhaust(): Promise<void> {
    const today = utcDay(this.#clock.now());
    await this.#state.update((state) => {
      // (unwritten bytes were applied first; the day is now used up whatever they were)
      state.budget = { day: today, bytes: EXHAUSTED };
    });
  }

  /** Writes this process's unwritten byte counts to the shared file. */
  flush(): Promise<void> {
    return this.#state.flush();
  }

  /** The next UTC day and the seconds until it. */
  next(): { day: string; seconds: number } {
    const { day, inMs } = nextUtcDay(this.#clock.now());
    return { day, seconds: Math.ceil(inMs / 1000) };
  }
}
