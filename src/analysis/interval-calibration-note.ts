// The sentence that says how well rdw's intervals are calibrated, from the generated figures of the last
// calibration run (interval-calibration.ts): the CLI, the reports and the notebooks print it under a study.

import { INTERVAL_CALIBRATION } from './interval-calibration.js';
import { analysisMessages } from './messages.js';

/** What the calibration module holds, as far as the note reads it (the module is generated JSON). */
interface CalibrationFigures {
  readonly markets: number;
  readonly lengths: readonly {
    readonly days: number;
    readonly eventDifference: Readonly<Record<string, { readonly coverage: number | null; readonly shown: number }>>;
    readonly modelAuc: Readonly<Record<string, { readonly fold: number | null; readonly pooled: number | null }>>;
    readonly modelLogLossDifference: Readonly<Record<string, { readonly fold: number | null; readonly pooled: number | null }>>;
  }[];
}

/** Lowest and highest coverage of the shown intervals of one kind, over every window and market length. */
export function calibratedCoverage(kind: 'event' | 'model', figures: CalibrationFigures = INTERVAL_CALIBRATION as CalibrationFigures): [number, number] | null {
  const values: number[] = [];
  for (const length of figures.lengths) {
    if (kind === 'event') {
      for (const cell of Object.values(length.eventDifference)) if (cell.shown > 0 && cell.coverage !== null) values.push(cell.coverage);
    } else {
      for (const table of [length.modelAuc, length.modelLogLossDifference]) {
        for (const cell of Object.values(table)) for (const value of [cell.fold, cell.pooled]) if (typeof value === 'number') values.push(value);
      }
    }
  }
  return values.length > 0 ? [Math.min(...values), Math.max(...values)] : null;
}

/**
 * One sentence: on how many simulated markets the block-jackknife intervals of this kind were measured and the
 * range of their coverage (e.g. "95% intervals calibrated on 50 simulated markets (60 and 180 days): they held the
 * truth in 93.3–96.7% of cases; docs/analysis.md").
 */
export function intervalCalibrationNote(kind: 'event' | 'model', figures: CalibrationFigures = INTERVAL_CALIBRATION as CalibrationFigures): string {
  const range = calibratedCoverage(kind, figures);
  return analysisMessages.intervalCalibration(figures.markets, figures.lengths.map((length) => length.days), range);
}
