// fallenOffDays: when days may have fallen off the 100-item /releases listing since the home last knew it.

import { describe, expect, it } from 'vitest';
import { dayAfter, fallenOffDays } from '../../src/workbench/fallen-off-days.js';

describe('fallenOffDays', () => {
  it.each([
    // oldest listed, listed, limit, known last day → range
    ['2026-08-10', 100, 100, '2026-08-01', { from: '2026-08-02', to: '2026-08-09' }],
    ['2026-08-03', 100, 100, '2026-08-01', { from: '2026-08-02', to: '2026-08-02' }],
    ['2026-08-02', 100, 100, '2026-08-01', null], // the listing reaches the day after: nothing fell off
    ['2026-07-01', 100, 100, '2026-08-01', null], // the listing overlaps what the home knew
    ['2026-08-10', 40, 100, '2026-08-01', null], // not a full listing: it is the whole archive
    ['2026-08-10', 100, 100, undefined, null], // the home knew no day yet
    [null, 0, 100, '2026-08-01', null],
  ] as const)('oldest %s, %i of %i listed, last known %s', (oldest, listed, limit, known, expected) => {
    expect(fallenOffDays(oldest, listed, limit, known)).toEqual(expected);
  });

  it('steps over month and year ends in UTC', () => {
    expect([dayAfter('2026-12-31'), dayAfter('2026-03-01', -1), dayAfter('2024-02-28')]).toEqual(['2027-01-01', '2026-02-28', '2024-02-29']);
  });
});
