// Typed errors of the notebook helpers.

import { RdwError, UsageError } from '../contract/index.js';

/** A display helper was called outside a running tslab kernel (exit 1). */
export class NotInKernelError extends RdwError {
  override readonly code = 'RDW_NOT_IN_KERNEL' as const;
}

/** A bad argument of a notebook helper (exit 2). */
export class NotebookOptionError extends UsageError {
  override readonly code = 'RDW_NOTEBOOK_OPTION' as const;
}
