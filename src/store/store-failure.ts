// What an S3 SDK failure means for rdw: a missing object (an answer, not a failure), a failed condition, a
// store that cannot be reached (StoreUnavailableError) or that refused (StoreRefusedError). The detail
// names the status and the S3 error code only: never a credential, signature or request header.

import { storeMessages } from './messages.js';
import { StoreError, StoreRefusedError, StoreUnavailableError } from './store-errors.js';
import type { StoreUrl } from './store-url.js';

interface SdkFailure {
  name?: unknown;
  code?: unknown;
  Code?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as SdkFailure).$metadata?.httpStatusCode : undefined;
}

function nameOf(error: unknown): string {
  if (typeof error !== 'object' || error === null) return String(error);
  const source = error as SdkFailure;
  for (const value of [source.Code, source.code, source.name]) if (typeof value === 'string' && value !== '' && value !== 'Error') return value;
  return 'unknown error';
}

/** A 404 NoSuchKey (or HEAD's bare 404 NotFound): the object is not there. */
export function isMissingObject(error: unknown): boolean {
  const name = nameOf(error);
  return name === 'NoSuchKey' || (statusOf(error) === 404 && name !== 'NoSuchBucket');
}

/** A 412 (or 409 ConditionalRequestConflict): a conditional write found the key taken. */
export function isPreconditionFailed(error: unknown): boolean {
  const status = statusOf(error);
  return status === 412 || (status === 409 && nameOf(error) === 'ConditionalRequestConflict');
}

/** The store does not implement `If-None-Match` on PUT (501 NotImplemented, or a 400 naming the header). */
export function isConditionUnsupported(error: unknown): boolean {
  const status = statusOf(error);
  const name = nameOf(error);
  return status === 501 || name === 'NotImplemented' || (status === 400 && /NotImplemented|InvalidArgument|InvalidRequest/.test(name));
}

/** The typed StoreError an SDK failure stands for (a StoreError is returned as it is). */
export function storeFailure(error: unknown, url: StoreUrl): StoreError {
  if (error instanceof StoreError) return error;
  const status = statusOf(error);
  const name = nameOf(error);
  const options = { cause: error, storeUrl: url.href };
  if (name === 'CredentialsProviderError') return new StoreRefusedError(storeMessages.noCredentials(url.href), options);
  if (status === undefined || status >= 500 || status === 408 || status === 429) {
    const detail = status === undefined ? name : `HTTP ${status} ${name}`;
    return new StoreUnavailableError(storeMessages.storeUnavailable(url.href, detail), options);
  }
  return new StoreRefusedError(storeMessages.storeRefused(url.href, `HTTP ${status} ${name}`), options);
}

/** What a sentence about a failed request names: `HTTP 403 AccessDenied`, or the SDK's error name when no answer came. */
export function storeFailureDetail(error: unknown): string {
  const status = statusOf(error);
  return status === undefined ? nameOf(error) : `HTTP ${status} ${nameOf(error)}`;
}
