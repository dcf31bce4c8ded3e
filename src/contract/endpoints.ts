// The endpoint table and its parameter rules (spec: "Endpoints"), as data for the mock and the client.

import { SYMBOLS } from './symbols.js';
import { SAMPLE_TYPES } from './value-sets.js';
import { DOWNLOAD_FORMATS } from './market-event-row.js';

export type EndpointScope = 'research' | 'public' | 'paid';

export interface EndpointSpec {
  /** Stable name used by the mock's router and the client. */
  readonly name: string;
  readonly scope: EndpointScope;
  /** Path under `{base_url}` (research, paid) or `{site_url}` (public); `<X>` marks a placeholder. */
  readonly path: string;
  readonly query: readonly string[];
  readonly response: string;
}

export const ENDPOINTS: readonly EndpointSpec[] = [
  { name: 'researchCatalog', scope: 'research', path: '/research/catalog', query: [], response: 'Catalog object' },
  { name: 'researchSnapshot', scope: 'research', path: '/research/<DATASET_ID>', query: [], response: 'Research dataset snapshot (JSON)' },
  { name: 'researchCsv', scope: 'research', path: '/research/<DATASET_ID>/csv', query: [], response: 'Snapshot rows as CSV' },
  { name: 'liveJson', scope: 'public', path: '/api/research/live/<PAGE_KEY>', query: [], response: 'Live page dataset (JSON)' },
  { name: 'liveCsv', scope: 'public', path: '/api/research/live/<PAGE_KEY>.csv', query: [], response: 'Live page dataset (CSV)' },
  { name: 'catalog', scope: 'paid', path: '/catalog', query: [], response: 'Datasets coverage and account limits' },
  { name: 'schema', scope: 'paid', path: '/schema', query: [], response: 'Current product fields and limitations' },
  { name: 'releases', scope: 'paid', path: '/releases', query: ['limit'], response: 'Published daily releases, latest first' },
  { name: 'rows', scope: 'paid', path: '/rows/<RELEASE_ID>', query: ['symbol', 'sample_type', 'limit', 'offset'], response: 'Paged row response' },
  { name: 'download', scope: 'paid', path: '/download/<RELEASE_ID>/<FORMAT>', query: [], response: 'The full daily file' },
];

/** An integer query parameter's range and default. */
export interface IntegerParameter {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** `/rows` parameters (spec: "Row query parameters"). */
export const ROW_QUERY = {
  symbol: { values: SYMBOLS },
  sample_type: { values: SAMPLE_TYPES },
  limit: { min: 1, max: 500, default: 100 } satisfies IntegerParameter,
  offset: { min: 0, max: 100_000, default: 0 } satisfies IntegerParameter,
} as const;

/** `/releases?limit`: 1-100; the default is not shown by the spec, rdw's mock uses 20 (DESIGN.md 3). */
export const RELEASES_QUERY = {
  limit: { min: 1, max: 100, default: 20 } satisfies IntegerParameter,
} as const;

/** Formats accepted by `/download/<RELEASE_ID>/<FORMAT>`. */
export const DOWNLOAD_FORMAT_VALUES = DOWNLOAD_FORMATS;

/** The version segment that ends `{base_url}`. */
export const API_VERSION_SEGMENT = '/v1';
