// Typed errors of the market simulator: a bad constructor option, a bad method argument.

import { UsageError, type RdwErrorOptions } from '../../contract/index.js';

/** A simulator option out of range or unparsable; `option` names it (`seed`, `now`, `days`, `schemaSince`). */
export class SimulatorOptionError extends UsageError {
  override readonly code = 'RDW_SIMULATOR_OPTION' as const;
  constructor(message: string, option: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option });
  }
}

/** A method argument that is not valid (an unknown symbol, a malformed day, a non-finite `asOf`). */
export class SimulatorArgumentError extends UsageError {
  override readonly code = 'RDW_SIMULATOR_ARGUMENT' as const;
  constructor(message: string, argument: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option: argument });
  }
}
