// The interval of purged k-fold's pooled Δ log loss: the test-days jackknife plus the covariance it cannot see.
// Each fold model is trained on the other folds' test rows, so fold k's rows move model j (to first order, through
// the model's score) while fold j's rows test it: the error of the pooled score about the fitted models' own skill
// holds, for each pair of folds, the product of their score vectors twice (once per direction), and the jackknife,
// holding the models fixed, sees each once. For a model without skill that product is the whole error, so it is a
// quadratic form, not a normal variable: the interval takes the quantiles of its studentised pivot, simulated from
// the measured score covariance. Derivation, calibration and what was tried: docs/analysis.md.

import { EigenvalueDecomposition, Matrix, pseudoInverse } from 'ml-matrix';
import { AnalysisOptionError, type StudentTResult } from '../analysis/index.js';
import { randomStream } from '../base/index.js';
import type { ScoreGeometry } from './model.js';
import { modellingMessages } from './messages.js';

/** A cross-fold interval with its test, or why there is none. */
export type CrossFoldInterval = StudentTResult<'folds', 'too_few_folds' | 'too_few_blocks' | 'not_estimable' | 'no_variation'>;

/** One fold's test rows as crossFoldInterval reads them. */
export interface CrossFoldTestRows {
  /** The block of test days of each test row (any integers; rows of one block and fold are summed together). */
  readonly block: ArrayLike<number>;
  /** The fold model's and the baseline's score geometry on these rows, at their own predictions. */
  readonly model: ScoreGeometry;
  readonly baseline: ScoreGeometry;
}

/** Options of crossFoldInterval. */
export interface CrossFoldOptions {
  /** Interval level, strictly between 0 and 1. Default 0.95. */
  readonly confidence?: number;
  /** The value the p-value tests against. Default 0. */
  readonly nullValue?: number;
  /** Simulated draws of the pivot. Default 20,000 (the 2.5% quantile then moves by about 0.01 standard errors). */
  readonly draws?: number;
}

/**
 * The interval of a pooled Δ log loss (model − baseline, over every fold's test rows) about the fitted fold models'
 * own expected Δ log loss. With u the stacked score vectors (model's, baseline's) of a row, Ω their covariance per
 * row (from block sums, centred per fold), M = diag(H⁻¹, −h⁻¹) the models' inverse information per row, w_j a fold's
 * share of test rows and r_jk = n_k / (N − n_j) fold k's share of fold j's training rows:
 * V = V_test + Σ_{j<k} 2 w_j w_k r_jk r_kj tr((MΩ)²) / (n_j n_k), V_test the jackknife's variance. The interval is
 * estimate − [q_hi, q_lo] · √V with q the quantiles of the pivot (error / √V̂), simulated with fold score vectors
 * drawn from N(0, Ω / n_j), their jackknife variance and the first-order part the jackknife leaves
 * (V_test − 2 · its expected second-order part, at least 0); p is twice the smaller tail of the same pivot at the
 * null value (at least 1/draws), so the interval excludes it exactly when p < 1 − confidence. Deterministic (a fixed
 * random stream).
 * @param testRowsStandardError the pooled test-days jackknife's standard error (the fold models held fixed)
 * @param degreesOfFreedom that jackknife's (blocks − 1)
 */
