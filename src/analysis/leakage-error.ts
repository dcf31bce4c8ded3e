// The leakage guard's error: a label (or a feature derived from one) was offered as a predictor.

import { UsageError, withCode } from '../contract/index.js';

/** A label column, or a feature derived from one, was used as a predictor (exit 2). */
export class LeakageError extends withCode(UsageError, 'RDW_LABEL_LEAKAGE') {
  /** The offending column as given (a label or a derived feature's name). */
  readonly column: string;
  /** The outcome window of the label behind it, e.g. `1h`. */
  readonly window: string;
  /** The label field the column is or derives from. */
  readonly label: string;

  constructor(message: string, details: { column: string; window: string; label: string }) {
    super(message, { option: details.column });
    this.column = details.column;
    this.window = details.window;
    this.label = details.label;
  }
}
