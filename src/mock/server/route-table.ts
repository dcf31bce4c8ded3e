// The routing table, compiled from the spec's ENDPOINTS: literal segments and `<PLACEHOLDER>` segments
// (with an optional literal suffix such as `.csv`); the most specific route wins.

import { API_VERSION_SEGMENT, ENDPOINTS, type EndpointSpec } from '../../contract/index.js';

interface Segment {
  readonly literal?: string;
  readonly placeholder?: string;
  readonly suffix: string;
}

export interface Route {
  readonly endpoint: EndpointSpec;
  /** Path prefix the endpoint path sits under: `/v1` or the site root. */
  readonly prefix: string;
  readonly segments: readonly Segment[];
  readonly specificity: number;
}

export interface RouteMatch {
  readonly endpoint: EndpointSpec;
  /** Placeholder values by name (e.g. `RELEASE_ID`), raw (not percent-decoded). */
  readonly params: Readonly<Record<string, string>>;
}

/** A placeholder value: a non-empty path segment of safe characters (no `%`, no dots only). */
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function compile(endpoint: EndpointSpec): Route {
  const prefix = endpoint.scope === 'public' ? '' : API_VERSION_SEGMENT;
  const segments = `${prefix}${endpoint.path}`
    .split('/')
    .slice(1)
    .map((part): Segment => {
      const match = /^<([A-Z_]+)>(.*)$/.exec(part);
      return match ? { placeholder: match[1]!, suffix: match[2]! } : { literal: part, suffix: '' };
    });
  const specificity = segments.reduce((sum, segment) => sum + (segment.literal === undefined ? segment.suffix.length : 1000), 0);
  return { endpoint, prefix, segments, specificity };
}

/** Every endpoint of the spec, most specific first. */
export const ROUTES: readonly Route[] = ENDPOINTS.map(compile).sort((a, b) => b.specificity - a.specificity);

/** The endpoint serving `path` (no query), or undefined. */
export function matchRoute(path: string): RouteMatch | undefined {
  const parts = path.split('/');
  if (parts[0] !== '') return undefined;
  for (const route of ROUTES) {
    if (route.segments.length !== parts.length - 1) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (let index = 0; index < route.segments.length && matched; index += 1) {
      const segment = route.segments[index]!;
      const part = parts[index + 1]!;
      if (segment.literal !== undefined) {
        matched = part === segment.literal;
      } else {
        const value = part.endsWith(segment.suffix) ? part.slice(0, part.length - segment.suffix.length) : '';
        matched = SAFE_SEGMENT.test(value);
        params[segment.placeholder!] = value;
      }
    }
    if (matched) return { endpoint: route.endpoint, params };
  }
  return undefined;
}
