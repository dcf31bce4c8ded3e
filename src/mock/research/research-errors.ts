// Typed errors of the research snapshots.

import { UsageError, type RdwErrorOptions } from '../../contract/index.js';

/** An argument of `researchSnapshots` out of range (names it). */
export class ResearchOptionError extends UsageError {
  override readonly code = 'RDW_RESEARCH_OPTION' as const;
  constructor(message: string, option: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option });
  }
}
