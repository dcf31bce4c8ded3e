// Typed errors of the workbench layer.

import { AuthError, UsageError } from '../contract/index.js';

/** RDW_BASE_URL is set but RDW_API_KEY is not (exit 4). */
export class ApiKeyMissingError extends AuthError {
  override readonly code = 'RDW_API_KEY_MISSING' as const;
}

/** A bad option of a workbench or study call (exit 2). */
export class WorkbenchOptionError extends UsageError {
  override readonly code = 'RDW_WORKBENCH_OPTION' as const;
}
