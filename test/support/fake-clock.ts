// A fake millisecond clock shared by the client (clock) and the mock (rateClock): sleeping advances it.

export interface FakeClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Total ms slept through this clock. */
  slept: number;
  /** Every sleep, in order. */
  sleeps: number[];
}

/** A fake clock starting at `startMs` (default 2026-11-01T00:00:00Z). */
export function fakeClock(startMs = Date.UTC(2026, 10, 1)): FakeClock {
  let time = startMs;
  const clock: FakeClock = {
    now: () => time,
    sleep: async (ms: number) => {
      const step = Math.max(0, ms);
      time += step;
      clock.slept += step;
      clock.sleeps.push(step);
      await Promise.resolve();
    },
    slept: 0,
    sleeps: [],
  };
  return clock;
}
