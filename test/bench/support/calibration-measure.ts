// The calibration bench's measurement: the REAL event study (eventStudy over a real catalog) and the REAL
// model evaluation (modelStudy with its default purged k-fold splits, and walk-forward with --splits) over seeded markets, at every window,
// with the truth each interval should cover. Returns raw records; calibration-summary.ts tallies them.

import { CALIBRATED_SPLIT_METHODS, WINDOW_SECONDS, WINDOWS, outcomeFieldName, type CalibratedSplitMethod, type Window } from '../../../src/contract/index.js';
import { eventStudy } from '../../../src/analysis/index.js';
import { defaultModelSpec, modelStudy } from '../../../src/modelling/index.js';
import type { PooledDifferenceMethod } from '../../../src/contract/index.js';
import { derivedFeature } from '../../../src/analysis/derived-feature.js';
import { defineModelSpec, type ModelSpec } from '../../../src/analysis/leakage-guard.js';
import { assignDayBlocks, intervalBlockDays, MIN_INTERVAL_BLOCKS } from '../../../src/analysis/block-jackknife.js';
import { idInListSql, MARKET_EVENTS_TABLE } from '../../../src/catalog/index.js';
import { quoteIdentifier } from '../../../src/base/index.js';
import { readGroupDayTotals } from './calibration-day-totals.js';
import { groupKey, truthOf, type GroupTruth, type MarketTotals } from './calibration-explore.js';
import { buildCalibrationMarket, newestReleases } from './calibration-markets.js';
import {
  joinTruthRows,
  pooledSameRegimeTruth,
  pooledTruth,
  readTruthRows,
  regimeShares,
  sameRegimeTruth,
  truthAucStandardError,
  truthRegimes,
  truthScoringModels,
  type TruthSample,
} from './calibration-model-truth.js';
import { regimeOf } from '../../../src/mock/simulator/volatility-schedule.js';
import { cacheMarketTotals, marketTotals } from './calibration-totals-cache.js';

/** The two model specs measured: the default (real skill, from the planted breakout effect) and a no-skill one. */
export type SpecName = 'default' | 'no-skill';

/**
 * No skill by construction: does a control's raw return at W come out positive, from its volume ratio?
 * The simulator's volume is independent of returns (docs/mock-simulator.md), so the true AUC is 0.5.
 */
export function noSkillSpec(window: Window): ModelSpec {
  const label = outcomeFieldName('return_pct', window);
  return defineModelSpec({
    target: derivedFeature(`up_raw_${window}`, [label], `CASE WHEN ${label} IS NULL THEN NULL WHEN ${label} > 0 THEN 1 ELSE 0 END`),
    predictors: [derivedFeature('ln_volume_ratio_20', ['volume_ratio_20'], 'CASE WHEN volume_ratio_20 > 0 THEN ln(volume_ratio_20) END')],
  });
}

const SPECS: Record<SpecName, { spec: (w: Window) => ModelSpec; sampleType: 'event' | 'control' }> = {
  default: { spec: defaultModelSpec, sampleType: 'event' },
  'no-skill': { spec: noSkillSpec, sampleType: 'control' },
};

export interface EventRecord {
  seed: number;
  days: number;
  window: Window;
  eventKind: string;
  direction: string;
  difference: number | null;
  low: number | null;
  high: number | null;
  p: number | null;
  q: number | null;
  significant: boolean | null;
  /** Blocks the group's days make at the window's block length (block-jackknife.ts constants). */
  blocks: number;
}

