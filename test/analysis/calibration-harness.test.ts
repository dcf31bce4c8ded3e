// The calibration bench's read-only helpers (test/bench/support) against independent recomputations: per-day
// totals give the event study's own difference, leaving a block out equals plain SQL without those days, and
// the fold-truth wrapper scores exactly the model the evaluation fitted.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStudy } from '../../src/analysis/index.js';
import { modelStudy } from '../../src/modelling/index.js';
import { logLoss, rocAuc, scoreOrder } from '../../src/modelling/classification-metrics.js';
import { LogisticRegression } from '../../src/modelling/logistic-regression.js';
import { defaultModelSpec } from '../../src/modelling/default-model-spec.js';
import { regimeOf } from '../../src/mock/simulator/volatility-schedule.js';
import { binomialBand, outsideBinomialBand } from '../bench/support/calibration-binomial.js';
import { assignDayBlocks } from '../../src/analysis/block-jackknife.js';
import { differenceOf, leaveOneBlockOut, readGroupDayTotals, sumTotals } from '../bench/support/calibration-day-totals.js';
import {
  joinTruthRows,
  pooledTruth,
  readTruthRows,
  regimeShares,
  sameRegimeTruth,
  truthRegimes,
  truthScoringModels,
} from '../bench/support/calibration-model-truth.js';
import { noSkillSpec, type ModelRecord } from '../bench/support/calibration-measure.js';
import { fillPooledOverFolds } from '../bench/support/calibration-pooled.js';
import { mergeSavedRuns, type SavedRun } from '../bench/support/calibration-saved.js';
import { summarize } from '../bench/support/calibration-summary.js';
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
    expect(scoring.settle(folds.length)).toHaveLength(folds.length);
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

describe('same-regime truth of a fold (the fold interval\'s estimand)', () => {
  it('equals the plain truth for the truth rows\' own regime mix, and the truth of one regime\'s rows for a fold of that regime', async () => {
    const spec = defaultModelSpec('1h');
    const truth = joinTruthRows([await readTruthRows(fixture.connection, spec, '1h', 'event')]);
    // The day of every truth row, independently: plain SQL counts of eligible event rows per UTC day.
    const counts = await fixture.connection.runAndReadAll(
      `SELECT floor(sample_time / 86400)::INTEGER AS utc_day, count(*)::INTEGER AS n FROM market_events_current
       WHERE sample_type = 'event' AND direction_adjusted_return_pct_1h IS NOT NULL GROUP BY 1`,
    );
    const perDay = new Map<number, number>();
    for (const day of truth.day) perDay.set(day, (perDay.get(day) ?? 0) + 1);
    for (const [day, n] of counts.getRows() as [number, number][]) expect(perDay.get(day) ?? 0).toBeLessThanOrEqual(n);
    expect([...perDay.keys()].every((day) => counts.getRows().some(([d]) => d === day))).toBe(true);

    const model = new LogisticRegression();
    model.fit(truth.matrix, truth.y);
    const predictions = model.predict(truth.matrix);
    const record = { auc: rocAuc(truth.y, predictions), logLossDifference: Number.NaN, predictions, order: scoreOrder(predictions), baseRate: 0.5 };
    const regimes = truthRegimes(truth, [11]);
    expect(Array.from(regimes)).toEqual(Array.from(truth.day, (day) => regimeOf(11, day)));
    const shares = regimeShares(regimes);
    const base = new Float64Array(truth.y.length).fill(0.5);
    // A fold with the truth rows' own mix: every weight 1, the plain truth.
    const own = sameRegimeTruth(truth, regimes, shares, record, shares);
    expect(own.auc).toBeCloseTo(record.auc, 12);
    expect(own.logLossDifference).toBeCloseTo(logLoss(truth.y, predictions) - logLoss(truth.y, base), 12);
    // A fold whose test rows are all of one regime: the truth of that regime's rows alone.
    const regime = [...shares.keys()].sort((a, b) => shares.get(b)! - shares.get(a)!)[0]!;
    const index = Array.from(regimes.keys()).filter((i) => regimes[i] === regime);
    const y = Float64Array.from(index, (i) => truth.y[i]!);
    const p = Float64Array.from(index, (i) => predictions[i]!);
    const one = sameRegimeTruth(truth, regimes, shares, record, new Map([[regime, 1]]));
    expect(one.auc).toBeCloseTo(rocAuc(y, p), 12);
    expect(one.logLossDifference).toBeCloseTo(logLoss(y, p) - logLoss(y, new Float64Array(y.length).fill(0.5)), 12);
  });
});

describe('binomial band of a coverage count', () => {
  it('is the central 95% band of Binomial(n, 0.95) (scipy.stats.binom ppf(0.025) / isf(0.025))', () => {
    expect(binomialBand(100)).toEqual([90, 99]);
    expect(binomialBand(300)).toEqual([277, 292]);
    expect(binomialBand(500)).toEqual([465, 484]);
    expect(outsideBinomialBand(100, 100)).toBe(true);
    expect(outsideBinomialBand(99, 100)).toBe(false);
    expect(outsideBinomialBand(89, 100)).toBe(true);
  });
});

