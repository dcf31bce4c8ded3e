// BarSeries joins consecutive days' candle columns: every column of DayCandles, each day at its offset, with
// the day's own array type (numbers as Float64Array, the missing/invalid flags as Uint8Array).

import { describe, expect, it } from 'vitest';
import { AnchorWalk } from '../../../src/mock/simulator/anchor-walk.js';
import { BarSeries } from '../../../src/mock/simulator/bar-series.js';
import { CANDLE_COLUMNS, generateDayCandles } from '../../../src/mock/simulator/day-candles.js';
import { BARS_PER_DAY } from '../../../src/mock/simulator/volatility-schedule.js';

describe('BarSeries', () => {
  const walk = new AnchorWalk(1);
  const days = [20_390, 20_391, 20_392].map((day) => generateDayCandles(1, walk, 'BTCUSDT', day));
  const series = new BarSeries(days);

  it('names every column of a day in CANDLE_COLUMNS', () => {
    expect([...CANDLE_COLUMNS].sort()).toEqual(Object.keys(days[0]!).filter((key) => key !== 'dayNumber').sort());
  });

  it('holds each day at its offset, in the day array type, addressed from the first day', () => {
    expect(series.firstBar).toBe(20_390 * BARS_PER_DAY);
    expect(series.length).toBe(3 * BARS_PER_DAY);
    for (const name of CANDLE_COLUMNS) {
      expect(series[name].constructor, name).toBe(days[0]![name].constructor);
      expect(series[name].length, name).toBe(3 * BARS_PER_DAY);
      days.forEach((day, index) => {
        expect(Array.from(series[name].subarray(index * BARS_PER_DAY, (index + 1) * BARS_PER_DAY)), `${name} day ${index}`).toEqual(Array.from(day[name]));
      });
    }
  });

  it('refuses no days', () => {
    expect(() => new BarSeries([])).toThrow(RangeError);
  });
});
