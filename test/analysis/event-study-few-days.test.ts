// The event study's day bootstrap on too few days: no interval, no p-value, no q (never a zero-width "95%
// interval" claiming certainty), while the estimates stay; as soon as the days can vary, intervals return.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy } from '../../src/analysis/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

let oneDay: FixtureCatalog;
let fourDays: FixtureCatalog;
beforeAll(async () => {
  oneDay = await simulatorCatalog({ seed: 1, days: 1, label: 'few-days-1' });
  fourDays = await simulatorCatalog({ seed: 1, days: 4, label: 'few-days-4' });
}, 120_000);
afterAll(async () => {
  await oneDay?.close();
  await fourDays?.close();
});

describe('eventStudy with too few UTC days for its blocks', () => {
  it('one day: every group keeps its difference but has no interval, p-value or q; nothing is tested', async () => {
    const result = await eventStudy(oneDay.connection, { windows: ['1h'], bootstrap: { samples: 50 } });
    expect(result.rows.length).toBeGreaterThan(0);
    for (const row of result.rows) {
      expect(Number.isFinite(row.difference_pct)).toBe(true);
      expect([row.ci_low_pct, row.ci_high_pct, row.p_value, row.q_value, row.significant_adjusted]).toEqual([null, null, null, null, null]);
    }
    expect(result.metadata.multipleComparisons.tested).toBe(0);
    // The row bootstrap does not need days: it gives intervals on the same day.
    const byRow = await eventStudy(oneDay.connection, { windows: ['1h'], bootstrap: { samples: 50, method: 'row' } });
    expect(byRow.rows.every((row) => row.ci_low_pct !== null && row.ci_low_pct < row.ci_high_pct!)).toBe(true);
  });

  it('four days: 1h (1-day blocks) and 24h (2-day blocks, 3 days with complete outcomes) have intervals; blocks of 4 have none', async () => {
    const result = await eventStudy(fourDays.connection, { windows: ['1h', '24h'], bootstrap: { samples: 200 } });
    const withInterval = (window: string) => result.rows.filter((row) => row.window === window && row.ci_low_pct !== null);
    expect(withInterval('1h').length).toBeGreaterThan(0);
    expect(withInterval('24h').length).toBeGreaterThan(0);
    for (const row of withInterval('1h')) expect(row.ci_low_pct!).toBeLessThan(row.ci_high_pct!);
    const oneBlock = await eventStudy(fourDays.connection, { windows: ['1h'], bootstrap: { samples: 200, blockDays: 4 } });
    expect(oneBlock.rows.every((row) => row.ci_low_pct === null && row.p_value === null)).toBe(true);
  });
});
