// The model's true skill for the calibration bench: the real learner wrapped so that, after each fold's fit,
// the fitted model and the fold's base rate are also scored on a large truth sample built the same way
// (same spec, same eligible rows, other seeds). That gives each fold's true AUC and Δ log loss; the pooled
// truth mixes the fold models' truth predictions in proportion to each fold's test rows.

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../../src/base/index.js';
import { MARKET_EVENTS_CURRENT_VIEW, MARKET_EVENTS_TABLE } from '../../../src/catalog/index.js';
import { logLoss, rocAuc, rowLogLoss, scoreOrder } from '../../../src/modelling/classification-metrics.js';
import { regimeOf } from '../../../src/mock/simulator/volatility-schedule.js';
import { LogisticRegression } from '../../../src/modelling/logistic-regression.js';
import { featureMatrixFromColumns, type FeatureMatrix, type Model } from '../../../src/modelling/model.js';
import { checkModelSpec } from '../../../src/analysis/check-feature-set.js';
import { predictorSelectSql, type ModelSpec } from '../../../src/analysis/leakage-guard.js';
import { readColumns } from '../../../src/modelling/read-columns.js';
import { classifiedSplitRowsSql } from '../../../src/modelling/split-rows.js';
import type { SampleType, Window } from '../../../src/contract/index.js';

/** Truth rows of one spec: complete predictors and target, which truth market each row is from, and its UTC day. */
export interface TruthSample {
  matrix: FeatureMatrix;
  y: Float64Array;
  market: Int32Array;
  markets: number;
  /** Day number (days since 1970-01-01) of each row's sample_time. */
  day: Int32Array;
}

/** The eligible rows of `spec` at `window` in one catalog, as modelStudy selects them (reason IS NULL). */
export async function readTruthRows(connection: DuckDBConnection, spec: ModelSpec, window: Window, sampleType: SampleType | undefined) {
  const source = { connection, eventsTable: MARKET_EVENTS_TABLE, currentView: MARKET_EVENTS_CURRENT_VIEW };
  await checkModelSpec(spec); // the leakage guard reads derived SQL before predictorSelectSql may splice it
  const target = typeof spec.target === 'string' ? quoteIdentifier(spec.target) : spec.target.sql;
  const values = await readColumns(
    connection,
    `SELECT ${predictorSelectSql(spec.features.predictors, { cast: 'DOUBLE' })}, (${target})::DOUBLE AS "__target", floor(sample_time / 86400)::DOUBLE AS "__day"
    FROM ${classifiedSplitRowsSql(source, window, undefined, { sampleType })} WHERE reason IS NULL`,
    [...spec.features.names.map(() => 'number' as const), 'number', 'number'],
  );
  const columns = Object.fromEntries(spec.features.names.map((name, j) => [name, values[j]!]));
  const { matrix, kept } = featureMatrixFromColumns(columns, spec.features);
  const rawTarget = values[values.length - 2]!;
  const rawDay = values[values.length - 1]!;
  const keep: number[] = [];
  for (let k = 0; k < kept.length; k += 1) if (Number.isFinite(rawTarget[kept[k]!]!)) keep.push(k);
  const p = matrix.columns;
  const out = new Float64Array(keep.length * p);
  const y = new Float64Array(keep.length);
  const day = new Int32Array(keep.length);
  keep.forEach((k, i) => {
    for (let j = 0; j < p; j += 1) out[i * p + j] = matrix.values[k * p + j]!;
    y[i] = rawTarget[kept[k]!] === 1 ? 1 : 0;
    day[i] = rawDay[kept[k]!]!;
  });
  return { matrix: { ...matrix, values: out, rows: keep.length }, y, day };
}

/** Concatenates the truth rows of several markets. */
export function joinTruthRows(parts: readonly { matrix: FeatureMatrix; y: Float64Array; day: Int32Array }[]): TruthSample {
  const rows = parts.reduce((a, part) => a + part.matrix.rows, 0);
  const columns = parts[0]!.matrix.columns;
  const values = new Float64Array(rows * columns);
  const y = new Float64Array(rows);
  const market = new Int32Array(rows);
  const day = new Int32Array(rows);
  let at = 0;
  parts.forEach((part, m) => {
    values.set(part.matrix.values, at * columns);
    y.set(part.y, at);
    day.set(part.day, at);
    market.fill(m, at, at + part.matrix.rows);
    at += part.matrix.rows;
  });
  return { matrix: { ...parts[0]!.matrix, values, rows }, y, market, markets: parts.length, day };
}