export function crossFoldInterval(
  estimate: number,
  testRowsStandardError: number,
  degreesOfFreedom: number,
  folds: readonly CrossFoldTestRows[],
  options: CrossFoldOptions = {},
): CrossFoldInterval {
  const confidence = options.confidence ?? 0.95;
  const nullValue = options.nullValue ?? 0;
  const draws = options.draws ?? 20_000;
  if (!(confidence > 0 && confidence < 1)) throw new AnalysisOptionError(modellingMessages.badModelOption('confidence', String(confidence), 'a number strictly between 0 and 1'), { option: 'confidence' });
  if (!(Number.isInteger(draws) && draws >= 100)) throw new AnalysisOptionError(modellingMessages.badModelOption('draws', String(draws), 'an integer of at least 100'), { option: 'draws' });
  const j = folds.length;
  if (j < 2) return { kind: 'none', reason: 'too_few_folds', folds: j };
  if (!Number.isFinite(estimate) || !(testRowsStandardError >= 0) || !(degreesOfFreedom >= 1)) return { kind: 'none', reason: 'not_estimable', folds: j };
  const geometry = foldGeometry(folds);
  if (geometry === undefined) return { kind: 'none', reason: 'not_estimable', folds: j };
  const { sizes, total, metric, omega, blocksPerFold } = geometry;
  const mo = metric.mmul(omega);
  const traceSquare = mo.mmul(mo).trace();
  let crossVariance = 0;
  let seenVariance = 0;
  for (let a = 0; a < j; a += 1) {
    for (let b = 0; b < j; b += 1) {
      if (a === b) continue;
      const wa = sizes[a]! / total;
      const rab = sizes[b]! / (total - sizes[a]!);
      const rba = sizes[a]! / (total - sizes[b]!);
      const wb = sizes[b]! / total;
      const perPair = traceSquare / (sizes[a]! * sizes[b]!);
      seenVariance += wa * wa * rab * rab * perPair;
      if (a < b) crossVariance += 2 * wa * wb * rab * rba * perPair;
    }
  }
  const testVariance = testRowsStandardError ** 2;
  const variance = testVariance + crossVariance;
  if (!(variance > 0) || !Number.isFinite(variance)) return { kind: 'none', reason: 'no_variation', folds: j };
  const standardError = Math.sqrt(variance);
  // The first-order part: what the jackknife saw beyond its expected second-order part. The realised part scatters
  // widely (a few score directions), so twice the expectation is taken off: without skill this leaves about 0.
  const firstOrder = Math.max(0, testVariance - 2 * seenVariance);
  const pivot = simulatedPivot({ sizes, total, metric, omega, blocksPerFold, firstOrder, crossVariance, degreesOfFreedom, draws });
  // The tails hold k draws each, k = ⌈α·draws/2⌉: the interval excludes the null value exactly when fewer than k
  // draws lie at or beyond the observed pivot on its side, i.e. when p = 2 · that count / draws < α.
  const tail = Math.ceil(((1 - confidence) * draws) / 2);
  const lowQuantile = pivot[tail - 1]!;
  const highQuantile = pivot[draws - tail]!;
  const observed = (estimate - nullValue) / standardError;
  let below = 0;
  let above = 0;
  for (const value of pivot) {
    if (value <= observed) below += 1;
    if (value >= observed) above += 1;
  }
  return {
    kind: 'interval',
    low: estimate - highQuantile * standardError,
    high: estimate - lowQuantile * standardError,
    // No draw beyond it: p is below 1/draws, said as 1/draws (not 0).
    pValue: Math.min(1, Math.max(1, 2 * Math.min(below, above)) / draws),
    standardError,
    folds: j,
    degreesOfFreedom,
  };
}

interface FoldGeometry {
  readonly sizes: readonly number[];
  readonly total: number;
  /** diag(H⁻¹, −h⁻¹) per row: the model's and the baseline's inverse information. */
  readonly metric: Matrix;
  /** Covariance per row of the stacked score vectors, from (fold, block) sums centred by their fold's mean. */
  readonly omega: Matrix;
  readonly blocksPerFold: readonly number[];
}

