// Client-side request pacing: a sliding one-minute log of send times shared by every client of a key,
// allowing at most `rateShare` of the plan's rpm in any 60 s, so a long pull never meets a 429.
// Tokens are leased from the shared log in small batches, so most requests touch no file at all.

import { RATE_WINDOW_SECONDS } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { KeyState } from './key-state.js';

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

export interface RateLimiterOptions {
  /** The plan's requests per minute. */
  rpm: number;
  /** Share of rpm this limiter uses, in (0, 1]. Default 0.9. */
  share?: number;
  /** Most tokens reserved per round trip to the shared state. Default 32; 1 disables leasing. */
  maxLease?: number;
  /** How long leased tokens stay usable, in ms. Default 1_000. */
  leaseMs?: number;
}

/** Tokens reserved in the shared log, usable by this limiter until `expiresAt`. */
interface Lease {
  /** The send time recorded for every leased token: the lease's end, so each counts for a full window after any use. */
  stamp: number;
  expiresAt: number;
  left: number;
}

/**
 * Paces requests of one key. `acquire()` resolves when a request may be sent and records it.
 * Leasing: one locked round trip reserves up to `min(maxLease, capacity / 8)` tokens, recorded in the
 * shared log at the lease's end time (conservative: every leased token counts as sent at the latest
 * moment it may be used). Unused tokens go back on the next round trip or on `release()`.
 */
export class RateLimiter {
  readonly #state: KeyState;
  readonly #clock: Clock;
  readonly #share: number;
  readonly #maxLease: number;
  readonly #leaseMs: number;
  #capacity: number;
  #lease: Lease | undefined;
  /** Tokens of expired leases not yet returned to the shared log. */
  #unused: { stamp: number; count: number }[] = [];
  #refill: Promise<number> | undefined;

  constructor(state: KeyState, clock: Clock, options: RateLimiterOptions) {
    this.#state = state;
    this.#clock = clock;
    this.#share = options.share ?? 0.9;
    this.#maxLease = Math.max(1, Math.floor(options.maxLease ?? 32));
    this.#leaseMs = Math.max(0, options.leaseMs ?? 1_000);
    this.#capacity = this.#capacityOf(options.rpm);
  }

  /** Requests allowed in any 60 s window. */
  get capacity(): number {
    return this.#capacity;
  }

  /** Resize from the account's limits (fetched once per client). */
  setRpm(rpm: number): void {
    if (Number.isFinite(rpm) && rpm > 0) this.#capacity = this.#capacityOf(rpm);
  }

  /** Waits (on the clock) until a request fits the window, records it, and returns the ms waited. */
  async acquire(): Promise<number> {
    let waited = 0;
    for (;;) {
      if (this.#takeLeased()) return waited;
      if (this.#refill !== undefined) {
        // Another acquire of this limiter is already in a round trip: share its lease.
        await this.#refill.catch(() => undefined);
        continue;
      }
      const round = this.#leaseRound();
      this.#refill = round;
      let wait: number;
      try {
        wait = await round;
      } finally {
        this.#refill = undefined;
      }
      if (wait < 0) return waited; // the first token of the new lease is this call's
      await this.#clock.sleep(wait);
      waited += wait;
    }
  }

  /** Holds every client of the key until `untilMs` (after a 429's Retry-After). Drops this limiter's lease. */
  async blockUntil(untilMs: number): Promise<void> {
    this.#retireLease();
    await this.#state.update((state) => {
      this.#returnUnused(state);
      state.blockedUntil = Math.max(state.blockedUntil, untilMs);
    });
  }

  /** Returns unused leased tokens to the shared log (call when done, e.g. on client close). */
  async release(): Promise<void> {
    this.#retireLease();
    if (this.#unused.length === 0) return;
    await this.#state.update((state) => this.#returnUnused(state));
  }

  #takeLeased(): boolean {
    const lease = this.#lease;
    if (lease === undefined || lease.left <= 0) return false;
    if (this.#clock.now() > lease.expiresAt) {
      this.#retireLease();
      return false;
    }
    lease.left -= 1;
    return true;
  }

  #retireLease(): void {
    const lease = this.#lease;
    this.#lease = undefined;
    if (lease !== undefined && lease.left > 0) this.#unused.push({ stamp: lease.stamp, count: lease.left });
  }

  /** Removes tokens of expired leases from the log (entries with equal stamps are interchangeable). */
  #returnUnused(state: { requests: number[] }): void {
    for (const { stamp, count } of this.#unused.splice(0)) {
      let left = count;
      for (let i = state.requests.length - 1; i >= 0 && left > 0; i -= 1) {
        if (state.requests[i] === stamp) {
          state.requests.splice(i, 1);
          left -= 1;
        }
      }
    }
  }

  /** One locked round trip: -1 when a lease was granted (its first token is the caller's), else ms to wait. */
  #leaseRound(): Promise<number> {
    this.#retireLease();
    const capacity = this.#capacity;
    const want = Math.max(1, Math.min(this.#maxLease, Math.floor(capacity / 8)));
    return this.#state.update((state) => {
      this.#returnUnused(state);
      const now = this.#clock.now();
      state.requests = state.requests.filter((t) => t > now - WINDOW_MS && t <= now + WINDOW_MS);
      if (state.blockedUntil > now) return state.blockedUntil - now;
      const room = capacity - state.requests.length;
      if (room > 0) {
        const granted = Math.min(want, room);
        const stamp = granted === 1 ? now : now + this.#leaseMs;
        for (let i = 0; i < granted; i += 1) state.requests.push(stamp);
        state.requests.sort((a, b) => a - b);
        if (granted > 1) this.#lease = { stamp, expiresAt: stamp, left: granted - 1 };
        return -1;
      }
      const oldestInWay = state.requests[state.requests.length - capacity] ?? now;
      return Math.max(1, oldestInWay + WINDOW_MS - now + 1);
    });
  }

  #capacityOf(rpm: number): number {
    return Math.max(1, Math.floor(rpm * this.#share));
  }
}