/** One fitted fold model's truth: AUC (NaN when not scored) and Δ log loss against its train base rate. */
export interface FoldTruth {
  auc: number;
  logLossDifference: number;
  /** The fold model's probabilities on the truth rows (for the pooled truth). */
  predictions: Float64Array;
  /** scoreOrder(predictions), for the same-regime truth's weighted AUC. */
  order: Uint32Array;
  baseRate: number;
}

const clip = (p: number) => Math.min(1 - 1e-15, Math.max(1e-15, p));

/**
 * A factory of the real learner (LogisticRegression with its defaults) that scores every fitted model on
 * `truth`. `knownAuc`: the AUC is known by construction (a no-skill spec: 0.5), so it is not computed.
 */
export function truthScoringModels(truth: TruthSample, knownAuc?: number) {
  const fitted: FoldTruth[] = [];
  // Scored on the truth rows only when settled: a nested cross-validation fits more models than folds (the
  // first ones made are the fold models), and scoring each on the truth sample would cost as much as its fit.
  const pending: (() => void)[] = [];
  const factory = (): Model => {
    const inner = new LogisticRegression();
    const record: FoldTruth = { auc: Number.NaN, logLossDifference: Number.NaN, predictions: new Float64Array(0), order: new Uint32Array(0), baseRate: Number.NaN };
    fitted.push(record);
    const index = pending.length;
    pending.push(() => undefined);
    return {
      name: inner.name,
      fit(x, y) {
        inner.fit(x, y);
        const baseRate = y.reduce((a, b) => a + b, 0) / y.length;
        pending[index] = () => {
          const p = inner.predict(truth.matrix);
          record.predictions = p;
          record.order = scoreOrder(p);
          record.baseRate = baseRate;
          record.auc = knownAuc ?? rocAuc(truth.y, p, undefined, record.order);
          record.logLossDifference = logLoss(truth.y, p) - logLoss(truth.y, new Float64Array(truth.y.length).fill(clip(record.baseRate)));
        };
      },
      predict: (x) => inner.predict(x),
      // The learner's geometry too: without it evaluateModel would give the pooled Δ log loss another interval
      // than a study of the same learner (a run on 2026-11-27 measured the corrected resampled t for that reason).
      scoreGeometry: (x, y, p) => inner.scoreGeometry(x, y, p),
    };
  };
  /** Scores the first `count` models made (the fold models) on the truth rows; returns them. */
  const settle = (count: number) => {
    for (let i = 0; i < Math.min(count, pending.length); i += 1) pending[i]!();
    return fitted.slice(0, count);
  };
  return { factory, fitted, settle };
}

/** The weighted mean of `values` over the entries with weight > 0 and a finite value; NaN when none. */
function weightedMix(values: readonly number[], weights: readonly number[]): number {
  const used = values.map((value, i) => ({ value, weight: weights[i]! })).filter((u) => u.weight > 0 && Number.isFinite(u.value));
  const total = used.reduce((sum, u) => sum + u.weight, 0);
  return total > 0 ? used.reduce((sum, u) => sum + (u.weight / total) * u.value, 0) : Number.NaN;
}

/**
 * Pooled truth. Δ log loss: the fold models' truths mixed by `weights` (each fold's share of pooled test rows),
 * as the pooled estimate mixes the folds' rows. AUC: rdw's pooled AUC counts pairs within a fold only, so its
 * truth is the fold models' truth AUCs mixed by `pairWeights` (each fold's positive × negative test rows). A fold
 * fitted on no rows (no truth predictions) is left out.
 */
export function pooledTruth(
  folds: readonly FoldTruth[],
  weights: readonly number[],
  pairWeights: readonly number[],
  knownAuc?: number,
): { auc: number; logLossDifference: number } {
  const scored = folds.map((fold) => (fold.predictions.length > 0 ? fold : { auc: Number.NaN, logLossDifference: Number.NaN }));
  return mixFoldTruths(scored, weights, pairWeights, knownAuc);
}

