// The model's true skill for the calibration bench: the real learner wrapped so that, after each fold's fit,
// the fitted model and the fold's base rate are also scored on a large truth sample built the same way
// (same spec, same eligible rows, other seeds). That gives each fold's true AUC and Δ log loss; the pooled
// truth mixes the fold models' truth predictions in proportion to each fold's test rows.

import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../../src/base/index.js';
import { MARKET_EVENTS_CURRENT_VIEW, MARKET_EVENTS_TABLE } from '../../../src/catalog/index.js';
import { logLoss, rocAuc } from '../../../src/modelling/classification-metrics.js';
import { LogisticRegression } from '../../../src/modelling/logistic-regression.js';
import { featureMatrixFromColumns, type FeatureMatrix, type Model } from '../../../src/modelling/model.js';
import { checkModelSpec } from '../../../src/analysis/check-feature-set.js';
import { predictorSelectSql, type ModelSpec } from '../../../src/analysis/leakage-guard.js';
import { readColumns } from '../../../src/modelling/read-columns.js';
import { classifiedSplitRowsSql } from '../../../src/modelling/split-rows.js';
import type { SampleType, Window } from '../../../src/contract/index.js';

/** Truth rows of one spec: complete predictors and target, and which truth market each row is from. */
export interface TruthSample {
  matrix: FeatureMatrix;
  y: Float64Array;
  market: Int32Array;
  markets: number;
}

/** The eligible rows of `spec` at `window` in one catalog, as modelStudy selects them (reason IS NULL). */
export async function readTruthRows(connection: DuckDBConnection, spec: ModelSpec, window: Window, sampleType: SampleType | undefined) {
  const source = { connection, eventsTable: MARKET_EVENTS_TABLE, currentView: MARKET_EVENTS_CURRENT_VIEW };
  await checkModelSpec(spec); // the leakage guard reads derived SQL before predictorSelectSql may splice it
  const target = typeof spec.target === 'string' ? quoteIdentifier(spec.target) : spec.target.sql;
  const values = await readColumns(
    connection,
    `SELECT ${predictorSelectSql(spec.features.predictors, { cast: 'DOUBLE' })}, (${target})::DOUBLE AS "__target"
    FROM ${classifiedSplitRowsSql(source, window, undefined, { sampleType })} WHERE reason IS NULL`,
    [...spec.features.names.map(() => 'number' as const), 'number'],
  );
  const columns = Object.fromEntries(spec.features.names.map((name, j) => [name, values[j]!]));
  const { matrix, kept } = featureMatrixFromColumns(columns, spec.features);
  const rawTarget = values[values.length - 1]!;
  const keep: number[] = [];
  for (let k = 0; k < kept.length; k += 1) if (Number.isFinite(rawTarget[kept[k]!]!)) keep.push(k);
  const p = matrix.columns;
  const out = new Float64Array(keep.length * p);
  const y = new Float64Array(keep.length);
  keep.forEach((k, i) => {
    for (let j = 0; j < p; j += 1) out[i * p + j] = matrix.values[k * p + j]!;
    y[i] = rawTarget[kept[k]!] === 1 ? 1 : 0;
  });
  return { matrix: { ...matrix, values: out, rows: keep.length }, y };
}

/** Concatenates the truth rows of several markets. */
export function joinTruthRows(parts: readonly { matrix: FeatureMatrix; y: Float64Array }[]): TruthSample {
  const rows = parts.reduce((a, part) => a + part.matrix.rows, 0);
  const columns = parts[0]!.matrix.columns;
  const values = new Float64Array(rows * columns);
  const y = new Float64Array(rows);
  const market = new Int32Array(rows);
  let at = 0;
  parts.forEach((part, m) => {
    values.set(part.matrix.values, at * columns);
    y.set(part.y, at);
    market.fill(m, at, at + part.matrix.rows);
    at += part.matrix.rows;
  });
  return { matrix: { ...parts[0]!.matrix, values, rows }, y, market, markets: parts.length };
}

/** One fitted fold model's truth: AUC (NaN when not scored) and Δ log loss against its train base rate. */
export interface FoldTruth {
  auc: number;
  logLossDifference: number;
  /** The fold model's probabilities on the truth rows (for the pooled truth). */
  predictions: Float64Array;
  baseRate: number;
}

const clip = (p: number) => Math.min(1 - 1e-15, Math.max(1e-15, p));

/**
 * A factory of the real learner (LogisticRegression with its defaults) that scores every fitted model on
 * `truth`. `knownAuc`: the AUC is known by construction (a no-skill spec: 0.5), so it is not computed.
 */
export function truthScoringModels(truth: TruthSample, knownAuc?: number) {
  const fitted: FoldTruth[] = [];
  const factory = (): Model => {
    const inner = new LogisticRegression();
    const record: FoldTruth = { auc: Number.NaN, logLossDifference: Number.NaN, predictions: new Float64Array(0), baseRate: Number.NaN };
    fitted.push(record);
    return {
      name: inner.name,
      fit(x, y) {
        inner.fit(x, y);
        const p = inner.predict(truth.matrix);
        record.predictions = p;
        record.baseRate = y.reduce((a, b) => a + b, 0) / y.length;
        record.auc = knownAuc ?? rocAuc(truth.y, p);
        record.logLossDifference = logLoss(truth.y, p) - logLoss(truth.y, new Float64Array(truth.y.length).fill(clip(record.baseRate)));
      },
      predict: (x) => inner.predict(x),
    };
  };
  return { factory, fitted };
}

/**
 * Pooled truth. Δ log loss: the fold models' truths mixed by `weights` (each fold's share of pooled test rows),
 * as the pooled estimate mixes the folds' rows. AUC: rdw's pooled AUC counts pairs within a fold only, so its
 * truth is the fold models' truth AUCs mixed by `pairWeights` (each fold's positive × negative test rows).
 */
export function pooledTruth(
  folds: readonly FoldTruth[],
  weights: readonly number[],
  pairWeights: readonly number[],
  knownAuc?: number,
): { auc: number; logLossDifference: number } {
  const mix = (values: (fold: FoldTruth) => number, by: readonly number[]) => {
    const used = folds.map((fold, i) => ({ fold, weight: by[i]! })).filter(({ fold, weight }) => weight > 0 && fold.predictions.length > 0);
    const total = used.reduce((sum, u) => sum + u.weight, 0);
    return used.reduce((sum, u) => sum + (u.weight / total) * values(u.fold), 0);
  };
  return { auc: knownAuc ?? mix((fold) => fold.auc, pairWeights), logLossDifference: mix((fold) => fold.logLossDifference, weights) };
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
