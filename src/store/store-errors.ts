// The typed failures of the team store: a malformed store URL (exit 2), a store that cannot be reached or
// refuses (exit 1). Each carries the store's s3:// URL, never a credential.

import { RdwError, UsageError, withCode, type RdwErrorOptions } from '../base/index.js';

/** RDW_STORE_URL (or an `s3://` target) that is not `s3://bucket[/prefix]` (exit 2). */
export class StoreUrlError extends withCode(UsageError, 'RDW_STORE_URL') {}

/** Options of the store's request failures: the store at fault. */
export interface StoreErrorOptions extends RdwErrorOptions {
  /** The store's URL, `s3://bucket/prefix` (no credentials: a StoreUrl never holds any). */
  storeUrl?: string | undefined;
}

/** Base of the store's request failures (exit 1): carries the store's URL. */
export class StoreError extends RdwError {
  override readonly code: string = 'RDW_STORE';
  /** `s3://bucket/prefix`, when known. */
  readonly storeUrl: string | undefined;
  constructor(message: string, options: StoreErrorOptions = {}) {
    super(message, options);
    this.storeUrl = options.storeUrl;
  }
}

/** The store could not be reached: connection refused, DNS, timeout, a 5xx (exit 1). */
export class StoreUnavailableError extends withCode(StoreError, 'RDW_STORE_UNAVAILABLE') {}

/** The store answered and refused: access denied, no such bucket, a bad signature (exit 1). */
export class StoreRefusedError extends withCode(StoreError, 'RDW_STORE_REFUSED') {}

/** RDW_STORE_URL is set but @aws-sdk/client-s3 cannot be loaded (exit 1). */
export class StoreSdkMissingError extends withCode(RdwError, 'RDW_STORE_SDK_MISSING') {}
