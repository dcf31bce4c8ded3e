// The naive baseline: every row gets the train fold's share of target 1 (the base rate).

import type { FeatureMatrix, Model, ScoreGeometry } from './model.js';

/** Predicts the train fold's base rate for every row; reads no feature. NaN before a fit on no rows. */
export class BaseRateModel implements Model {
  readonly name = 'base-rate';
  #rate = Number.NaN;

  /** The base rate of the last fit, 0..1. */
  get rate(): number {
    return this.#rate;
  }

  fit(_x: FeatureMatrix, y: Float64Array): void {
    let sum = 0;
    for (let i = 0; i < y.length; i += 1) sum += y[i]!;
    this.#rate = y.length > 0 ? sum / y.length : Number.NaN;
  }

  predict(x: FeatureMatrix): Float64Array {
    return new Float64Array(x.rows).fill(this.#rate);
  }

  /** One parameter, the log-odds of the rate: score y − p, information Σ p(1 − p). */
  scoreGeometry(_x: FeatureMatrix, y: Float64Array, p: Float64Array): ScoreGeometry {
    const scores = new Float64Array(y.length);
    let information = 0;
    for (let i = 0; i < y.length; i += 1) {
      scores[i] = y[i]! - p[i]!;
      information += p[i]! * (1 - p[i]!);
    }
    return { dimension: 1, scores, information: Float64Array.of(information) };
  }
}
