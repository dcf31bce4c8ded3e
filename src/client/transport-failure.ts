// What a low-level failure of a request means: an undici, socket, decoder or local disk error as one of
// the client's typed errors, its cause a detached copy with the key redacted.

import { environmentErrorOf, type RdwError } from '../contract/index.js';
import { AbortedError, NetworkError, TimeoutError, UnexpectedResponseError } from './client-errors.js';
import type { ResolvedClientOptions } from './client-options.js';
import { messages } from './messages.js';
import { DEADLINE_PASSED_CODE } from './request-deadline.js';
import { safeCause } from './safe-cause.js';

/** zlib and brotli decoder codes: a body that does not decode. */
const DECODE_ERROR_CODE = /^Z_|^ERR__|BROTLI/;

/** Codes of a local write that failed (a full disk, a read-only or denied folder): this machine's, not the network's. */
const LOCAL_WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR']);

/**
 * An undici/socket/decoder failure on `path` as NetworkError, TimeoutError (`timeouts` name the limit, ms;
 * a passed RequestDeadline is phase 'total'),
 * AbortedError or (a body that does not decode) UnexpectedResponseError; a local write failure as its
 * EnvironmentError. `redact` removes the key from the copied cause.
 */
export function transportFailure(
  error: unknown,
  path: string,
  timeouts: ResolvedClientOptions['timeouts'],
  redact: (text: string) => string,
): RdwError {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const cause = safeCause(error, redact);
  if (typeof code === 'string' && LOCAL_WRITE_CODES.has(code)) {
    return environmentErrorOf(error) ?? new NetworkError(messages.network(path, failureWords(error)), { cause });
  }
  if (code === DEADLINE_PASSED_CODE) {
    const deadlineMs = (error as { deadlineMs?: unknown }).deadlineMs;
    return new TimeoutError(messages.totalTimeout(path, typeof deadlineMs === 'number' ? deadlineMs : timeouts.totalMs), { phase: 'total', cause });
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new TimeoutError(messages.headersTimeout(path, timeouts.headersMs), { phase: 'headers', cause });
  }
  if (code === 'UND_ERR_BODY_TIMEOUT') {
    return new TimeoutError(messages.bodyTimeout(path, timeouts.bodyMs), { phase: 'body', cause });
  }
  if (code === 'UND_ERR_ABORTED' || name === 'AbortError') return new AbortedError(messages.aborted(path), { cause });
  if (typeof code === 'string' && DECODE_ERROR_CODE.test(code)) {
    return new UnexpectedResponseError(messages.badEncodedBody(path, code), { cause });
  }
  return new NetworkError(messages.network(path, failureWords(error)), { cause });
}

/** A socket or undici failure in a few words: common codes said in words (the code kept for a search). */
export function failureWords(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const detail = typeof code === 'string' ? code : typeof name === 'string' ? name : 'connection error';
  const words = NETWORK_WORDS[detail];
  return words === undefined ? detail : `${words}, ${detail}`;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the other side',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stalled',
};
