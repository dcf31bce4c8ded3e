// Scores of one set of test predictions (a fold's, or every fold's pooled) with day-clustered bootstrap
// intervals: log loss and accuracy add up per day, so a draw costs O(days); AUC: ClusterWeightedAuc.

import { seededRandom } from '../base/index.js';
import { percentileInterval } from './bootstrap.js';
import { accuracy, logLoss, rocAuc, rowLogLoss, scoreOrder } from './classification-metrics.js';
import { clustersCanVary } from './cluster-bootstrap.js';
import { ClusterWeightedAuc } from './cluster-weighted-auc.js';

/** Scores of one set of predictions. log loss: natural log, lower is better; AUC and accuracy: 0..1. */
export interface ModelScores {
  readonly logLoss: number;
  readonly auc: number;
  readonly accuracy: number;
}

/** A percentile interval of the day-clustered bootstrap; [NaN, NaN] when the days cannot vary (one day, or one block). */
export type Interval = readonly [low: number, high: number];

/** The bootstrap settings evaluateModel resolved. */
export interface ResolvedModelBootstrap {
  readonly samples: number;
  readonly seed: number;
  readonly confidence: number;
  readonly blockDays: number;
}

/** Model and baseline scores of the same test rows, with intervals. */
export interface ScoredPredictions {
  /** Test rows scored (pooled: a row tested in two folds counts twice). */
  readonly rows: number;
  /** Days (clusters) holding those rows. */
  readonly days: number;
  readonly model: ModelScores;
  readonly baseline: ModelScores;
  /** model log loss − baseline log loss: below 0 when the model beats the baseline. */
  readonly logLossDifference: number;
  readonly intervals: {
    readonly model: { readonly logLoss: Interval; readonly auc: Interval; readonly accuracy: Interval };
    /** No AUC interval for the baseline: within a fold it scores every row alike (AUC 0.5); pooled, it only ranks folds by base rate. */
    readonly baseline: { readonly logLoss: Interval; readonly accuracy: Interval };
    readonly logLossDifference: Interval;
  };
}

/** The three scores of predictions `p` for targets `y`. @param order scoreOrder(p), when already known */
export function modelScores(y: Float64Array, p: Float64Array, order?: Uint32Array): ModelScores {
  return { logLoss: logLoss(y, p), auc: rocAuc(y, p, undefined, order), accuracy: accuracy(y, p) };
}

/**
 * Scores of the model and baseline predictions of the same rows, with day-clustered bootstrap intervals
 * (circular moving blocks of `bootstrap.blockDays` days). Deterministic for a given seed.
 * @param dayOfRow each row's day index (its cluster)
 */
