// HTTP error statuses and codes of the API (spec: "Errors"; body shape: DESIGN.md section 3).

export const API_ERROR_CODES = {
  unauthorized: 401,
  plan_required: 403,
  key_over_allowance: 403,
  not_found: 404,
  method_not_allowed: 405,
  key_slots_full: 409,
  query_too_large: 413,
  range_not_satisfiable: 416,
  invalid_parameter: 422,
  rate_limited: 429,
  daily_byte_limit: 429,
  unavailable: 503,
} as const;
export type ApiErrorCode = keyof typeof API_ERROR_CODES;

/** Error response body: `{"error":{"status":422,"code":"invalid_parameter","message":"...","parameter":"symbol"}}`. */
export interface ApiErrorBody {
  error: {
    status: number;
    code: ApiErrorCode;
    message: string;
    /** The offending query parameter, for 422. */
    parameter?: string;
  };
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  const error = (value as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  return typeof error === 'object' && error !== null && typeof error.status === 'number' && typeof error.code === 'string';
}