export interface ModelRecord {
  seed: number;
  days: number;
  window: Window;
  spec: SpecName;
  /** The split method of the study (absent in runs made before walk-forward was measured: purged-k-fold). */
  split?: CalibrationSplit;
  /** Fold number, or 0 for the pooled row. */
  fold: number;
  testDays: number;
  /** Test rows scored, and rows the fold model was fitted on (pooled: every fold's test rows; train NaN). */
  testRows: number;
  trainRows: number;
  /**
   * Pooled row: true when its intervals came from the folds' scores (corrected resampled t, k-fold), false when
   * from the jackknife over every fold's test days (walk-forward); absent in runs made before the pooled row had one.
   */
  overFolds?: boolean;
  /**
   * Pooled k-fold row: true when its Δ log loss interval is the cross-fold one (crossFoldInterval), whose estimand
   * is the fitted models' same-regime skill; absent in runs made before it.
   */
  logLossCrossFold?: boolean;
  auc: number;
  aucInterval: readonly [number, number];
  logLossDifference: number;
  logLossInterval: readonly [number, number];
  /**
   * Pooled rows: the block jackknife of the pooled test rows with the fold models held fixed (the result's
   * `testRowsOnly`, which rdw does not show), recorded to compare with the shown interval. Absent in older runs.
   */
  testRowsAucInterval?: readonly [number, number];
  testRowsLogLossInterval?: readonly [number, number];
  /** The truth the AUC interval should cover: the fitted model's AUC on the truth sample (no-skill spec: 0.5 by construction). */
  trueAuc: number;
  /** The fitted model's AUC on the truth sample, as scored (for the no-skill spec: a check that it is near 0.5). */
  scoredTruthAuc: number;
  trueLogLossDifference: number;
  /**
   * Fold rows: the fold interval's estimand, the fitted model's skill on truth rows reweighted to the volatility
   * regimes of the fold's test rows (sameRegimeTruth; no-skill AUC 0.5). Pooled rows: the folds' mixed as the
   * pooled scores mix them (the estimand of a test-days pooled interval). Absent in runs made before.
   */
  sameRegimeAuc?: number;
  sameRegimeLogLossDifference?: number;
  /** Standard error of the truth AUC (first study market only; NaN elsewhere). */
  trueAucStandardError: number;
}

/** The split methods the bench measures: contract's calibrated ones (the model study's default first). */
export const CALIBRATION_SPLITS = CALIBRATED_SPLIT_METHODS;
export type CalibrationSplit = CalibratedSplitMethod;

export interface MeasureOptions {
  seeds: readonly number[];
  /** Split methods of the model studies. Default: purged-k-fold only. */
  splits?: readonly CalibrationSplit[];
  /** evaluateModel's pooledDifference for purged k-fold's pooled Δ log loss. Default: its default (corrected resampled t). */
  pooledDifference?: PooledDifferenceMethod;
  truthSeeds: readonly number[];
  /** Truth markets whose rows make the model truth sample (the first of truthSeeds). */
  modelTruthMarkets: number;
  days: number;
  lengths: readonly number[];
  windows?: readonly Window[];
  cacheDir?: string;
  log: (line: string) => void;
  /** Called after each study market with the records so far (the bench saves them: a partial run stays usable). */
  onMarket?: (partial: Measurement) => Promise<void>;
}

export interface Measurement {
  events: EventRecord[];
  models: ModelRecord[];
  eventTruth: Record<number, Map<string, GroupTruth>>;
  modelTruthRows: Record<string, number>;
  errors: string[];
  seconds: { truth: number; study: number };
}

