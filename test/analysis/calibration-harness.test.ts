// The calibration bench's read-only helpers (test/bench/support) against independent recomputations: per-day
// totals give the event study's own difference, leaving a block out equals plain SQL without those days, and
// the fold-truth wrapper scores exactly the model the evaluation fitted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy } from '../../src/analysis/index.js';
import { modelStudy } from '../../src/modelling/index.js';
import { rocAuc } from '../../src/modelling/classification-metrics.js';
import { assignDayBlocks } from '../../src/analysis/block-jackknife.js';
import { differenceOf, leaveOneBlockOut, readGroupDayTotals, sumTotals } from '../bench/support/calibration-day-totals.js';
import { joinTruthRows, pooledTruth, readTruthRows, truthScoringModels } from '../bench/support/calibration-model-truth.js';
import { noSkillSpec, type ModelRecord } from '../bench/support/calibration-measure.js';
import { fillPooledOverFolds } from '../bench/support/calibration-pooled.js';
import { simulatorCatalog, type FixtureCatalog } from '../support/fixture-catalog.js';

let fixture: FixtureCatalog;

beforeAll(async () => {
  fixture = await simulatorCatalog({ seed: 11, days: 20, label: 'calibration-harness' });
});
afterAll(async () => fixture.close());

describe('per-day totals of the calibration bench', () => {
  it('give the event study difference of every window × group', async () => {
    const study = await eventStudy(fixture.connection, { windows: ['15m', '1h', '24h'], by: ['event_kind', 'direction'], bootstrap: { samples: 1 } });
    const totals = await readGroupDayTotals(fixture.connection, 'market_events_current', ['15m', '1h', '24h']);
    expect(totals).toHaveLength(study.rows.length);
    for (const row of study.rows) {
      const group = totals.find((g) => g.window === row.window && g.eventKind === row.event_kind && g.direction === row.direction)!;
      expect(differenceOf(sumTotals(group))).toBeCloseTo(row.difference_pct!, 10);
    }
  });

  it('leave one block out equals plain SQL over the other days', async () => {
    const [group] = await readGroupDayTotals(fixture.connection, 'market_events_current', ['1h']);
    const { block, count } = assignDayBlocks(group!.days, 3);
    const values = leaveOneBlockOut(group!, block, count);
    expect(values).toHaveLength(Math.ceil(20 / 3));
    const left = [...group!.days].filter((_, i) => block[i] !== 1).map((d) => `DATE '${new Date(d * 86_400_000).toISOString().slice(0, 10)}'`);
    const sign = group!.direction === 'up' ? 1 : -1;
    const sql = `SELECT
      (SELECT avg(direction_adjusted_return_pct_1h) FROM market_events_current WHERE sample_type = 'event' AND event_kind = '${group!.eventKind}'
         AND direction = '${group!.direction}' AND day IN (${left.join(', ')})) -
      ${sign} * (SELECT avg(return_pct_1h) FROM market_events_current WHERE sample_type = 'control' AND day IN (${left.join(', ')})) AS d`;
    const plain = Number((await fixture.connection.runAndReadAll(sql)).getRowObjectsJS()[0]!.d);
    expect(values[1]).toBeCloseTo(plain, 10);
  });
});

describe('fold truth of the calibration bench', () => {
  it('scores the model each fold fitted, on the truth rows', async () => {
    const spec = noSkillSpec('1h');
    const truth = joinTruthRows([await readTruthRows(fixture.connection, spec, '1h', 'control')]);
    const scoring = truthScoringModels(truth);
    const result = await modelStudy(fixture.connection, { spec, sampleType: 'control', model: scoring.factory, bootstrap: { samples: 10 } });
    const folds = result.evaluation.folds;
    expect(scoring.fitted).toHaveLength(folds.length);
    // Fold i's wrapper holds the fold's own fit: the same train base rate as the evaluation's baseline, and
    // truth predictions of every truth row whose AUC is the one recorded.
    for (const [i, fold] of folds.entries()) {
      expect(scoring.fitted[i]!.baseRate).toBeCloseTo(fold.trainBaseRate, 12);
      expect(scoring.fitted[i]!.predictions).toHaveLength(truth.y.length);
      expect(scoring.fitted[i]!.auc).toBeCloseTo(rocAuc(truth.y, scoring.fitted[i]!.predictions), 12);
    }
    const weights = folds.map((f) => f.rows);
    const total = weights.reduce((a, b) => a + b, 0);
    const pairs = folds.map((f) => f.positives * (f.rows - f.positives));
    const pooled = pooledTruth(scoring.fitted, weights, pairs);
    // rdw's pooled AUC counts pairs within a fold: its truth is the folds' truth AUCs mixed by their pairs.
    const pairTotal = pairs.reduce((a, b) => a + b, 0);
    expect(pooled.auc).toBeCloseTo(scoring.fitted.reduce((a, t, i) => a + (pairs[i]! / pairTotal) * t.auc, 0), 12);
    // ... and so is the estimate: the pooled AUC is the folds' AUCs mixed by their pairs.
    const pooledAuc = folds.reduce((a, f, i) => a + (pairs[i]! / pairTotal) * f.model.auc, 0);
    expect(result.evaluation.pooled.model.auc).toBeCloseTo(pooledAuc, 12);
    expect(pooled.logLossDifference).toBeCloseTo(scoring.fitted.reduce((a, t, i) => a + (weights[i]! / total) * t.logLossDifference, 0), 12);
  });

  it('fills a pooled row recorded without intervals exactly as evaluateModel computes it (--from of older runs)', async () => {
    const result = await modelStudy(fixture.connection, { window: '1h' });
    const { folds, pooled } = result.evaluation;
    const base = { seed: 1, days: 20, window: '1h', spec: 'default', trueAuc: 0.5, scoredTruthAuc: 0.5, trueLogLossDifference: 0, trueAucStandardError: Number.NaN } as const;
    // As saved to JSON: NaN is null, and an older run's pooled row had no interval.
    const records = JSON.parse(
      JSON.stringify([
        ...folds.map((fold) => ({ ...base, fold: fold.fold, testDays: fold.days, testRows: fold.rows, trainRows: fold.trainRows, auc: fold.model.auc, aucInterval: fold.intervals.model.auc, logLossDifference: fold.logLossDifference, logLossInterval: fold.intervals.logLossDifference })),
        { ...base, fold: 0, testDays: pooled.days, testRows: pooled.rows, trainRows: Number.NaN, auc: pooled.model.auc, aucInterval: [null, null], logLossDifference: pooled.logLossDifference, logLossInterval: [null, null] },
      ]),
    ) as ModelRecord[];
    const filled = fillPooledOverFolds(records);
    expect(filled.recomputed).toBe(1);
    const row = filled.models.find((r) => r.fold === 0)!;
    expect(pooled.intervals.model.auc.every(Number.isFinite)).toBe(true);
    expect(row.aucInterval).toEqual(pooled.intervals.model.auc);
    expect(row.logLossInterval).toEqual(pooled.intervals.logLossDifference);
  });
});
