// What a model study's chart and report say about it in words: the split, the target, the intervals.

import type { ModelEvaluation, ModelStudyResult, ResolvedModelSplit } from '../modelling/index.js';
import type { ModelScoreChartOptions } from '../charts/index.js';

const count = (value: number) => value.toLocaleString('en-US');

/** A duration in the largest whole unit: `1 h`, `90 min`, `2 d`, `45 s` (fractional hours beyond). */
export function durationText(seconds: number): string {
  if (seconds === 0) return '0 s';
  if (seconds % 86_400 === 0) return `${count(seconds / 86_400)} d`;
  if (seconds % 3_600 === 0) return `${count(seconds / 3_600)} h`;
  if (seconds % 60 === 0) return `${count(seconds / 60)} min`;
  return seconds < 3_600 ? `${count(seconds)} s` : `${(seconds / 3_600).toFixed(1)} h`;
}

/**
 * The split in a few words: `purged k-fold, 5 folds, embargo 1 h`, `walk-forward, 5 folds of 3 test days`,
 * `row k-fold (naive, leaks), 5 folds`.
 */
export function modelSplitText(split: ResolvedModelSplit): string {
  const folds = `${split.folds} ${split.folds === 1 ? 'fold' : 'folds'}`;
  if (split.method === 'walk-forward') {
    const train = split.trainDays === undefined ? 'expanding' : `rolling ${split.trainDays} train ${split.trainDays === 1 ? 'day' : 'days'}`;
    return `walk-forward (${train}), ${folds} of ${split.testDays} test ${split.testDays === 1 ? 'day' : 'days'}`;
  }
  if (split.method === 'row-k-fold') return `row k-fold (naive, leaks; seed ${split.seed}), ${folds}`;
  return `purged k-fold, ${folds}, embargo ${durationText(split.embargoSeconds)}`;
}

/** What the intervals are: the evaluation's description, e.g. `95% block-jackknife t intervals over 2-day blocks of test days (G−1 df)`. */
export function modelInterval(evaluation: Pick<ModelEvaluation, 'interval'>): string {
  return evaluation.interval.description;
}

/** The chart's words for a model study: target and window, split, model vs baseline, interval. */
export function modelScoreChartOptions(result: ModelStudyResult): ModelScoreChartOptions {
  return {
    target: `target ${result.target} at ${result.window}`,
    split: modelSplitText(result.split),
    model: `${result.evaluation.model} vs ${result.evaluation.baseline}`,
    interval: modelInterval(result.evaluation),
  };
}
