// Test helper: a small real MarketSimulator, and a wrapper that records which days the archive asks for.

import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import type { ReleaseSimulator } from '../../../src/mock/releases/index.js';
import type { DayContent } from '../../../src/mock/simulator/index.js';

/** seed 1, the default clock, a few days: fast enough for every test. */
export function smallSimulator(options: { days?: number; schemaSince?: string; seed?: number } = {}): MarketSimulator {
  return new MarketSimulator({ seed: options.seed ?? 1, days: options.days ?? 3, ...(options.schemaSince ? { schemaSince: options.schemaSince } : {}) });
}

/** The simulator with every `dayContent` call recorded as `day@asOf`. */
export function recordingSimulator(simulator: MarketSimulator): ReleaseSimulator & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    options: simulator.options,
    days: () => simulator.days(),
    dayContent(day: string, asOf: number): DayContent {
      calls.push(`${day}@${asOf}`);
      return simulator.dayContent(day, asOf);
    },
  };
}
