// The model scores' interval options (level, block length), checked in one place, with the sentence that
// says which intervals they give.

import {
  intervalCalibrationNote,
  AnalysisOptionError,
  MIN_INTERVAL_BLOCKS,
} from '../analysis/index.js';
import type { ResolvedModelInterval } from './model-score-intervals.js';
import { modellingMessages } from './messages.js';

/** Options of the model scores' intervals. */
export interface ModelIntervalOptions {
  /** Interval level, strictly between 0 and 1. Default 0.95. */
  confidence?: number;
  /** UTC days per jackknife block, an integer from 1 to 10,000. Default 1 (modelStudy: intervalBlockDays of the window). */
  blockDays?: number;
}

/** The options with defaults filled in. @throws AnalysisOptionError (option `interval.confidence` or `interval.blockDays`) */
export function resolveModelInterval(options: ModelIntervalOptions): ResolvedModelInterval {
  const confidence = options.confidence ?? 0.95;
  const blockDays = options.blockDays ?? 1;
  if (!(typeof confidence === 'number' && confidence > 0 && confidence < 1)) {
    throw new AnalysisOptionError(modellingMessages.badModelOption('interval.confidence', String(confidence), 'a number strictly between 0 and 1'), { option: 'interval.confidence' });
  }
  if (!(Number.isInteger(blockDays) && blockDays >= 1 && blockDays <= 10_000)) {
    throw new AnalysisOptionError(modellingMessages.badModelOption('interval.blockDays', String(blockDays), 'an integer from 1 to 10,000'), { option: 'interval.blockDays' });
  }
  return {
    method: 'block-jackknife',
    confidence,
    blockDays,
    minBlocks: MIN_INTERVAL_BLOCKS,
    description: modellingMessages.modelIntervalMethod(confidence, blockDays),
    calibration: intervalCalibrationNote('model'),
  };
}
