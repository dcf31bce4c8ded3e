// Options, limits overrides and fault rules are validated eagerly with typed errors naming the option.

import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/contract/index.js';
import { MockServerOptionError, resolveFaultRule, resolveMockLimits, resolveMockServerOptions, startMockServer } from '../../../src/mock/index.js';
import { thrown } from '../../support/thrown.js';

describe('mock server options', () => {
  it('applies the documented defaults', () => {
    const resolved = resolveMockServerOptions();
    expect(resolved).toMatchObject({ host: '127.0.0.1', port: 0, simulator: { seed: 1, now: '2026-11-01T00:00:00Z', days: 120 } });
    expect(resolved.limits).toMatchObject({
      plans: { free: { rpm: 60, daily_bytes: 0, keys: 1 }, researcher: { rpm: 60, daily_bytes: 1024 ** 3, keys: 1 }, desk: { rpm: 300, daily_bytes: 5 * 1024 ** 3, keys: 5 } },
      publicRpm: 60,
      rowQueryMaxRows: 10_000,
    });
    expect(resolveMockLimits({ researcher: { rpm: 5 } }).plans.researcher).toEqual({ rpm: 5, daily_bytes: 1024 ** 3, keys: 1, paid: true });
  });

  it.each([
    ['port', () => resolveMockServerOptions({ port: -1 })],
    ['port', () => resolveMockServerOptions({ port: 70_000 })],
    ['limits.researcher.rpm', () => resolveMockLimits({ researcher: { rpm: 0 } })],
    ['limits.desk.daily_bytes', () => resolveMockLimits({ desk: { daily_bytes: 1.5 } })],
    ['limits.gold', () => resolveMockLimits({ gold: {} })],
    ['limits.free.speed', () => resolveMockLimits({ free: { speed: 1 } })],
    ['limits', () => resolveMockLimits([])],
    ['knownRevisionsFile', () => resolveMockServerOptions({ knownRevisionsFile: '' })],
    ['knownRevisionsFile', () => resolveMockServerOptions({ knownRevisionsFile: 7 as unknown as string })],
  ])('refuses a bad %s with MockServerOptionError', (option, fn) => {
    const error = thrown(fn);
    expect(error).toBeInstanceOf(MockServerOptionError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as MockServerOptionError).code).toBe('RDW_MOCK_OPTION');
    expect((error as MockServerOptionError).option).toBe(option);
  });

  it.each([
    [{ kind: 'explode' }],
    [{ kind: 'corrupt', format: 'xlsx' }],
    [{ kind: 'corrupt', releaseId: 'abc' }],
    [{ kind: 'corrupt', times: 0 }],
    [{ kind: 'slow', delayMs: -1 }],
    [{ kind: 'corrupt', extra: true }],
    ['corrupt'],
  ])('refuses the fault rule %j', (rule) => {
    const error = thrown(() => resolveFaultRule(rule, 3));
    expect(error).toBeInstanceOf(MockServerOptionError);
    expect((error as MockServerOptionError).option).toBe('faults');
  });

  it('refuses bad faults at start, before listening', async () => {
    await expect(startMockServer({ faults: [{ kind: 'nope' as 'corrupt' }] })).rejects.toBeInstanceOf(MockServerOptionError);
  });
});
