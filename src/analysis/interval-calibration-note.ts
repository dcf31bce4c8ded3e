// The sentence that says how well rdw's intervals are calibrated, from the generated figures of the last
// calibration run (interval-calibration.ts): the CLI, the reports and the notebooks print it under a study.

import { DEFAULT_SPLIT_METHOD, type CalibratedSplitMethod } from '../contract/index.js';
import { INTERVAL_CALIBRATION } from './interval-calibration.js';
import { analysisMessages } from './messages.js';

/** A cell of fewer shown intervals than this says too little to quote (e.g. "100% of 4"); the bench's overall range uses it too. */
export const MIN_QUOTED_INTERVALS = 30;

interface ModelCell {
  /** Fold rows against their estimand: the fold model's skill under its test days' conditions (docs/analysis.md). */
  readonly fold: number | null;
  readonly foldShown: number;
  readonly pooled: number | null;
  readonly pooledShown: number;
  /** Fold rows against the fold model's skill on other markets (not their estimand); absent in runs before 2026-11-27 b. */
  readonly foldFreshMarket?: number | null;
}

/** The model intervals' figures of one split method (the calibration bench's model cells). */
interface ModelFigures {
  readonly modelAuc: Readonly<Record<string, ModelCell>>;
  readonly modelLogLossDifference: Readonly<Record<string, ModelCell>>;
  readonly noSkillFoldsExcludingHalf: number | null;
}

/** What the calibration module holds, as far as the note reads it (the module is generated JSON). */
export interface CalibrationFigures {
  readonly markets: number;
  readonly lengths: readonly (ModelFigures & {
    readonly days: number;
    readonly eventDifference: Readonly<Record<string, { readonly coverage: number | null; readonly shown: number }>>;
    /** The same model figures on walk-forward splits; null or absent when the run measured none. */
    readonly walkForward?: ModelFigures | null;
  })[];
}

const FIGURES = INTERVAL_CALIBRATION as unknown as CalibrationFigures;

const range = (values: number[]): [number, number] | null => (values.length > 0 ? [Math.min(...values), Math.max(...values)] : null);

/** The model figures of a split per market length; none when the run did not measure that split. */
function modelFiguresOf(figures: CalibrationFigures, split: CalibratedSplitMethod): ModelFigures[] {
  return figures.lengths.flatMap((length) => {
    const model = split === 'walk-forward' ? length.walkForward : length;
    return model ? [model] : [];
  });
}

/**
 * Lowest and highest coverage of the shown intervals of one kind (model: fold rows against their estimand;
 * freshMarket: fold rows against other markets; pooled: pooled rows), over windows and market lengths; the model
 * kinds of one split method (default purged k-fold).
 */
export function calibratedCoverage(
  kind: 'event' | 'model' | 'freshMarket' | 'pooled',
  figures: CalibrationFigures = FIGURES,
  split: CalibratedSplitMethod = DEFAULT_SPLIT_METHOD,
): [number, number] | null {
  const values: number[] = [];
  if (kind === 'event') {
    for (const length of figures.lengths) {
      for (const cell of Object.values(length.eventDifference)) if (cell.shown >= MIN_QUOTED_INTERVALS && cell.coverage !== null) values.push(cell.coverage);
    }
    return range(values);
  }
  for (const model of modelFiguresOf(figures, split)) {
    for (const table of [model.modelAuc, model.modelLogLossDifference]) {
      for (const cell of Object.values(table)) {
        if (kind === 'model' && cell.foldShown >= MIN_QUOTED_INTERVALS && cell.fold !== null) values.push(cell.fold);
        if (kind === 'pooled' && cell.pooledShown >= MIN_QUOTED_INTERVALS && cell.pooled !== null) values.push(cell.pooled);
        if (kind === 'freshMarket' && cell.foldShown >= MIN_QUOTED_INTERVALS && cell.foldFreshMarket != null) values.push(cell.foldFreshMarket);
      }
    }
  }
  return range(values);
}

/**
 * One sentence: on how many simulated markets these intervals were measured, and what they did there. Event
 * study: the range of coverage. Model (of one split method, default purged k-fold): how often a no-skill model's
 * fold AUC interval excluded 0.5, the fold intervals' coverage of their estimand (the fold model's skill under its
 * test days' conditions) and, for comparison, of the fold model's skill on other markets (lower at 15m/1h:
 * docs/analysis.md says why), and the pooled rows' (corrected resampled t over the folds) when any were measured.
 * A split the run did not measure: the sentence that says no run has.
 */
export function intervalCalibrationNote(kind: 'event' | 'model', figures: CalibrationFigures = FIGURES, split: CalibratedSplitMethod = DEFAULT_SPLIT_METHOD): string {
  const days = figures.lengths.map((length) => length.days);
  const coverage = calibratedCoverage(kind, figures, split);
  if (kind === 'event') return analysisMessages.intervalCalibration(figures.markets, days, coverage);
  const noSkill = range(modelFiguresOf(figures, split).flatMap((model) => (model.noSkillFoldsExcludingHalf === null ? [] : [model.noSkillFoldsExcludingHalf])));
  return analysisMessages.modelIntervalCalibration(figures.markets, days, noSkill, coverage, calibratedCoverage('pooled', figures, split), calibratedCoverage('freshMarket', figures, split), split);
}