export async function measure(options: MeasureOptions): Promise<Measurement> {
  const windows = options.windows ?? WINDOWS;
  const started = performance.now();
  // 1. truth: pooled event differences over the truth markets; model truth rows of the first few
  const truthMarkets: MarketTotals[] = [];
  const modelTruth = new Map<string, TruthSample>();
  const parts = new Map<string, { matrix: any; y: Float64Array }[]>();
  for (const [index, seed] of options.truthSeeds.entries()) {
    if (index >= options.modelTruthMarkets) {
      truthMarkets.push(await marketTotals(seed, options.days, options.cacheDir));
      continue;
    }
    // A model truth market: one catalog gives its per-day totals and its truth rows of every spec × window.
    const market = await buildCalibrationMarket(seed, options.days);
    try {
      truthMarkets.push(await cacheMarketTotals(market, options.cacheDir));
      for (const window of windows) {
        for (const [name, spec] of Object.entries(SPECS)) {
          const key = `${name}|${window}`;
          if (!parts.has(key)) parts.set(key, []);
          parts.get(key)!.push(await readTruthRows(market.fixture.connection, spec.spec(window), window, spec.sampleType));
        }
      }
    } finally {
      await market.fixture.close();
    }
    options.log(`model truth market seed ${seed} read`);
  }
  const eventTruth = Object.fromEntries(options.lengths.map((days) => [days, truthOf(truthMarkets, days)]));
  for (const [key, list] of parts) modelTruth.set(key, joinTruthRows(list));
  // The volatility regime of every truth row and the regimes' shares, per spec × window (the same-regime truth).
  const regimes = new Map([...modelTruth].map(([key, t]) => {
    const values = truthRegimes(t, options.truthSeeds);
    return [key, { values, shares: regimeShares(values) }];
  }));
  const truthSeconds = (performance.now() - started) / 1000;

  // 2. the studies, market by market (each market's catalog built once; shorter lengths are its newest releases)
  const events: EventRecord[] = [];
  const models: ModelRecord[] = [];
  const errors: string[] = [];
  const modelTruthRows = Object.fromEntries([...modelTruth].map(([key, t]) => [key, t.y.length]));
  const result = (): Measurement => ({ events, models, eventTruth, modelTruthRows, errors, seconds: { truth: truthSeconds, study: (performance.now() - started) / 1000 - truthSeconds } });
  for (const [marketIndex, seed] of options.seeds.entries()) {
    const marketStarted = performance.now();
    const market = await buildCalibrationMarket(seed, options.days);
    try {
      // The study market's own per-day totals, for the exploration grid (--explore reads the cache).
      if (options.cacheDir !== undefined) await cacheMarketTotals(market, options.cacheDir);
      for (const days of options.lengths) {
        const releases = newestReleases(market, days);
        const connection = market.fixture.connection;
        const study = await eventStudy(connection, { windows: [...windows], by: ['event_kind', 'direction'], releases });
        const from = `(SELECT * FROM ${quoteIdentifier(MARKET_EVENTS_TABLE)} WHERE ${idInListSql('release_id', releases)})`;
        const totals = new Map((await readGroupDayTotals(connection, from, windows)).map((g) => [groupKey(g), g]));
        for (const row of study.rows) {
          const group = { window: row.window, eventKind: String(row.event_kind), direction: String(row.direction) };
          const dayTotals = totals.get(groupKey(group));
          const blocks = dayTotals ? assignDayBlocks(dayTotals.days, intervalBlockDays(WINDOW_SECONDS[row.window])).count : 0;
          events.push({ seed, days, ...group, difference: row.difference_pct, low: row.ci_low_pct, high: row.ci_high_pct, p: row.p_value, q: row.q_value, significant: row.significant_adjusted, blocks });
        }
        for (const split of options.splits ?? ['purged-k-fold']) for (const window of windows) {
          for (const [name, spec] of Object.entries(SPECS) as [SpecName, (typeof SPECS)[SpecName]][]) {
            const truth = modelTruth.get(`${name}|${window}`)!;
            const truthRegime = regimes.get(`${name}|${window}`)!;
            const scoring = truthScoringModels(truth);
            try {
              const result = await modelStudy(connection, {
                ...(name === 'default' ? { window } : { spec: spec.spec(window), sampleType: spec.sampleType }),
                releases,
                model: scoring.factory,
                split: { method: split },
                ...(options.pooledDifference ? { pooledDifference: options.pooledDifference } : {}),
              });
              const folds = result.evaluation.folds;
              // One model per fold, made in fold order: the truth of fold i is the i-th model fitted (a nested
              // cross-validation makes its inner models after them).
              const nested = options.pooledDifference === 'nested' && split === 'purged-k-fold';
              if (nested ? scoring.fitted.length < folds.length : scoring.fitted.length !== folds.length) throw new Error(`${scoring.fitted.length} models made for ${folds.length} folds: cannot match fold truths`);
              scoring.settle(folds.length);
              const sameRegime: { auc: number; logLossDifference: number }[] = [];
              folds.forEach((fold, i) => {
                const t = scoring.fitted[i]!;
                const foldSplit = result.splits.splits.find((one) => one.fold === fold.fold)!;
                const testRegimes = Float64Array.from(foldSplit.test, (row) => regimeOf(seed, Math.floor(result.splits.rows.sampleTime[row]! / 86_400)));
                const same = sameRegimeTruth(truth, truthRegime.values, truthRegime.shares, t, regimeShares(testRegimes), name === 'no-skill' ? 0.5 : undefined);
                sameRegime.push(same);
                models.push({
                  seed, days, window, spec: name, split, fold: fold.fold, testDays: fold.days, testRows: fold.rows, trainRows: fold.trainRows,
                  auc: fold.model.auc, aucInterval: fold.intervals.model.auc,
                  logLossDifference: fold.logLossDifference, logLossInterval: fold.intervals.logLossDifference,
                  trueAuc: name === 'no-skill' ? 0.5 : t.auc, scoredTruthAuc: t.auc, trueLogLossDifference: t.logLossDifference,
                  sameRegimeAuc: same.auc, sameRegimeLogLossDifference: same.logLossDifference,
                  trueAucStandardError: marketIndex === 0 && t.predictions.length > 0 ? truthAucStandardError(truth, t.predictions) : Number.NaN,
                });
              });
              const pooled = result.evaluation.pooled;
              const pairs = folds.map((fold) => fold.positives * (fold.rows - fold.positives));
              const poolTruth = pooledTruth(scoring.fitted.slice(0, folds.length), folds.map((fold) => fold.rows), pairs);
              // The pooled row's same-regime truth (the estimand of a test-days pooled interval, walk-forward's):
              // the folds' same-regime truths mixed as the pooled scores mix the folds (AUC by pairs, Δ log loss by rows).
              const poolSame = pooledSameRegimeTruth(sameRegime, folds.map((fold) => fold.rows), pairs);
              models.push({
                seed, days, window, spec: name, split, fold: 0, testDays: pooled.days, testRows: pooled.rows, trainRows: Number.NaN, overFolds: pooled.overFolds !== undefined, logLossCrossFold: pooled.overFolds?.differenceMethod === 'cross-fold',
                auc: pooled.model.auc, aucInterval: pooled.intervals.model.auc,
                logLossDifference: pooled.logLossDifference, logLossInterval: pooled.intervals.logLossDifference,
                ...(pooled.testRowsOnly ? { testRowsAucInterval: pooled.testRowsOnly.intervals.model.auc, testRowsLogLossInterval: pooled.testRowsOnly.intervals.logLossDifference } : {}),
                trueAuc: name === 'no-skill' ? 0.5 : poolTruth.auc, scoredTruthAuc: poolTruth.auc, trueLogLossDifference: poolTruth.logLossDifference, trueAucStandardError: Number.NaN,
                sameRegimeAuc: name === 'no-skill' ? 0.5 : poolSame.auc, sameRegimeLogLossDifference: poolSame.logLossDifference,
              });
            } catch (error) {
              errors.push(`seed ${seed}, ${days} days, ${split}, ${window}, ${name}: ${(error as Error).message}`);
            }
          }
        }
      }
    } finally {
      await market.fixture.close();
    }
    options.log(`study market seed ${seed}: ${((performance.now() - marketStarted) / 1000).toFixed(1)} s`);
    await options.onMarket?.(result());
  }
  return result();
}

export { MIN_INTERVAL_BLOCKS };
