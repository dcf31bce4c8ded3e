// The client's notion of time: injectable so tests share one fake time source with the mock's rate clock.

/** A clock in milliseconds; `sleep` waits that long on this clock. */
export interface Clock {
  /** Current time, Unix epoch milliseconds. */
  now(): number;
  /** Resolve after `ms` milliseconds of this clock. */
  sleep(ms: number): Promise<void>;
}

/** Wall-clock time and real timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** The UTC day (YYYY-MM-DD) of an epoch-milliseconds time. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The next UTC day after `ms` and the milliseconds until it starts. */
export function nextUtcDay(ms: number): { day: string; inMs: number } {
  const start = Math.floor(ms / 86_400_000) * 86_400_000 + 86_400_000;
  return { day: utcDay(start), inMs: start - ms };
}