export function scoreWithIntervals(
  y: Float64Array,
  modelP: Float64Array,
  baselineP: Float64Array,
  dayOfRow: ArrayLike<number>,
  bootstrap: ResolvedModelBootstrap,
): ScoredPredictions {
  const order = scoreOrder(modelP);
  const model = modelScores(y, modelP, order);
  const baseline = modelScores(y, baselineP);
  // Clusters: the distinct days of the pooled rows, in calendar order (plain loops: TypedArray.from with a
  // mapping function costs ~0.1 s per 500k rows).
  const days: number[] = [];
  for (const day of Float64Array.from(dayOfRow).sort()) if (days.length === 0 || day !== days[days.length - 1]) days.push(day);
  const clusterOf = new Map(days.map((day, index) => [day, index]));
  const cluster = new Int32Array(dayOfRow.length);
  for (let i = 0; i < cluster.length; i += 1) cluster[i] = clusterOf.get(dayOfRow[i]!)!;
  const k = days.length;
  // Log loss and accuracy add up per day: per-cluster sums make a draw cost O(days); AUC costs O(rows).
  const count = new Float64Array(k);
  const modelLoss = new Float64Array(k);
  const baselineLoss = new Float64Array(k);
  const modelRight = new Float64Array(k);
  const baselineRight = new Float64Array(k);
  for (let i = 0; i < y.length; i += 1) {
    const c = cluster[i]!;
    const yi = y[i]!;
    count[c] = count[c]! + 1;
    modelLoss[c] = modelLoss[c]! + rowLogLoss(yi, modelP[i]!);
    baselineLoss[c] = baselineLoss[c]! + rowLogLoss(yi, baselineP[i]!);
    if ((modelP[i]! > 0.5 ? 1 : 0) === yi) modelRight[c] = modelRight[c]! + 1;
    if ((baselineP[i]! > 0.5 ? 1 : 0) === yi) baselineRight[c] = baselineRight[c]! + 1;
  }
  const samples = bootstrap.samples;
  const draws = {
    modelLogLoss: new Float64Array(samples),
    modelAuc: new Float64Array(samples),
    modelAccuracy: new Float64Array(samples),
    baselineLogLoss: new Float64Array(samples),
    baselineAccuracy: new Float64Array(samples),
    difference: new Float64Array(samples),
  };
  // AUC of each draw: the rows in score order, each weighted by its day's draw count (none when a score is NaN).
  const groupEnds: number[] = [];
  for (let position = 1; position <= order.length; position += 1) {
    if (position === order.length || modelP[order[position]!]! !== modelP[order[position - 1]!]!) groupEnds.push(position);
  }
  const sorted = { cluster: new Int32Array(order.length), positive: new Uint8Array(order.length), groupEnds };
  for (let position = 0; position < order.length; position += 1) {
    sorted.cluster[position] = cluster[order[position]!]!;
    sorted.positive[position] = y[order[position]!] === 1 ? 1 : 0;
  }
  const aucs = Number.isNaN(model.auc) ? undefined : new ClusterWeightedAuc(sorted, k, samples, draws.modelAuc);
  if (aucs === undefined) draws.modelAuc.fill(Number.NaN);
  const random = seededRandom(bootstrap.seed);
  const length = Math.max(1, Math.min(bootstrap.blockDays, k));
  const blocks = k > 0 ? Math.ceil(k / length) : 0;
  const clusterWeight = new Float64Array(k);
  for (let b = 0; b < samples; b += 1) {
    // Circular moving blocks of `length` consecutive days, starts uniform over the k days, with replacement.
    clusterWeight.fill(0);
    for (let j = 0; j < blocks; j += 1) {
      let index = Math.floor(random() * k);
      for (let step = 0; step < length; step += 1) {
        clusterWeight[index] = clusterWeight[index]! + 1;
        index = index + 1 === k ? 0 : index + 1;
      }
    }
    let n = 0;
    let mLoss = 0;
    let bLoss = 0;
    let mRight = 0;
    let bRight = 0;
    for (let c = 0; c < k; c += 1) {
      const w = clusterWeight[c]!;
      if (w === 0) continue;
      n += w * count[c]!;
      mLoss += w * modelLoss[c]!;
      bLoss += w * baselineLoss[c]!;
      mRight += w * modelRight[c]!;
      bRight += w * baselineRight[c]!;
    }
    draws.modelLogLoss[b] = n > 0 ? mLoss / n : Number.NaN;
    draws.baselineLogLoss[b] = n > 0 ? bLoss / n : Number.NaN;
    draws.difference[b] = n > 0 ? (mLoss - bLoss) / n : Number.NaN;
    draws.modelAccuracy[b] = n > 0 ? mRight / n : Number.NaN;
    draws.baselineAccuracy[b] = n > 0 ? bRight / n : Number.NaN;
    aucs?.add(b, clusterWeight);
  }
  aucs?.flush();
  // One day, or blocks as long as the sample: every draw is the sample, and the interval would be a point.
  const varies = clustersCanVary(k, bootstrap.blockDays);
  const interval = (values: Float64Array): Interval => (varies ? percentileInterval(values, bootstrap.confidence) : [Number.NaN, Number.NaN]);
  return {
    rows: y.length,
    days: k,
    model,
    baseline,
    logLossDifference: model.logLoss - baseline.logLoss,
    intervals: {
      model: { logLoss: interval(draws.modelLogLoss), auc: interval(draws.modelAuc), accuracy: interval(draws.modelAccuracy) },
      baseline: { logLoss: interval(draws.baselineLogLoss), accuracy: interval(draws.baselineAccuracy) },
      logLossDifference: interval(draws.difference),
    },
  };
}
