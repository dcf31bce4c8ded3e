// The baseline model: L2-regularised logistic regression on features standardised with the train fold's
// means and standard deviations, fitted by Newton's method (IRLS) with ml-matrix's Cholesky solve.

import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { AnalysisOptionError } from '../analysis/index.js';
import type { FeatureMatrix, Model, ScoreGeometry } from './model.js';
import { modellingMessages } from './messages.js';

/** Options of LogisticRegression. */
export interface LogisticRegressionOptions {
  /**
   * L2 penalty λ on the standardised coefficients (the intercept is not penalised); the fit minimises
   * Σ log loss + (λ/2)·‖β‖². Default 1: scikit-learn's LogisticRegression default (C = 1/λ = 1).
   */
  l2?: number;
  /** Newton steps at most. Default 100. */
  maxIterations?: number;
  /** Converged when the largest Newton step on a coefficient is below this. Default 1e-10. */
  tolerance?: number;
}

/** The fitted coefficients. */
export interface LogisticCoefficients {
  readonly intercept: number;
  /** Per feature, on the standardised scale (per train-fold standard deviation). */
  readonly standardised: Float64Array;
  /** Per feature, on the original scale: standardised / sd (intercept adjusted accordingly). */
  readonly original: Float64Array;
  readonly interceptOriginal: number;
  /** Train-fold means and standard deviations (population; a constant column gets 1). */
  readonly means: Float64Array;
  readonly scales: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

/** Binary logistic regression with an L2 penalty; deterministic (no randomness, fixed summation order). */
export class LogisticRegression implements Model {
  readonly name = 'logistic-l2';
  readonly l2: number;
  readonly maxIterations: number;
  readonly tolerance: number;
  #fitted: LogisticCoefficients | undefined;

  constructor(options: LogisticRegressionOptions = {}) {
    this.l2 = checkNumber('l2', options.l2 ?? 1, 0);
    this.maxIterations = Math.floor(checkNumber('maxIterations', options.maxIterations ?? 100, 1));
    this.tolerance = checkNumber('tolerance', options.tolerance ?? 1e-10, 0);
  }

  /** The coefficients of the last fit. @throws AnalysisOptionError before any fit. */
  get coefficients(): LogisticCoefficients {
    if (!this.#fitted) throw new AnalysisOptionError(modellingMessages.modelNotFitted(this.name), { option: 'fit' });
    return this.#fitted;
  }

  fit(x: FeatureMatrix, y: Float64Array): void {
    const { rows: n, columns: p, values } = x;
    if (y.length !== n) throw new AnalysisOptionError(modellingMessages.modelLengthMismatch(n, y.length), { option: 'y' });
    // 1. Standardise with this (train) fold's statistics only.
    const means = new Float64Array(p);
    const scales = new Float64Array(p);
    for (let j = 0; j < p; j += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += values[i * p + j]!;
      const mean = n > 0 ? sum / n : 0;
      let squares = 0;
      for (let i = 0; i < n; i += 1) squares += (values[i * p + j]! - mean) ** 2;
      const sd = n > 0 ? Math.sqrt(squares / n) : 0;
      means[j] = mean;
      scales[j] = sd > 0 ? sd : 1;
    }
    const z = new Float64Array(n * p);
    for (let i = 0; i < n; i += 1) for (let j = 0; j < p; j += 1) z[i * p + j] = (values[i * p + j]! - means[j]!) / scales[j]!;

    // 2. Newton's method on Σ loss + (λ/2)‖β‖², coefficient 0 = intercept. One pass over the rows gives the
    // objective, gradient and Hessian at a point; a step that raises the objective is halved.
    let beta = new Float64Array(p + 1);
    let state = this.#pass(z, y, n, p, beta);
    let iterations = 0;
    let converged = false;
    while (iterations < this.maxIterations && !converged) {
      iterations += 1;
      const step = solve(state.hessian, state.gradient, p + 1);
      let scale = 1;
      let next = beta;
      let nextState = state;
      for (let halving = 0; halving < 30; halving += 1) {
        next = beta.map((value, k) => value - scale * step[k]!);
        nextState = this.#pass(z, y, n, p, next);
        if (nextState.objective <= state.objective + 1e-12 * Math.abs(state.objective)) break;
        scale /= 2;
      }
      let largest = 0;
      for (let k = 0; k <= p; k += 1) largest = Math.max(largest, Math.abs(next[k]! - beta[k]!));
      beta = next;
      state = nextState;
      converged = largest < this.tolerance;
    }

    // 3. Coefficients on both scales.
    const standardised = beta.slice(1);
    const original = standardised.map((value, j) => value / scales[j]!);
    let interceptOriginal = beta[0]!;
    for (let j = 0; j < p; j += 1) interceptOriginal -= original[j]! * means[j]!;
    this.#fitted = Object.freeze({ intercept: beta[0]!, standardised, original, interceptOriginal, means, scales, iterations, converged });
  }

  predict(x: FeatureMatrix): Float64Array {
    const fitted = this.coefficients;
    const { rows: n, columns: p, values } = x;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i += 1) {
      let eta = fitted.intercept;
      for (let j = 0; j < p; j += 1) eta += (fitted.standardised[j]! * (values[i * p + j]! - fitted.means[j]!)) / fitted.scales[j]!;
      out[i] = sigmoid(eta);
    }
    return out;
  }

