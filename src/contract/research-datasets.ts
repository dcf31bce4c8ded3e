// The free Research datasets and the public live pages (spec: "Research dataset snapshot").
// The envelope is shared; each dataset has its own row schema (its CSV columns), refresh and freshness.

import type { FieldType } from './fields.js';

export interface ResearchColumn {
  readonly name: string;
  readonly type: FieldType;
  readonly description: string;
}

export interface ResearchDatasetSpec {
  readonly id: string;
  readonly title: string;
  readonly calculation_version: string;
  /** Declared refresh interval: clients cache and do not poll faster (seconds). */
  readonly refresh_seconds: number;
  /** A snapshot is stale when its newest observation is older than this at generation time (seconds). */
  readonly freshness_seconds: number;
  /** Page key of the public live page serving this dataset, when it has one. */
  readonly live_page_key?: string;
  readonly source: string | null;
  readonly source_url: string | null;
  /** Row fields, in CSV column order. */
  readonly columns: readonly ResearchColumn[];
  readonly limitation: readonly string[];
}

const col = (name: string, type: FieldType, description: string): ResearchColumn => ({ name, type, description });

/** The column every dataset ends with: its rows carry the dataset's calculation version. */
const CALCULATION_VERSION = col('calculation_version', 'string', 'Calculation version copied onto the row');
/** The pair column of the datasets observed on the spot exchange. */
const EXCHANGE_PAIR = col('symbol', 'string', 'Exchange pair');
/** The spot exchange behind market breadth and volatility regimes. */
const SPOTEX = { source: 'spotex', source_url: 'https://spotex.example/market-data' } as const;

export const RESEARCH_DATASETS: readonly ResearchDatasetSpec[] = [
  {
    id: 'market-breadth',
    title: 'Market breadth of the six spot pairs',
    calculation_version: 'breadth-2',
    refresh_seconds: 300,
    freshness_seconds: 1800,
    live_page_key: 'market-breadth',
    ...SPOTEX,
    columns: [
      EXCHANGE_PAIR,
      col('base', 'string', 'Base asset'),
      col('source', 'string', 'Venue or market source of the observation'),
      col('price', 'number', "Observed quote price, in the pair's quote asset"),
      col('change_24h', 'number', 'Rolling 24-hour price change in percent (not a decimal return)'),
      col('volume_24h', 'number', 'Rolling 24-hour quote-asset turnover'),
      col('source_time', 'number', 'UTC Unix seconds of the source observation'),
      CALCULATION_VERSION,
    ],
    limitation: [
      'Six spot pairs on one exchange; not a market-wide index.',
      'Fields may be absent or null when the source gave no valid observation.',
    ],
  },
  {
    id: 'funding-pressure',
    title: 'Normalized funding and open interest on the derivatives venue',
    calculation_version: 'funding-3',
    refresh_seconds: 900,
    freshness_seconds: 3 * 3600,
    live_page_key: 'funding-pressure',
    source: 'derivex',
    source_url: null,
    columns: [
      col('symbol', 'string', 'Spot pair the observation is listed against (not a mapped equivalent contract)'),
      col('venue', 'string', 'Derivatives venue of the observation'),
      col('funding_hourly_pct', 'number', 'Normalized funding, percentage points per hour; native type unknown'),
      col('oi_usd', 'number', 'Open-interest notional in USD; not net inflow'),
      col('oi_change_24h_pct', 'number', 'Change of open interest over 24 hours, percent'),
      col('source_time', 'number', 'UTC Unix seconds of the observation bucket'),
      CALCULATION_VERSION,
    ],
    limitation: [
      'Derivatives venue context; not the spot exchange.',
      'Funding settlement schedule and native type are unknown; values are normalized per hour.',
    ],
  },
  {
    id: 'volatility-regime',
    title: 'Realized volatility and regime per pair',
    calculation_version: 'volregime-1',
    refresh_seconds: 3600,
    freshness_seconds: 6 * 3600,
    ...SPOTEX,
    columns: [
      EXCHANGE_PAIR,
      col('realized_vol_24h_pct', 'number', 'Annualized realized volatility of 5-minute returns over 24 hours, percent'),
      col('realized_vol_7d_pct', 'number', 'Annualized realized volatility of 5-minute returns over 7 days, percent'),
      col('regime', 'string', '`calm`, `normal` or `turbulent`, by 7-day volatility percentile'),
      col('source_time', 'number', 'UTC Unix seconds of the last candle used'),
      CALCULATION_VERSION,
    ],
    limitation: ['Regimes are relative to the pair’s own history in the archive, not across pairs.'],
  },
  {
    id: 'listing-calendar',
    title: 'Announced spot listings and delistings',
    calculation_version: 'listings-1',
    refresh_seconds: 21600,
    freshness_seconds: 2 * 86400,
    source: null,
    source_url: null,
    columns: [
      col('announced_at', 'number', 'UTC Unix seconds of the announcement'),
      col('effective_at', 'number', 'UTC Unix seconds the change takes effect; null when not announced'),
      col('symbol', 'string', 'Pair concerned'),
      col('change', 'string', '`listing` or `delisting`'),
      col('source', 'string', 'Named announcement source'),
      CALCULATION_VERSION,
    ],
    limitation: ['The announcement feed is updated by hand and may lag; stale snapshots are expected.'],
  },
];

export function researchDataset(id: string): ResearchDatasetSpec | undefined {
  return RESEARCH_DATASETS.find((dataset) => dataset.id === id);
}

export function liveDataset(pageKey: string): ResearchDatasetSpec | undefined {
  return RESEARCH_DATASETS.find((dataset) => dataset.live_page_key === pageKey);
}

/** Scope statement of the free Research catalog. */
export const RESEARCH_SCOPE =
  'Current public research snapshots; not historical Market Events files and not a bulk feed.';

/** Limitations of the free scope (spec: Freshness rule 4). */
export const RESEARCH_LIMITATIONS: readonly string[] = [
  'Snapshots are current only: historical snapshots, the internal archive and paid Market Events releases are excluded.',
  'Each snapshot reports its observation time and calculation version; keep both with downstream results.',
  'A successful response with stale=true is still stale.',
];