function foldGeometry(folds: readonly CrossFoldTestRows[]): FoldGeometry | undefined {
  const dm = folds[0]!.model.dimension;
  const db = folds[0]!.baseline.dimension;
  const d = dm + db;
  if (folds.some((fold) => fold.model.dimension !== dm || fold.baseline.dimension !== db || fold.block.length === 0)) return undefined;
  const information = new Matrix(d, d);
  for (const fold of folds) {
    addInto(information, fold.model.information, 0);
    addInto(information, fold.baseline.information, dm);
  }
  // Every parameter on the scale of its information (a feature in dollars beside one in fractions): the forms below
  // do not change with the scale, the inverse's rounding does.
  const scale = Float64Array.from({ length: d }, (_, a) => (information.get(a, a) > 0 ? 1 / Math.sqrt(information.get(a, a)) : 1));
  const omega = new Matrix(d, d);
  const sizes: number[] = [];
  const blocksPerFold: number[] = [];
  let groups = 0;
  for (const fold of folds) {
    const rows = fold.block.length;
    sizes.push(rows);
    const sums = new Map<number, { sum: Float64Array; rows: number }>();
    const mean = new Float64Array(d);
    for (let i = 0; i < rows; i += 1) {
      const key = fold.block[i]!;
      let group = sums.get(key);
      if (!group) sums.set(key, (group = { sum: new Float64Array(d), rows: 0 }));
      group.rows += 1;
      for (let a = 0; a < dm; a += 1) group.sum[a] = group.sum[a]! + scale[a]! * fold.model.scores[i * dm + a]!;
      for (let a = 0; a < db; a += 1) group.sum[dm + a] = group.sum[dm + a]! + scale[dm + a]! * fold.baseline.scores[i * db + a]!;
    }
    for (const { sum } of sums.values()) for (let a = 0; a < d; a += 1) mean[a] = mean[a]! + sum[a]! / rows;
    for (const { sum, rows: n } of sums.values()) {
      for (let a = 0; a < d; a += 1) {
        const da = sum[a]! - n * mean[a]!;
        for (let b = 0; b < d; b += 1) omega.set(a, b, omega.get(a, b) + da * (sum[b]! - n * mean[b]!));
      }
    }
    blocksPerFold.push(sums.size);
    groups += sums.size;
  }
  const total = sizes.reduce((sum, n) => sum + n, 0);
  // Each fold's mean takes one degree of freedom from its blocks.
  if (groups <= folds.length) return undefined;
  omega.mul(groups / (groups - folds.length) / total);
  const scaled = new Matrix(d, d);
  for (let a = 0; a < d; a += 1) for (let b = 0; b < d; b += 1) scaled.set(a, b, information.get(a, b) * scale[a]! * scale[b]!);
  const metric = new Matrix(d, d);
  // Per row: the information summed over the test rows, over N.
  metric.setSubMatrix(pseudoInverse(scaled.subMatrix(0, dm - 1, 0, dm - 1).div(total)), 0, 0);
  metric.setSubMatrix(pseudoInverse(scaled.subMatrix(dm, d - 1, dm, d - 1).div(total)).mul(-1), dm, dm);
  if (!isFiniteMatrix(metric) || !isFiniteMatrix(omega)) return undefined;
  return { sizes, total, metric, omega, blocksPerFold };
}

interface PivotInputs extends FoldGeometry {
  readonly firstOrder: number;
  readonly crossVariance: number;
  readonly degreesOfFreedom: number;
  readonly draws: number;
}

/**
 * Sorted draws of (error / √V̂): fold score vectors G_j ~ N(0, Ω / n_j); fold j's training shift c_j = Σ_k r_jk G_k;
 * its error −G_jᵀMc_j and its fitted model's own skill shift +½ c_jᵀMc_j (both fold means enter the pooled
 * jackknife); the first-order part a normal variable whose jackknife variance scatters as χ²(df)/df.
 */