  /**
   * Parameters: the intercept and one coefficient per feature on the original scale (so every fold's model shares
   * them). Score of a row (1, x)·(y − p), information Σ p(1 − p)·(1, x)(1, x)ᵀ; the L2 penalty is left out (λ = 1
   * against thousands of rows).
   */
  scoreGeometry(x: FeatureMatrix, y: Float64Array, p: Float64Array): ScoreGeometry {
    const { rows: n, columns: k, values } = x;
    const d = k + 1;
    const scores = new Float64Array(n * d);
    const information = new Float64Array(d * d);
    const row = new Float64Array(d);
    row[0] = 1;
    for (let i = 0; i < n; i += 1) {
      for (let j = 0; j < k; j += 1) row[j + 1] = values[i * k + j]!;
      const residual = y[i]! - p[i]!;
      const weight = p[i]! * (1 - p[i]!);
      for (let a = 0; a < d; a += 1) {
        scores[i * d + a] = row[a]! * residual;
        const wa = weight * row[a]!;
        for (let b = a; b < d; b += 1) information[a * d + b] = information[a * d + b]! + wa * row[b]!;
      }
    }
    for (let a = 0; a < d; a += 1) for (let b = 0; b < a; b += 1) information[a * d + b] = information[b * d + a]!;
    return { dimension: d, scores, information };
  }

  /** Objective, gradient and Hessian (with the penalty, and a 1e-12 ridge so the solve stays defined for λ = 0) at `beta`. */
  #pass(z: Float64Array, y: Float64Array, n: number, p: number, beta: Float64Array) {
    const d = p + 1;
    const gradient = new Float64Array(d);
    const hessian = new Float64Array(d * d);
    let objective = 0;
    for (let i = 0; i < n; i += 1) {
      const row = i * p;
      let eta = beta[0]!;
      for (let j = 0; j < p; j += 1) eta += beta[j + 1]! * z[row + j]!;
      const yi = y[i]!;
      // One exponential serves both (the same value sigmoid and the overflow-safe log(1 + e^eta) each compute).
      const e = Math.exp(-Math.abs(eta));
      // log(1 + e^eta) - y·eta, written to avoid overflow.
      objective += (eta > 0 ? eta + Math.log1p(e) : Math.log1p(e)) - yi * eta;
      const prob = eta >= 0 ? 1 / (1 + e) : e / (1 + e);
      const residual = prob - yi;
      const weight = prob * (1 - prob);
      gradient[0] = gradient[0]! + residual;
      hessian[0] = hessian[0]! + weight;
      for (let a = 0; a < p; a += 1) {
        const za = z[row + a]!;
        gradient[a + 1] = gradient[a + 1]! + residual * za;
        const wza = weight * za;
        hessian[a + 1] = hessian[a + 1]! + wza; // row 0, column a+1
        const base = (a + 1) * d + 1;
        for (let b = a; b < p; b += 1) hessian[base + b] = hessian[base + b]! + wza * z[row + b]!;
      }
    }
    let penalty = 0;
    for (let a = 1; a < d; a += 1) {
      penalty += beta[a]! ** 2;
      gradient[a] = gradient[a]! + this.l2 * beta[a]!;
      hessian[a * d + a] = hessian[a * d + a]! + this.l2;
      hessian[a * d] = hessian[a]!;
      for (let b = a + 1; b < d; b += 1) hessian[b * d + a] = hessian[a * d + b]!;
    }
    for (let a = 0; a < d; a += 1) hessian[a * d + a] = hessian[a * d + a]! + 1e-12;
    return { objective: objective + (this.l2 / 2) * penalty, gradient, hessian };
  }
}

function sigmoid(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}

function solve(hessian: Float64Array, gradient: Float64Array, d: number): Float64Array {
  const rows: number[][] = [];
  for (let a = 0; a < d; a += 1) rows.push(Array.from(hessian.subarray(a * d, a * d + d)));
  const solution = new CholeskyDecomposition(new Matrix(rows)).solve(Matrix.columnVector(Array.from(gradient)));
  return Float64Array.from(solution.to1DArray());
}

function checkNumber(option: string, value: number, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new AnalysisOptionError(modellingMessages.badModelOption(option, String(value), `a finite number >= ${min}`), { option });
  }
  return value;
}
