// Query-string rules: no key in the URL, no unknown or repeated parameter, and the Row and /releases
// parameter tables of the spec (ROW_QUERY, RELEASES_QUERY), integers written as plain decimal digits.

import { API_KEY_PREFIX, ROW_QUERY, RELEASES_QUERY, isMarketSymbol, type IntegerParameter, type MarketSymbol, type SampleType } from '../../contract/index.js';
import { apiFailure, type ApiFailure } from './api-failure.js';
import { messages } from './messages.js';

/** Query parameter names that carry a credential: any of them is a key in the URL (401). */
const KEY_PARAMETERS = new Set(['key', 'api_key', 'apikey', 'api-key', 'token', 'access_token', 'auth', 'authorization', 'bearer', 'secret', 'password']);

const DIGITS = /^(0|[1-9][0-9]{0,8})$/;

/**
 * Parses a raw query string (without `?`). A parameter named like a credential, or any value starting
 * with the key prefix, is a 401; then an unknown or repeated parameter is a 422.
 */
export function readQuery(raw: string, allowed: readonly string[]): Map<string, string> | ApiFailure {
  const params = new Map<string, string>();
  if (raw.length === 0) return params;
  const entries = [...new URLSearchParams(raw)];
  for (const [name, value] of entries) {
    if (KEY_PARAMETERS.has(name.toLowerCase()) || value.startsWith(API_KEY_PREFIX) || name.startsWith(API_KEY_PREFIX)) {
      return apiFailure('unauthorized', messages.keyInQuery(KEY_PARAMETERS.has(name.toLowerCase()) ? name : 'a value'));
    }
  }
  for (const [name, value] of entries) {
    if (!allowed.includes(name)) return apiFailure('invalid_parameter', messages.unknownParameter(name), { parameter: name });
    if (params.has(name)) return apiFailure('invalid_parameter', messages.repeatedParameter(name), { parameter: name });
    params.set(name, value);
  }
  return params;
}

function integer(params: Map<string, string>, name: string, rule: IntegerParameter): number | ApiFailure {
  const raw = params.get(name);
  if (raw === undefined) return rule.default;
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= rule.min && value <= rule.max)) {
    return apiFailure('invalid_parameter', messages.invalidParameter(name, `an integer ${rule.min}-${rule.max}`), { parameter: name });
  }
  return value;
}

export interface RowQuery {
  symbol: MarketSymbol | undefined;
  sample_type: SampleType | undefined;
  limit: number;
  offset: number;
}

/** `/rows` parameters (spec: "Row query parameters"); checked in table order. */
export function rowQuery(params: Map<string, string>): RowQuery | ApiFailure {
  const symbol = params.get('symbol');
  if (symbol !== undefined && !isMarketSymbol(symbol)) {
    return apiFailure('invalid_parameter', messages.invalidParameter('symbol', `one of ${ROW_QUERY.symbol.values.join(', ')} (uppercase)`), { parameter: 'symbol' });
  }
  const sampleType = params.get('sample_type');
  if (sampleType !== undefined && !(ROW_QUERY.sample_type.values as readonly string[]).includes(sampleType)) {
    return apiFailure('invalid_parameter', messages.invalidParameter('sample_type', 'event or control'), { parameter: 'sample_type' });
  }
  const limit = integer(params, 'limit', ROW_QUERY.limit);
  if (typeof limit !== 'number') return limit;
  const offset = integer(params, 'offset', ROW_QUERY.offset);
  if (typeof offset !== 'number') return offset;
  return { symbol, sample_type: sampleType as SampleType | undefined, limit, offset };
}

/** `/releases?limit` (1-100, default 20). */
export function releasesLimit(params: Map<string, string>): number | ApiFailure {
  return integer(params, 'limit', RELEASES_QUERY.limit);
}
