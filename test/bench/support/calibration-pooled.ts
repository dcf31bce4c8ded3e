// Pooled intervals over several folds for records of a run made before evaluateModel showed them: the function
// evaluateModel's pooled row used then (correctedResampledInterval over the folds' scores, n_test/n_train of
// testToTrainRatio; today still the AUC's, and the Δ log loss's of a model without score geometry), applied to
// the recorded fold scores and row counts, so a saved run re-tallies (--from) as the code of its day printed it.

import { correctedResampledInterval, testToTrainRatio } from '../../../src/modelling/corrected-resampled-t.js';
import type { ModelRecord } from './calibration-measure.js';

const finite = (value: number | null) => (value === null ? Number.NaN : value);

/** The records with each pooled row's missing intervals filled from its folds; `recomputed` counts the rows filled. */
export function fillPooledOverFolds(models: readonly ModelRecord[], confidence = 0.95): { models: ModelRecord[]; recomputed: number } {
  const folds = new Map<string, ModelRecord[]>();
  const study = (r: ModelRecord) => `${r.seed}|${r.days}|${r.window}|${r.spec}`;
  for (const r of models) if (r.fold > 0) folds.set(study(r), [...(folds.get(study(r)) ?? []), r]);
  let recomputed = 0;
  const filled = models.map((r) => {
    const own = folds.get(study(r)) ?? [];
    if (r.fold !== 0 || r.overFolds !== undefined || own.length < 2 || own.some((f) => f.trainRows === undefined)) return r;
    const ratio = testToTrainRatio(own.map((f) => ({ rows: f.testRows, trainRows: f.trainRows })));
    const pair = (estimate: number, scores: number[], nullValue: number, bounds?: readonly [number, number]): [number, number] => {
      const interval = correctedResampledInterval(estimate, scores, ratio, { confidence, nullValue, ...(bounds ? { bounds } : {}) });
      return interval.kind === 'interval' ? [interval.low, interval.high] : [Number.NaN, Number.NaN];
    };
    recomputed += 1;
    return {
      ...r,
      aucInterval: pair(finite(r.auc), own.map((f) => finite(f.auc)), 0.5, [0, 1]),
      logLossInterval: pair(finite(r.logLossDifference), own.map((f) => finite(f.logLossDifference)), 0),
    };
  });
  return { models: filled, recomputed };
}
