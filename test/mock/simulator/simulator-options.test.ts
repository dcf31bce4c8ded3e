// Option and argument validation of the market simulator: defaults, covered days, typed errors.

import { describe, expect, it } from 'vitest';
import {
  MarketSimulator,
  SimulatorArgumentError,
  SimulatorOptionError,
  resolveSimulatorOptions,
} from '../../../src/mock/simulator/index.js';
import { UsageError, type MarketSymbol } from '../../../src/contract/index.js';

describe('resolveSimulatorOptions', () => {
  it('applies the documented defaults', () => {
    expect(resolveSimulatorOptions()).toEqual({
      seed: 1,
      now: Date.parse('2026-11-01T00:00:00Z') / 1000,
      days: 120,
      schemaSince: '2026-09-02',
      firstDay: '2026-07-04',
      lastDay: '2026-10-31',
    });
  });

  it('accepts Unix seconds and reads an ISO date-time without offset as UTC', () => {
    const fromSeconds = resolveSimulatorOptions({ now: 1_700_000_000, days: 2 });
    expect(fromSeconds.now).toBe(1_700_000_000);
    expect(fromSeconds.lastDay).toBe('2023-11-13');
    expect(resolveSimulatorOptions({ now: '2026-01-10T12:00:00' }).now).toBe(Date.parse('2026-01-10T12:00:00Z') / 1000);
  });

  it('covers the `days` UTC days before now, also when now is mid-day', () => {
    const simulator = new MarketSimulator({ now: '2026-03-05T13:30:00Z', days: 3 });
    expect(simulator.days()).toEqual(['2026-03-02', '2026-03-03', '2026-03-04']);
  });

  const bad: Array<[string, Record<string, unknown>]> = [
    ['seed', { seed: -1 }],
    ['seed', { seed: 1.5 }],
    ['seed', { seed: '1' }],
    ['now', { now: 'yesterday' }],
    ['now', { now: '2026-13-45T00:00:00Z' }],
    ['now', { now: Number.NaN }],
    ['days', { days: 0 }],
    ['days', { days: -3 }],
    ['days', { days: 2.5 }],
    ['schemaSince', { schemaSince: '2026-02-30' }],
    ['schemaSince', { schemaSince: '20260101' }],
  ];
  it.each(bad)('rejects a bad %s (%o) with SimulatorOptionError naming it', (option, input) => {
    let caught: unknown;
    try {
      resolveSimulatorOptions(input as never);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SimulatorOptionError);
    expect(caught).toBeInstanceOf(UsageError);
    expect(caught).toMatchObject({ code: 'RDW_SIMULATOR_OPTION', option, exitCode: 2 });
  });
});

describe('MarketSimulator arguments', () => {
  const simulator = new MarketSimulator({ days: 2 });
  const cases: Array<[string, () => unknown, string]> = [
    ['an unknown symbol', () => simulator.candles('btcusdt' as MarketSymbol, '2026-10-30'), 'symbol'],
    ['an unknown symbol for derivatives', () => simulator.derivativeObservations('ADAUSDT' as MarketSymbol, '2026-10-30'), 'symbol'],
    ['a malformed day', () => simulator.dayRows('2026-10-32', simulator.options.now), 'day'],
    ['a non-finite asOf', () => simulator.dayRows('2026-10-30', Number.POSITIVE_INFINITY), 'asOf'],
  ];
  it.each(cases)('refuses %s with SimulatorArgumentError', (_name, call, argument) => {
    expect(call).toThrow(SimulatorArgumentError);
    try {
      call();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect(error).toMatchObject({ code: 'RDW_SIMULATOR_ARGUMENT', option: argument });
    }
  });
});
