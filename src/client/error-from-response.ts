// Maps an API error response (status + `{"error":{...}}` body) to the client's typed error.

import { parseJsonText, printableText } from '../base/index.js';
import { isApiErrorBody } from '../contract/index.js';
import {
  ApiNotFoundError,
  ConflictError,
  ForbiddenError,
  RowQueryTooLargeError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationError,
} from './client-errors.js';
import type { ResponseBody } from './transport-response.js';
import { discardBody } from './discard-body.js';
import { messages } from './messages.js';
import { errorCodeOf } from './too-many-requests.js';
import type { RdwError } from '../contract/index.js';

/** Most characters of an error body read (the rest is dropped). */
const ERROR_BODY_LIMIT = 64 * 1024;

/** The parts of an error body the client uses. */
export interface ApiErrorInfo {
  code: string | undefined;
  message: string | undefined;
  parameter: string | undefined;
}

/** Reads the API error body leniently: a body that is not the documented shape yields undefined fields. */
export function apiErrorInfo(text: string): ApiErrorInfo {
  try {
    const body: unknown = parseJsonText(text);
    if (isApiErrorBody(body)) {
      // A null (or any non-string) message or parameter is an absent one (the spec: "missing values are null or absent").
      // Control characters (a terminal's escape codes) are shown escaped: these words end up in rdw's sentences.
      const text = (value: unknown) => (typeof value === 'string' ? printableText(value, 500) : undefined);
      return { code: printableText(body.error.code, 120), message: text(body.error.message), parameter: text(body.error.parameter) };
    }
  } catch {
    // not JSON: fall through
  }
  return { code: undefined, message: undefined, parameter: undefined };
}

/**
 * Reads an error response's body (at most ERROR_BODY_LIMIT characters, then dropped): the documented
 * fields, else the code of any common shape; the message passed through `redact` (the key removed).
 */
export async function readErrorInfo(body: ResponseBody, redact: (text: string) => string): Promise<ApiErrorInfo> {
  let text = '';
  try {
    for await (const chunk of body) {
      text += Buffer.from(chunk as Uint8Array).toString('utf8');
      if (text.length > ERROR_BODY_LIMIT) break;
    }
  } catch {
    // an unreadable error body still has its status
  }
  await discardBody(body);
  const info = apiErrorInfo(text);
  return {
    ...info,
    code: info.code ?? errorCodeOf(text),
    message: info.message === undefined ? undefined : redact(info.message),
  };
}

/** The typed error for a non-2xx status other than 429 (handled by the transport's retry loop). */
export function errorFromResponse(
  status: number,
  info: ApiErrorInfo,
  context: { path: string; releaseId?: string; attempts: number; keyWithheld?: boolean; rows?: boolean },
): RdwError {
  const { path } = context;
  const apiCode = info.code;
  switch (status) {
    case 401:
      // From a host a redirect led to, where the key was not sent: a setting to fix, not the key.
      return context.keyWithheld === true
        ? new UnauthorizedError(messages.unauthorizedKeyWithheld(path), { apiCode, keyWithheld: true })
        : new UnauthorizedError(messages.unauthorized(path), { apiCode });
    case 403:
      return new ForbiddenError(messages.forbidden(path, apiCode), { apiCode });
    case 404:
      return new ApiNotFoundError(messages.notFound(path));
    case 409:
      return new ConflictError(messages.conflict(path));
    case 413:
      // The spec's 413: an oversized row query, or a file unavailable or failing its checksum (a download).
      if (apiCode === 'query_too_large' || context.rows === true) return new RowQueryTooLargeError(messages.rowQueryTooLarge(context.releaseId ?? path, status), { status, apiCode });
      return new ServiceUnavailableError(messages.fileUnavailable(path, status), { status, apiCode });
    case 422:
      return new ValidationError(messages.validation(path, info.parameter, info.message ?? apiCode ?? 'invalid parameter'), {
        ...(info.parameter === undefined ? {} : { parameter: info.parameter }),
        apiCode,
      });
    default:
      if (status >= 500) return new ServiceUnavailableError(messages.serviceUnavailable(path, context.attempts), { status, apiCode });
      return new UnexpectedResponseError(messages.unexpectedStatus(path, status), { status, apiCode });
  }
}
