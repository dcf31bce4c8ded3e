// Typed errors of the notebook helpers.

import { RdwError, UsageError, withCode } from '../contract/index.js';

/** A display helper was called outside a running tslab kernel (exit 1). */
export class NotInKernelError extends withCode(RdwError, 'RDW_NOT_IN_KERNEL') {}

/** A bad argument of a notebook helper (exit 2). */
export class NotebookOptionError extends withCode(UsageError, 'RDW_NOTEBOOK_OPTION') {}