/**
 * The pooled row's same-regime truth: the folds' same-regime truths (sameRegimeTruth) mixed as rdw's pooled
 * scores mix the folds: AUC by each fold's positive × negative test pairs, Δ log loss by its test rows. Folds
 * without a truth (NaN) or without weight are left out.
 */
export function pooledSameRegimeTruth(
  folds: readonly { auc: number; logLossDifference: number }[],
  weights: readonly number[],
  pairWeights: readonly number[],
): { auc: number; logLossDifference: number } {
  return mixFoldTruths(folds, weights, pairWeights);
}

/** Fold truths mixed as the pooled scores mix the folds (AUC by `pairWeights`, Δ log loss by `weights`). */
function mixFoldTruths(
  folds: readonly { auc: number; logLossDifference: number }[],
  weights: readonly number[],
  pairWeights: readonly number[],
  knownAuc?: number,
): { auc: number; logLossDifference: number } {
  return {
    auc: knownAuc ?? weightedMix(folds.map((fold) => fold.auc), pairWeights),
    logLossDifference: weightedMix(folds.map((fold) => fold.logLossDifference), weights),
  };
}

/** Standard error of a fold's truth AUC from its spread across truth markets (sd / √markets). */
export function truthAucStandardError(truth: TruthSample, predictions: Float64Array): number {
  if (truth.markets < 2) return Number.NaN;
  const values: number[] = [];
  for (let m = 0; m < truth.markets; m += 1) {
    const index: number[] = [];
    for (let i = 0; i < truth.market.length; i += 1) if (truth.market[i] === m) index.push(i);
    values.push(rocAuc(Float64Array.from(index, (i) => truth.y[i]!), Float64Array.from(index, (i) => predictions[i]!)));
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1));
  return sd / Math.sqrt(values.length);
}

/** The simulator's volatility regime (0.7 calm, 1 normal, 1.7 turbulent; 5-day blocks) of each truth row. */
export function truthRegimes(truth: TruthSample, truthSeeds: readonly number[]): Float64Array {
  return Float64Array.from(truth.day, (day, i) => regimeOf(truthSeeds[truth.market[i]!]!, day));
}

/** Share of each regime value among `regimes`. */
export function regimeShares(regimes: ArrayLike<number>): Map<number, number> {
  const shares = new Map<number, number>();
  for (let i = 0; i < regimes.length; i += 1) shares.set(regimes[i]!, (shares.get(regimes[i]!) ?? 0) + 1);
  for (const [regime, count] of shares) shares.set(regime, count / regimes.length);
  return shares;
}

/**
 * The fold interval's estimand (docs/analysis.md): the fitted fold model's skill on fresh events of days like its
 * test days, i.e. under the same volatility regimes. The truth rows are reweighted so that each regime has the
 * share it has among the fold's test rows (pairs of the AUC weighted by the product of their rows' weights;
 * weighted mean Δ log loss). NaN when the fold has a regime the truth rows lack.
 */
export function sameRegimeTruth(
  truth: TruthSample,
  regimes: Float64Array,
  truthShares: Map<number, number>,
  fold: FoldTruth,
  testShares: Map<number, number>,
  knownAuc?: number,
): { auc: number; logLossDifference: number } {
  if (fold.predictions.length === 0) return { auc: Number.NaN, logLossDifference: Number.NaN };
  for (const regime of testShares.keys()) if (!(truthShares.get(regime)! > 0)) return { auc: Number.NaN, logLossDifference: Number.NaN };
  const weights = Float64Array.from(regimes, (regime) => (testShares.get(regime) ?? 0) / truthShares.get(regime)!);
  const base = clip(fold.baseRate);
  let total = 0;
  let weightSum = 0;
  for (let i = 0; i < truth.y.length; i += 1) {
    const w = weights[i]!;
    if (w === 0) continue;
    total += w * (rowLogLoss(truth.y[i]!, fold.predictions[i]!) - rowLogLoss(truth.y[i]!, base));
    weightSum += w;
  }
  return { auc: knownAuc ?? rocAuc(truth.y, fold.predictions, weights, fold.order), logLossDifference: total / weightSum };
}
