// dayContent: the rows of dayRows plus changedAt, the latest time <= asOf at which they changed.

import { describe, expect, it } from 'vitest';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';

const HOUR = 3600;
const DAY = 86_400;
const simulator = new MarketSimulator({ seed: 1, days: 4 });
const [, day] = simulator.days() as [string, string];
const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
const dayEnd = dayStart + DAY;

/** As-of times inside the day, on checks, seconds after window ends, and long after (final). */
const AS_OF = [
  dayStart + 13 * HOUR + 7,
  dayEnd,
  dayEnd + 20,
  dayEnd + HOUR,
  dayEnd + 4 * HOUR + 45,
  dayEnd + 7 * HOUR,
  dayEnd + DAY + 30,
  dayEnd + 3 * DAY + 5 * HOUR,
  dayEnd + 7 * DAY + HOUR,
  dayEnd + 8 * DAY,
  dayEnd + 9 * DAY,
];

describe('MarketSimulator.dayContent', () => {
  it('returns the rows of dayRows', () => {
    const content = simulator.dayContent(day, dayEnd + 5 * HOUR);
    expect(content.rows).toEqual(simulator.dayRows(day, dayEnd + 5 * HOUR));
    expect(content.rows.length).toBeGreaterThan(300);
  });

  it.each(AS_OF.map((asOf) => [asOf - dayEnd, asOf]))('asOf = day end %s s: rows are the same from changedAt on and differ just before', (_, asOf) => {
    const { rows, changedAt } = simulator.dayContent(day, asOf);
    expect(changedAt).toBeLessThanOrEqual(asOf);
    expect(changedAt).toBeGreaterThanOrEqual(dayStart);
    expect(simulator.dayRows(day, changedAt)).toEqual(rows);
    expect(simulator.dayRows(day, changedAt - 0.001)).not.toEqual(rows);
    // half way between changedAt and asOf nothing changes either
    expect(simulator.dayRows(day, (changedAt + asOf) / 2)).toEqual(rows);
  });

  it('moves forward with asOf and settles once every window and late bar is in', () => {
    const changes = AS_OF.map((asOf) => simulator.dayContent(day, asOf).changedAt);
    expect([...changes].sort((a, b) => a - b)).toEqual(changes);
    // 7 days after its last sample the day still changes (the last 7d windows resolve, late bars of their
    // ends arrive hours later); a day after that it has settled
    expect(changes.at(-3)).toBeGreaterThan(dayEnd + 7 * DAY - HOUR);
    expect(changes.at(-2)).toBeGreaterThanOrEqual(changes.at(-3)!);
    expect(changes.at(-1)).toBe(changes.at(-2));
  });

  it('is -Infinity for a day without rows yet', () => {
    expect(simulator.dayContent(day, dayStart - 1)).toEqual({ rows: [], changedAt: -Infinity });
  });
});
