// Client-side request pacing: a sliding one-minute log of send times shared by every client of a key (or of
// a declared account), allowing at most `rateShare` of the plan's rpm in any 60 s plus a small latency margin,
// so a long pull never meets a 429. Tokens are leased from the shared log in small batches, so most requests
// touch no file at all. A wait a person would notice is reported through `onWait`.

import { RATE_WINDOW_SECONDS } from '../contract/index.js';
import type { Clock } from './clock.js';
import type { KeyState } from './key-state.js';

const WINDOW_MS = RATE_WINDOW_SECONDS * 1000;

/** Why a pacing wait happens: the window is full, or a 429's Retry-After holds every client of the key. */
export type PaceWaitReason = 'window' | 'blocked';

/** A pacing wait about to be slept (reported once per wait end, however many callers share it). */
export interface PaceWait {
  /** How long this wait lasts, in ms of the limiter's clock. */
  waitMs: number;
  reason: PaceWaitReason;
  /** Requests allowed in any 60 s window when the wait began. */
  capacity: number;
}

export interface RateLimiterOptions {
  /** The plan's requests per minute. */
  rpm: number;
  /** Share of rpm this limiter uses, in (0, 1]. Default 1 (the margin is `marginMs`, not fewer requests). */
  share?: number;
  /**
   * Added to the 60 s window, in ms, so that a request sent just as the window clears cannot reach the
   * service before it has (latency varies between requests). Default 250.
   */
  marginMs?: number;
  /** Told of every wait of `announceMs` or more before it is slept (one report per wait end). Default: none. */
  onWait?: (wait: PaceWait) => void;
  /** The shortest wait reported to `onWait`, in ms. Default 1_000. */
  announceMs?: number;
  /**
   * True while `rpm` is a guess (the account's limits not yet read): one token per round trip, no lease, so
   * nothing granted on the guess outlives `setRpm`. Default false.
   */
  provisional?: boolean;
  /** Most tokens reserved per round trip to the shared state. Default 32; 1 disables leasing. */
  maxLease?: number;
  /** How long leased tokens stay usable, in ms. Default 1_000. */
  leaseMs?: number;
}

/** A 429's hold on the key lasts longer than the caller may wait (RateLimiter.acquire's maxBlockedMs). */
export class PaceBlockedError extends Error {
  /** How long the hold still lasts, in ms. */
  readonly waitMs: number;

  constructor(waitMs: number) {
    super(`The key is held for ${Math.ceil(waitMs / 1000)} s after a 429.`);
    this.name = 'PaceBlockedError';
    this.waitMs = waitMs;
  }
}

/** What one round trip to the shared log decided: a lease (waitMs -1), or how long to wait and why. */
interface RoundOutcome {
  waitMs: number;
  reason: PaceWaitReason;
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
  readonly #windowMs: number;
  readonly #onWait: ((wait: PaceWait) => void) | undefined;
  readonly #announceMs: number;
  /** End (clock ms) of the latest wait reported: callers that share that wait are not reported again. */
  #announcedUntil = 0;
  #capacity: number;
  #provisional: boolean;
  #lease: Lease | undefined;
  /** Tokens of expired leases not yet returned to the shared log. */
  #unused: { stamp: number; count: number }[] = [];
  #refill: Promise<RoundOutcome> | undefined;

  constructor(state: KeyState, clock: Clock, options: RateLimiterOptions) {
    this.#state = state;
    this.#clock = clock;
    this.#share = options.share ?? 1;
    this.#maxLease = Math.max(1, Math.floor(options.maxLease ?? 32));
    this.#leaseMs = Math.max(0, options.leaseMs ?? 1_000);
    this.#windowMs = WINDOW_MS + Math.max(0, options.marginMs ?? 250);
    this.#onWait = options.onWait;
    this.#announceMs = options.announceMs ?? 1_000;
    this.#capacity = this.#capacityOf(options.rpm);
    this.#provisional = options.provisional ?? false;
  }

  /** Requests allowed in any window (60 s plus `marginMs`). */
  get capacity(): number {
    return this.#capacity;
  }

  /** Resize from the account's limits (fetched once per client); a smaller window drops the current lease. */
  setRpm(rpm: number): void {
    if (!Number.isFinite(rpm) || rpm <= 0) return;
    const capacity = this.#capacityOf(rpm);
    if (capacity < this.#capacity) this.#retireLease();
    this.#capacity = capacity;
    this.#provisional = false;
  }

  /**
   * Waits (on the clock) until a request fits the window, records it, and returns the ms waited.
   * @param maxBlockedMs the longest wait for a 429's hold (`blockUntil`) this call takes: a longer one (another
   *   command's 429 said "retry in an hour") throws PaceBlockedError at once, so the caller can say when to retry
   *   instead of sleeping past its own wait budget. Default: no limit.
   */
  async acquire(maxBlockedMs = Infinity): Promise<number> {
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
      let outcome: RoundOutcome;
      try {
        outcome = await round;
      } finally {
        this.#refill = undefined;
      }
      if (outcome.waitMs < 0) return waited; // the first token of the new lease is this call's
      const wait = outcome.waitMs;
      if (outcome.reason === 'blocked' && waited + wait > maxBlockedMs) throw new PaceBlockedError(wait);
      this.#announce(wait, outcome.reason);
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

  /** Reports a wait of `announceMs` or more, unless a reported wait already ends at about the same time. */
  #announce(waitMs: number, reason: PaceWaitReason): void {
    if (this.#onWait === undefined || waitMs < this.#announceMs) return;
    const until = this.#clock.now() + waitMs;
    if (until <= this.#announcedUntil + this.#announceMs) return;
    this.#announcedUntil = until;
    try {
      this.#onWait({ waitMs, reason, capacity: this.#capacity });
    } catch {
      // a report is advice: it must not fail the request
    }
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

  /** One locked round trip: waitMs -1 when a lease was granted (its first token is the caller's), else ms to wait and why. */
  #leaseRound(): Promise<RoundOutcome> {
    this.#retireLease();
    const capacity = this.#capacity;
    const want = this.#provisional ? 1 : Math.max(1, Math.min(this.#maxLease, Math.floor(capacity / 8)));
    return this.#state.update((state) => {
      this.#returnUnused(state);
      const now = this.#clock.now();
      state.requests = state.requests.filter((t) => t > now - this.#windowMs && t <= now + this.#windowMs);
      if (state.blockedUntil > now) return { waitMs: state.blockedUntil - now, reason: 'blocked' };
      const room = capacity - state.requests.length;
      if (room > 0) {
        const granted = Math.min(want, room);
        const stamp = granted === 1 ? now : now + this.#leaseMs;
        for (let i = 0; i < granted; i += 1) state.requests.push(stamp);
        state.requests.sort((a, b) => a - b);
        if (granted > 1) this.#lease = { stamp, expiresAt: stamp, left: granted - 1 };
        return { waitMs: -1, reason: 'window' };
      }
      const oldestInWay = state.requests[state.requests.length - capacity] ?? now;
      return { waitMs: Math.max(1, oldestInWay + this.#windowMs - now + 1), reason: 'window' };
    });
  }

  #capacityOf(rpm: number): number {
    return Math.max(1, Math.floor(rpm * this.#share));
  }
}
