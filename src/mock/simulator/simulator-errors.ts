// Typed errors of the market simulator: a bad constructor option, a bad method argument.

import { UsageError, withCode, type RdwErrorOptions } from '../../contract/index.js';

/** A simulator option out of range or unparsable; `option` names it (`seed`, `now`, `days`, `schemaSince`). */
export class SimulatorOptionError extends withCode(UsageError, 'RDW_SIMULATOR_OPTION') {
  constructor(message: string, option: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option });
  }
}

/** A method argument that is not valid (an unknown symbol, a malformed day, a non-finite `asOf`). */
export class SimulatorArgumentError extends withCode(UsageError, 'RDW_SIMULATOR_ARGUMENT') {
  constructor(message: string, argument: string, options: RdwErrorOptions = {}) {
    super(message, { ...options, option: argument });
  }
}
