// The model's intervals on 60 simulator days (seed 1, a real catalog, purged 5-fold): at 7d a fold's test days
// make fewer jackknife blocks than an interval needs, so fold rows show none and the evaluation says how many
// more test days per fold; at 1h every fold and the pooled row have intervals around their estimates.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_INTERVAL_BLOCKS, daysForInterval, intervalBlockDays } from '../../src/analysis/block-jackknife.js';
import { modelCatalog, modelEvaluationTable } from '../../src/modelling/index.js';
import { WINDOW_SECONDS } from '../../src/contract/index.js';
import { MarketSimulator } from '../../src/mock/index.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

let fixture: FixtureCatalog;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 1, days: 60, label: 'model-intervals' });
}, 300_000);
afterAll(async () => fixture?.close());

describe('model score intervals on 60 simulator days (seed 1)', () => {
  it('7d: no fold row has an interval, and the note names the test days per fold an interval needs', async () => {
    const result = await modelCatalog(fixture.catalog, { window: '7d' });
    const blockDays = intervalBlockDays(WINDOW_SECONDS['7d']);
    const needed = daysForInterval(blockDays, MIN_INTERVAL_BLOCKS);
    expect(result.evaluation.interval.blockDays).toBe(blockDays);
    expect(result.evaluation.interval.description).toBe(
      `95% block-jackknife t intervals over ${blockDays}-day blocks of test days (G−1 df, fitted models fixed); pooled: Nadeau–Bengio corrected resampled t over the 5 folds' scores (4 df)`,
    );
    const { folds, pooled } = result.evaluation;
    expect(folds).toHaveLength(5);
    for (const fold of folds) {
      expect(fold.blocks).toBeLessThan(MIN_INTERVAL_BLOCKS);
      expect(fold.noInterval).toBe('too_few_blocks');
      expect([...fold.intervals.model.auc, ...fold.intervals.logLossDifference, fold.pValues.auc].every(Number.isNaN)).toBe(true);
    }
    const rows = modelEvaluationTable(result);
    for (const row of rows.slice(0, -1)) expect([row.auc_ci_low, row.auc_ci_high, row.log_loss_difference_ci_low, row.log_loss_difference_ci_high]).toEqual([null, null, null, null]);
    const fewest = Math.min(...folds.map((fold) => fold.daySpan));
    const note = result.evaluation.intervalNote!;
    const blocks = Math.ceil(fewest / blockDays);
    expect(note).toContain(`No fold shows an interval: ${fewest} test days (the shortest fold's) make ${blocks} ${blocks === 1 ? 'block' : 'blocks'} of ${blockDays} days`);
    expect(note).toContain(`an interval needs ${MIN_INTERVAL_BLOCKS} blocks (${needed} test days per fold); give each fold ${needed - fewest}+ more test days (pull about ${5 * needed - pooled.daySpan} more days, ${5 * needed} in all)`);
    // The pooled row of 5 folds: an interval from the folds' scores (corrected resampled t), blocks or not.
    expect(pooled.noInterval).toBeUndefined();
    expect(pooled.intervals.model.auc.every(Number.isFinite)).toBe(true);
    expect(rows.at(-1)!.auc_ci_low).toBe(pooled.intervals.model.auc[0]);
    expect(note).not.toContain('pooled row');
  }, 120_000);

  it('1h: every fold row and the pooled row have an interval around the estimate, with p-values from the same t', async () => {
    const result = await modelCatalog(fixture.catalog, { window: '1h' });
    expect(result.evaluation.interval.blockDays).toBe(intervalBlockDays(WINDOW_SECONDS['1h']));
    expect(result.evaluation.intervalNote).toBeUndefined();
    expect(result.evaluation.pooled.noInterval).toBeUndefined();
    for (const scored of [...result.evaluation.folds, result.evaluation.pooled]) {
      expect(scored.blocks).toBeGreaterThanOrEqual(MIN_INTERVAL_BLOCKS);
      const [low, high] = scored.intervals.model.auc;
      expect(low).toBeLessThan(scored.model.auc);
      expect(high).toBeGreaterThan(scored.model.auc);
      // One method: the AUC interval excludes 0.5 exactly when p < 0.05.
      expect(low > 0.5 || high < 0.5).toBe(scored.pValues.auc < 0.05);
      const [dLow, dHigh] = scored.intervals.logLossDifference;
      expect(dLow > 0 || dHigh < 0).toBe(scored.pValues.logLossDifference < 0.05);
    }
  }, 120_000);

  // Walk-forward's test blocks are ⌊days / (folds + 1)⌋ days (or the test days given), not the pooled days shared
  // out: the note's remedy must be one that works when followed.
  it('24h walk-forward: the fold count the note advises gives every fold an interval, one more fold does not', async () => {
    const study = (folds: number) => modelCatalog(fixture.catalog, { window: '24h', split: { method: 'walk-forward', folds } });
    const note = (await study(5)).evaluation.intervalNote!;
    const advised = Number(/or use (\d+) folds? or fewer/.exec(note)?.[1]);
    expect(advised).toBe(2);
    const followed = await study(advised);
    expect(followed.evaluation.intervalNote).toBeUndefined();
    expect(followed.evaluation.folds.every((fold) => fold.intervals.model.auc.every(Number.isFinite))).toBe(true);
    expect((await study(advised + 1)).evaluation.intervalNote).toContain('No fold shows an interval');
  }, 120_000);

  // The note's "pull about N more days, M in all", followed: the oldest days of the same market, then N more.
  it.each([
    ['purged-k-fold', { method: 'purged-k-fold', folds: 3 }],
    ['walk-forward', { method: 'walk-forward', folds: 2 }],
  ] as const)('24h %s on 30 days: pulling the days the note names gives every fold an interval', async (_name, split) => {
    const days = new MarketSimulator({ seed: 1, days: 60 }).days();
    const releaseOf = (day: string) => createHash('sha256').update(`model-intervals|${day}`).digest('hex');
    const study = (count: number) => modelCatalog(fixture.catalog, { window: '24h', split, releases: days.slice(0, count).map(releaseOf) });
    const note = (await study(30)).evaluation.intervalNote!;
    const advice = /pull about (\d+) more days, (\d+) in all/.exec(note);
    expect(advice, note).not.toBeNull();
    const [more, all] = [Number(advice![1]), Number(advice![2])];
    expect(all).toBe((split.method === 'walk-forward' ? split.folds + 1 : split.folds) * daysForInterval(intervalBlockDays(WINDOW_SECONDS['24h']), MIN_INTERVAL_BLOCKS));
    expect(more).toBe(all - 30);
    const followed = await study(30 + more);
    expect(followed.evaluation.intervalNote).toBeUndefined();
    expect(followed.evaluation.folds.every((fold) => fold.intervals.model.auc.every(Number.isFinite))).toBe(true);
  }, 120_000);

  it('24h walk-forward with test days given: the note asks for more test days per fold, and those give intervals', async () => {
    const study = (folds: number, testDays: number) => modelCatalog(fixture.catalog, { window: '24h', split: { method: 'walk-forward', folds, testDays } });
    const first = await study(4, 5);
    const days = first.splits.rows.days.length;
    const needed = daysForInterval(intervalBlockDays(WINDOW_SECONDS['24h']), MIN_INTERVAL_BLOCKS);
    const note = first.evaluation.intervalNote!;
    expect(note).not.toContain('folds or fewer');
    // 4 folds of 16 days and a training day need 65 days; the rows have fewer.
    expect(note).toContain(`raise the test days per fold to ${needed} (4 folds of ${needed} days and a training day need ${4 * needed + 1} days, and the rows have ${days}: pull more days or use fewer folds)`);
    const followed = await study(3, needed);
    expect(followed.evaluation.intervalNote).toBeUndefined();
  }, 120_000);
});