function simulatedPivot(inputs: PivotInputs): Float64Array {
  const { sizes, total, metric, omega, blocksPerFold, firstOrder, crossVariance, degreesOfFreedom, draws } = inputs;
  const j = sizes.length;
  const d = omega.rows;
  const root = symmetricRoot(omega).to2DArray();
  const m = metric.to2DArray();
  const o = omega.to2DArray();
  const random = randomStream(1, 'cross-fold pivot', j, d);
  const scores = Array.from({ length: j }, () => new Float64Array(d));
  const shift = new Float64Array(d);
  const shiftMetric = new Float64Array(d);
  const normals = new Float64Array(d);
  const foldMeans = new Float64Array(j);
  const out = new Float64Array(draws);
  const wilsonHilferty = 2 / (9 * degreesOfFreedom);
  for (let draw = 0; draw < draws; draw += 1) {
    for (let f = 0; f < j; f += 1) {
      for (let a = 0; a < d; a += 1) normals[a] = random.normal();
      const scale = 1 / Math.sqrt(sizes[f]!);
      const g = scores[f]!;
      for (let a = 0; a < d; a += 1) {
        let value = 0;
        for (let b = 0; b < d; b += 1) value += root[a]![b]! * normals[b]!;
        g[a] = value * scale;
      }
    }
    let error = Math.sqrt(firstOrder) * random.normal();
    // χ²(df)/df by Wilson–Hilferty: the jackknife's estimate of the first-order variance scatters like it.
    const chi = Math.max(0, 1 - wilsonHilferty + random.normal() * Math.sqrt(wilsonHilferty)) ** 3;
    let jackknife = firstOrder * chi;
    let pooledMean = 0;
    for (let f = 0; f < j; f += 1) {
      shift.fill(0);
      for (let k = 0; k < j; k += 1) {
        if (k === f) continue;
        const share = sizes[k]! / (total - sizes[f]!);
        const g = scores[k]!;
        for (let a = 0; a < d; a += 1) shift[a] = shift[a]! + share * g[a]!;
      }
      for (let a = 0; a < d; a += 1) {
        let value = 0;
        for (let b = 0; b < d; b += 1) value += m[a]![b]! * shift[b]!;
        shiftMetric[a] = value;
      }
      const g = scores[f]!;
      let testNoise = 0;
      let ownSkill = 0;
      let seen = 0;
      for (let a = 0; a < d; a += 1) {
        testNoise -= g[a]! * shiftMetric[a]!;
        ownSkill += 0.5 * shift[a]! * shiftMetric[a]!;
        for (let b = 0; b < d; b += 1) seen += shiftMetric[a]! * o[a]![b]! * shiftMetric[b]!;
      }
      const w = sizes[f]! / total;
      error += w * testNoise;
      jackknife += (w * w * seen) / sizes[f]!;
      foldMeans[f] = testNoise + ownSkill;
      pooledMean += w * foldMeans[f]!;
    }
    // The pooled jackknife is centred on the pooled mean, so the folds' mean differences enter it too.
    for (let f = 0; f < j; f += 1) jackknife += (sizes[f]! ** 2 / (blocksPerFold[f]! * total * total)) * (foldMeans[f]! - pooledMean) ** 2;
    out[draw] = error / Math.sqrt(jackknife + crossVariance);
  }
  return out.sort();
}

/** The symmetric square root of a covariance matrix (negative eigenvalues from rounding taken as 0). */
function symmetricRoot(matrix: Matrix): Matrix {
  const eigen = new EigenvalueDecomposition(matrix, { assumeSymmetric: true });
  const vectors = eigen.eigenvectorMatrix;
  const roots = Matrix.diag(eigen.realEigenvalues.map((value) => Math.sqrt(Math.max(0, value))));
  return vectors.mmul(roots).mmul(vectors.transpose());
}

/** Adds a d × d row-major block into `target` at (offset, offset). */
function addInto(target: Matrix, values: Float64Array, offset: number): void {
  const d = Math.round(Math.sqrt(values.length));
  for (let a = 0; a < d; a += 1) for (let b = 0; b < d; b += 1) target.set(offset + a, offset + b, target.get(offset + a, offset + b) + values[a * d + b]!);
}

function isFiniteMatrix(matrix: Matrix): boolean {
  return matrix.to1DArray().every(Number.isFinite);
}
