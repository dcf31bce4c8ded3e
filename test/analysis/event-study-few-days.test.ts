// The event study on too few UTC days for its blocks: no interval, no p-value, no q (never a "95% interval"
// the data cannot support), while the estimates stay; one sentence per window says how many more days it needs.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WINDOW_SECONDS } from '../../src/contract/index.js';
import { MIN_INTERVAL_BLOCKS, analysisMessages, daysForInterval, eventStudy, intervalBlockDays } from '../../src/analysis/index.js';
import { studyReportText } from '../../src/cli/study-report-text.js';
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
  for (const [days, catalog] of [
    [1, () => oneDay],
    [4, () => fourDays],
  ] as const) {
    it(`${days} day(s): every group keeps its difference but has no interval, p or q; each window says how many more days`, async () => {
      const windows = ['1h', '24h'] as const;
      const result = await eventStudy(catalog().connection, { windows: [...windows] });
      expect(result.rows.length).toBeGreaterThan(0);
      // 1h always has complete outcomes; on one day, 24h has none yet (all pending): no difference at all
      expect(result.rows.filter((row) => row.window === '1h').every((row) => Number.isFinite(row.difference_pct))).toBe(true);
      for (const row of result.rows) {
        expect([row.ci_low_pct, row.ci_high_pct, row.p_value, row.q_value, row.significant_adjusted]).toEqual([null, null, null, null, null]);
      }
      expect(result.metadata.multipleComparisons.tested).toBe(0);
      const gaps = result.metadata.intervalGaps;
      expect(gaps.map((gap) => gap.window)).toEqual(windows.filter((window) => result.rows.some((row) => row.window === window && row.difference_pct !== null)));
      for (const gap of gaps) {
        const blockDays = intervalBlockDays(WINDOW_SECONDS[gap.window]);
        expect(gap).toMatchObject({ reason: 'too_few_blocks', blockDays, minBlocks: MIN_INTERVAL_BLOCKS, daysNeeded: daysForInterval(blockDays) });
        expect(gap.days).toBeLessThanOrEqual(days);
        expect(gap.moreDays).toBe(daysForInterval(blockDays) - gap.days);
      }
      // The CLI prints the sentences (and that nothing is tested), within 100 columns.
      const text = studyReportText(result);
      expect(text).toContain(analysisMessages.noGroupTested());
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
      const flat = text.replace(/\n/g, ' ');
      for (const gap of gaps) expect(flat).toContain(analysisMessages.noIntervalAt(gap));
    });
  }

  it('the row bootstrap (opt-in, not calibrated) does not need days: it gives intervals on one day', async () => {
    const byRow = await eventStudy(oneDay.connection, { windows: ['1h'], interval: { method: 'row-bootstrap', samples: 50 } });
    expect(byRow.rows.every((row) => row.ci_low_pct !== null && row.ci_low_pct < row.ci_high_pct!)).toBe(true);
    expect(byRow.metadata.intervalGaps).toEqual([]);
  });
});
