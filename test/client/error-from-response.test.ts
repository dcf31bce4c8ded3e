import { describe, expect, it } from 'vitest';
import { AuthError, LimitError, NotFoundError, RdwError, UsageError } from '../../src/contract/index.js';
import {
  ApiNotFoundError,
  ConflictError,
  ForbiddenError,
  RowQueryTooLargeError,
  ServiceUnavailableError,
  UnauthorizedError,
  UnexpectedResponseError,
  ValidationError,
} from '../../src/client/index.js';
import { apiErrorInfo, errorFromResponse } from '../../src/client/error-from-response.js';

const body = (status: number, code: string, parameter?: string) =>
  JSON.stringify({ error: { status, code, message: 'detail', ...(parameter ? { parameter } : {}) } });

describe('errorFromResponse', () => {
  it.each([
    [401, 'unauthorized', UnauthorizedError, AuthError, 'RDW_UNAUTHORIZED', 4],
    [403, 'plan_required', ForbiddenError, AuthError, 'RDW_FORBIDDEN', 4],
    [404, 'not_found', ApiNotFoundError, NotFoundError, 'RDW_API_NOT_FOUND', 6],
    [409, 'key_slots_full', ConflictError, RdwError, 'RDW_CONFLICT', 1],
    [413, 'query_too_large', RowQueryTooLargeError, LimitError, 'RDW_ROW_QUERY_TOO_LARGE', 5],
    [422, 'invalid_parameter', ValidationError, UsageError, 'RDW_API_VALIDATION', 2],
    [500, 'unavailable', ServiceUnavailableError, RdwError, 'RDW_SERVICE_UNAVAILABLE', 1],
    [405, 'method_not_allowed', UnexpectedResponseError, RdwError, 'RDW_UNEXPECTED_RESPONSE', 1],
  ] as const)('maps %i to its class, family, code and exit code', (status, code, Class, Family, rdwCode, exit) => {
    const error = errorFromResponse(status, apiErrorInfo(body(status, code, 'symbol')), { path: '/x', attempts: 1 });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(Family);
    expect(error.code).toBe(rdwCode);
    expect(error.exitCode).toBe(exit);
    expect((error as unknown as { status: number }).status).toBe(status);
  });

  it('maps a 413 on a download (not a row query) to the file being unavailable, not to a row query too large', () => {
    const error = errorFromResponse(413, apiErrorInfo(body(413, 'file_unavailable')), { path: '/download/abc/parquet', attempts: 1 });
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ code: 'RDW_SERVICE_UNAVAILABLE', exitCode: 1, status: 413 });
    expect(error.message).toBe('The API could not serve /download/abc/parquet (413: the file is unavailable or failed its own checksum); try again later, or report it to the API operator.');
    expect(errorFromResponse(413, apiErrorInfo('no json'), { path: '/rows', attempts: 1, rows: true })).toBeInstanceOf(RowQueryTooLargeError);
  });

  it('words a 409 as the service\'s own state: rdw only reads and never creates a key (the spec\'s only 409)', () => {
    // A second server's adversary (session 35): a 409 on /releases told the user to "free a key slot".
    const error = errorFromResponse(409, apiErrorInfo(body(409, 'busy')), { path: '/releases', attempts: 1 });
    expect(error.message).toBe(
      "The service answered /releases with 409 (conflict), which the spec gives only for creating a key when every key slot is used; rdw only reads, so it is the service's own state: try again later.",
    );
    expect(error.message).not.toContain('free a key slot');
  });

  it('keeps the offending parameter of a 422 and the API code of a 403', () => {
    const validation = errorFromResponse(422, apiErrorInfo(body(422, 'invalid_parameter', 'sample_type')), { path: '/rows', attempts: 1 });
    expect((validation as ValidationError).parameter).toBe('sample_type');
    const forbidden = errorFromResponse(403, apiErrorInfo(body(403, 'key_over_allowance')), { path: '/releases', attempts: 1 });
    expect((forbidden as ForbiddenError).apiCode).toBe('key_over_allowance');
  });

  it('still maps a status whose body is not the documented JSON', () => {
    const error = errorFromResponse(404, apiErrorInfo('<html>nope</html>'), { path: '/x', attempts: 1 });
    expect(error).toBeInstanceOf(ApiNotFoundError);
  });

  it("shows a 422's message and parameter with their control characters escaped (a terminal's escape codes)", () => {
    const text = JSON.stringify({ error: { status: 422, code: 'invalid_parameter', message: 'bad \u001b[2J\u001b[31mvalue', parameter: 'limit\u001b[31m' } });
    const error = errorFromResponse(422, apiErrorInfo(text), { path: '/v1/releases', attempts: 1 });
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.message).toContain('limit\\u001b[31m');
    expect(error.message).toContain('bad \\u001b[2J\\u001b[31mvalue');
  });
});
