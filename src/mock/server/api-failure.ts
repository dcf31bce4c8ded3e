// A refusal of the API as a value: status, code, message and the JSON error body of DESIGN.md 3.

import { API_ERROR_CODES, type ApiErrorBody, type ApiErrorCode } from '../../contract/index.js';

export interface ApiFailure {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly message: string;
  /** The offending query parameter (422). */
  readonly parameter?: string;
  /** Extra response headers, e.g. `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A failure with the status of its code (`API_ERROR_CODES`). */
export function apiFailure(
  code: ApiErrorCode,
  message: string,
  extra: { parameter?: string; headers?: Record<string, string> } = {},
): ApiFailure {
  return { status: API_ERROR_CODES[code], code, message, ...extra };
}

export function isApiFailure(value: unknown): value is ApiFailure {
  return typeof value === 'object' && value !== null && 'code' in value && 'status' in value && 'message' in value;
}

/** `{"error":{"status","code","message","parameter"?}}` as bytes. */
export function errorBodyBytes(failure: ApiFailure): Buffer {
  const body: ApiErrorBody = {
    error: {
      status: failure.status,
      code: failure.code,
      message: failure.message,
      ...(failure.parameter === undefined ? {} : { parameter: failure.parameter }),
    },
  };
  return Buffer.from(JSON.stringify(body));
}
