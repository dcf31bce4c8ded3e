// Determinism and laziness: same options give the same rows; a day needs only its neighbouring days.

import { describe, expect, it } from 'vitest';
import { MarketSimulator } from '../../../src/mock/simulator/index.js';
import { SYMBOLS } from '../../../src/contract/index.js';

const DAY = 86_400;

describe('determinism', () => {
  const a = new MarketSimulator({ days: 4 });
  const day = a.days()[1] as string;
  const asOf = a.options.now + 9 * DAY;

  it('gives deep-equal rows for two simulators with the same options', () => {
    const b = new MarketSimulator({ days: 4 });
    expect(b.dayRows(day, asOf)).toEqual(a.dayRows(day, asOf));
    expect(b.candles('ETHUSDT', day)).toEqual(a.candles('ETHUSDT', day));
  });

  it('gives different rows for a different seed', () => {
    const other = new MarketSimulator({ days: 4, seed: 2 });
    const mine = a.dayRows(day, asOf);
    const theirs = other.dayRows(day, asOf);
    expect(theirs.map((row) => row.row_id)).not.toEqual(mine.map((row) => row.row_id));
    expect(other.candles('BTCUSDT', day)[0]?.open).not.toBe(a.candles('BTCUSDT', day)[0]?.open);
  });

  it('is pure: the same call again, after other days were generated, gives the same rows', () => {
    const first = a.dayRows(day, asOf);
    for (const other of a.days()) a.dayRows(other, asOf + 3600);
    expect(a.dayRows(day, asOf)).toEqual(first);
  });

  it('gives a day the same rows whatever the covered range and clock around it', () => {
    const wide = new MarketSimulator({ days: 30, now: '2026-11-20T06:00:00Z' });
    expect(wide.days()).toContain(day);
    expect(wide.dayRows(day, asOf)).toEqual(a.dayRows(day, asOf));
  });

  it('leaves out samples recorded after asOf', () => {
    const start = Date.parse(`${day}T00:00:00Z`) / 1000;
    const noon = start + DAY / 2;
    const partial = a.dayRows(day, noon);
    expect(partial.length).toBeGreaterThan(0);
    expect(Math.max(...partial.map((row) => row.sample_time))).toBeLessThanOrEqual(noon);
    expect(partial.map((row) => row.row_id)).toEqual(
      a.dayRows(day, asOf).filter((row) => row.sample_time <= noon).map((row) => row.row_id),
    );
  });
});

describe('laziness', () => {
  it('generates only the neighbouring days for one day late in an 1100-day range', () => {
    const simulator = new MarketSimulator({ days: 1100 });
    expect(simulator.days()).toHaveLength(1100);
    expect(simulator.generationCounts()).toEqual({ candleDays: 0, eventDays: 0, derivativeDays: 0 });
    const rows = simulator.dayRows(simulator.options.lastDay, simulator.options.now + DAY);
    expect(rows.length).toBeGreaterThan(100);
    const counts = simulator.generationCounts();
    // Candles: the day before the previous day (rule look-back) to 7 days after, for six pairs.
    expect(counts.candleDays).toBeLessThanOrEqual(SYMBOLS.length * 10);
    expect(counts.eventDays).toBe(SYMBOLS.length * 2);
    expect(counts.derivativeDays).toBe(SYMBOLS.length * 2);
  });

  it('serves a repeated day from the cache without generating anything', () => {
    const simulator = new MarketSimulator({ days: 3 });
    const day = simulator.options.lastDay;
    simulator.dayRows(day, simulator.options.now);
    const before = simulator.generationCounts();
    simulator.dayRows(day, simulator.options.now + 3600);
    expect(simulator.generationCounts()).toEqual(before);
  });
});