describe('records of several runs and split methods (--from, --splits)', () => {
  const model = (seed: number, split: 'purged-k-fold' | 'walk-forward' | undefined, fold: number, low: number): ModelRecord => ({
    seed, days: 60, window: '1h', spec: 'no-skill', ...(split ? { split } : {}), fold, testDays: 12, testRows: 100, trainRows: 400,
    auc: 0.5, aucInterval: [low, low + 0.1], logLossDifference: 0, logLossInterval: [-0.01, 0.01],
    trueAuc: 0.5, scoredTruthAuc: 0.5, trueLogLossDifference: 0, sameRegimeAuc: 0.5, sameRegimeLogLossDifference: 0, trueAucStandardError: Number.NaN,
  });
  const run = (commit: string, models: ModelRecord[]): SavedRun => ({ run: { summary: [{ days: 60 }], modelTruthRows: {}, analysisCommit: commit, commit: `c-${commit}` }, truth: { 60: {} }, events: [], models });

  it('merge keeps each record once (the first run\'s), whatever file repeats it, and names every run\'s interval code', () => {
    const merged = mergeSavedRuns([
      run('aaa', [model(1, undefined, 1, 0.45), model(1, undefined, 0, 0.45)]),
      // The same seed again: a purged record already read (kept from the first file), and its walk-forward records (new).
      run('bbb', [model(1, 'purged-k-fold', 1, 0.9), model(1, 'walk-forward', 1, 0.45), model(1, 'walk-forward', 0, 0.45), model(2, undefined, 1, 0.45)]),
    ]);
    expect(merged.models).toHaveLength(5);
    expect(merged.models.filter((r) => (r.split ?? 'purged-k-fold') === 'purged-k-fold' && r.seed === 1 && r.fold === 1).map((r) => r.aucInterval[0])).toEqual([0.45]);
    expect(merged.analysisCommits).toEqual(['aaa', 'bbb']);
    expect(merged.commits).toEqual(['c-aaa', 'c-bbb']);
  });

  it('summary tallies walk-forward records apart from purged k-fold ones (a record without split is purged k-fold)', () => {
    const models = [
      ...[1, 2, 3].flatMap((seed) => [model(seed, undefined, 1, 0.45), model(seed, undefined, 0, 0.45)]),
      // Walk-forward: one fold interval misses 0.5, the pooled ones hold it; a test-days pooled row (overFolds
      // false) counts against its same-regime truth, which the third one misses.
      model(1, 'walk-forward', 1, 0.55), model(2, 'walk-forward', 1, 0.45), model(1, 'walk-forward', 0, 0.45), model(2, 'walk-forward', 0, 0.45),
      { ...model(3, 'walk-forward', 0, 0.45), spec: 'default', overFolds: false, trueAuc: 0.5, sameRegimeAuc: 0.58 },
    ];
    const [length] = summarize({ events: [], models, eventTruth: { 60: new Map() }, modelTruthRows: {}, errors: [], seconds: { truth: 0, study: 0 } }, [60]);
    expect(length!.model.coverage['1h'].foldAucSameRegime).toMatchObject({ shown: 3, covered: 3 });
    expect(length!.model.pooledEstimand['1h'].auc).toMatchObject({ shown: 3, covered: 3 });
    expect(length!.walkForward!.coverage['1h'].foldAucSameRegime).toMatchObject({ shown: 2, covered: 1 });
    expect(length!.walkForward!.pooledEstimand['1h'].auc).toMatchObject({ shown: 3, covered: 2 });
    // The same pooled tallies per spec: the default spec's row is the one that missed.
    expect(length!.walkForward!.pooledBySpec.default['1h'].auc).toMatchObject({ shown: 1, covered: 0 });
    expect(length!.walkForward!.pooledBySpec['no-skill']['1h'].auc).toMatchObject({ shown: 2, covered: 2 });
    expect(length!.model.pooledBySpec['no-skill']['1h'].auc).toMatchObject({ shown: 3, covered: 3 });
    expect(length!.model.pooledBySpec.default['1h'].auc).toMatchObject({ shown: 0 });
    expect(length!.walkForward!.noSkillFolds).toEqual({ shown: 2, excluding: 1 });
    const purgedOnly = summarize({ events: [], models: models.filter((r) => r.split === undefined), eventTruth: { 60: new Map() }, modelTruthRows: {}, errors: [], seconds: { truth: 0, study: 0 } }, [60]);
    expect(purgedOnly[0]!.walkForward).toBeNull();
  });

  it("counts purged k-fold's cross-fold Δ log loss against the fitted models' same-regime skill, its AUC against the mean over markets", () => {
    // Three pooled k-fold rows, Δ log loss interval [−0.01, 0.01]: their same-regime truths 0, 0.005 and 0.02 (the
    // last one missed); the mean of their all-regime truths (0.03) lies outside every interval.
    const pooled = [0, 0.005, 0.02].map((same, k) => ({ ...model(k + 1, undefined, 0, 0.45), overFolds: true, logLossCrossFold: true, trueLogLossDifference: 0.03, sameRegimeLogLossDifference: same }));
    const [length] = summarize({ events: [], models: pooled, eventTruth: { 60: new Map() }, modelTruthRows: {}, errors: [], seconds: { truth: 0, study: 0 } }, [60]);
    expect(length!.model.pooledEstimand['1h'].logLoss).toMatchObject({ shown: 3, covered: 2 });
    expect(length!.model.pooledEstimand['1h'].auc).toMatchObject({ shown: 3, covered: 3 });
    // Without the flag (a run before the cross-fold interval): against the mean of the pooled truths, missed by all.
    const before = pooled.map(({ logLossCrossFold: _flag, ...r }) => r);
    const [old] = summarize({ events: [], models: before, eventTruth: { 60: new Map() }, modelTruthRows: {}, errors: [], seconds: { truth: 0, study: 0 } }, [60]);
    expect(old!.model.pooledEstimand['1h'].logLoss).toMatchObject({ shown: 3, covered: 0 });
  });
});
