// Typed errors of the research snapshots.

import { UsageError, withCode, type RdwErrorOptions } from '../../contract/index.js';

/** An argument of `researchSnapshots` out of range (names it). */
export class ResearchOptionError extends withCode(UsageError, 'RDW_RESEARCH_OPTION') {
  constructor(message: string, option: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option });
  }
}
