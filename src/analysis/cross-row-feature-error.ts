// The guard's error for a derived feature whose SQL can read rows other than its own (a window function, a
// subquery, an aggregate, …): another row may be a later one, so its value may hold the future.

import { UsageError, withCode } from '../contract/index.js';

/** A derived feature's SQL reads beyond its own row (exit 2); the point-in-time helpers read history safely. */
export class CrossRowFeatureError extends withCode(UsageError, 'RDW_CROSS_ROW_FEATURE') {
  /** The derived feature's name. */
  readonly column: string;
  /** The construct refused, e.g. `the window function lead()` or `a scalar subquery`. */
  readonly construct: string;

  constructor(message: string, details: { column: string; construct: string }) {
    super(message, { option: details.column });
    this.column = details.column;
    this.construct = details.construct;
  }
}
