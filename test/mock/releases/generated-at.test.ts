// generated_at from the simulator's changedAt, checked against the archive's former search over dayRows.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dayEnd, firstCheckSeeing, lastCheckTime } from '../../../src/mock/releases/index.js';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { RECHECK_INTERVAL_SECONDS, WINDOWS, WINDOW_SECONDS } from '../../../src/contract/index.js';

const HOUR = RECHECK_INTERVAL_SECONDS;
const WINDOW_END_CHECKS = WINDOWS.map((window) => Math.ceil(WINDOW_SECONDS[window] / HOUR)).sort((a, b) => b - a);

/**
 * The reference: the archive's former search (before changedAt) for the first check that saw the content
 * of `day` as of the check `asOf`, comparing sha256(JSON(dayRows)) at probed checks: the hour before,
 * the window-end checks, a gallop, then bisection. It assumes, as the new rule does, that the checks
 * holding one content are contiguous.
 */
function searchFirstCheck(simulator: MarketSimulator, day: string, asOf: number): number {
  const fingerprint = (check: number) => createHash('sha256').update(JSON.stringify(simulator.dayRows(day, check))).digest('hex');
  const first = dayEnd(day);
  const target = fingerprint(asOf);
  let high = (asOf - first) / HOUR;
  let low = -1;
  const probe = (index: number): boolean => {
    if (fingerprint(first + index * HOUR) !== target) {
      low = index;
      return false;
    }
    high = index;
    return true;
  };
  let direction: 'forward' | 'backward' = 'forward';
  if (high > 0 && asOf < lastCheckTime(day)) probe(high - 1);
  if (high - low > 1 && low === -1) {
    for (const hint of WINDOW_END_CHECKS) {
      if (hint >= high) continue;
      if (probe(hint)) direction = 'backward';
      break;
    }
  }
  for (let step = 1; high - low > 1; step *= 2) {
    const same = probe(direction === 'forward' ? Math.min(high - 1, low + step) : Math.max(low + 1, high - step));
    if (same === (direction === 'forward')) break;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fingerprint(first + middle * HOUR) === target) high = middle;
    else low = middle;
  }
  return first + high * HOUR;
}

describe('generated_at = first check at or after the content change', () => {
  // (seed, check index after the day's end): the first check, checks in the hours windows resolve,
  // a day and several days in, and the final check (216 = nine days).
  const cases: [number, number][] = [
    [1, 0], [1, 1], [1, 2], [1, 5], [1, 25], [1, 30], [1, 71], [1, 170], [1, 169], [1, 216],
    [2, 3], [2, 24], [2, 100], [2, 216],
    [5, 4], [5, 49], [5, 215],
  ];
  const simulators = new Map<number, MarketSimulator>();
  it.each(cases)('seed %i, check %i after the day end: same as the search', (seed, index) => {
    let simulator = simulators.get(seed);
    if (!simulator) simulators.set(seed, (simulator = new MarketSimulator({ seed, days: 2 })));
    const day = simulator.days()[seed % 2] as string;
    const asOf = dayEnd(day) + index * HOUR;
    const expected = searchFirstCheck(simulator, day, asOf);
    expect(firstCheckSeeing(day, simulator.dayContent(day, asOf).changedAt)).toBe(expected);
  });

  it('rounds a change up to the next check, and anything up to the day end to the day end', () => {
    const day = '2026-10-30';
    const end = dayEnd(day);
    expect(firstCheckSeeing(day, -Infinity)).toBe(end);
    expect(firstCheckSeeing(day, end - 5)).toBe(end);
    expect(firstCheckSeeing(day, end)).toBe(end);
    expect(firstCheckSeeing(day, end + 0.001)).toBe(end + HOUR);
    expect(firstCheckSeeing(day, end + 3 * HOUR)).toBe(end + 3 * HOUR);
    expect(firstCheckSeeing(day, end + 3 * HOUR + 1)).toBe(end + 4 * HOUR);
  });
});
