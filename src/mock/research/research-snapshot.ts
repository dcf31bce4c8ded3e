// The Research snapshot envelope (spec: "Research dataset snapshot") and the free catalog object.

/** One observation row: its keys are the dataset's CSV columns, in column order. */
export type ResearchItem = Record<string, string | number | boolean | null>;

/** Observation interval of a snapshot (UTC Unix seconds). */
export interface ResearchWindow {
  start: number;
  end: number;
  lookback_seconds: number;
}

/** A dataset snapshot: the spec's stable envelope around dataset-specific items. */
export interface ResearchSnapshot {
  key: string;
  /** When the calculation ran: the latest refresh boundary at or before the request (UTC Unix seconds). */
  generated_at: number;
  /** Newest underlying observation (UTC Unix seconds); null when the snapshot holds none. */
  updated: number | null;
  /** True when the newest observation is older than the dataset's freshness boundary at request time. */
  stale: boolean;
  refresh_seconds: number;
  calculation_version: string;
  source: string | null;
  source_url: string | null;
  window: ResearchWindow;
  summary: Record<string, string | number | null>;
  items: ResearchItem[];
  limitation: string[];
}

/** What a dataset calculation returns; the envelope around it is shared. */
export interface ResearchCalculation {
  items: ResearchItem[];
  summary: Record<string, string | number | null>;
  window: ResearchWindow;
  /** Newest observation time among the items; null without observations. */
  updated: number | null;
}

/** Account limits shown in the free catalog (spec: `limits.keys`, `limits.rpm`, `limits.daily_bytes`). */
export interface ResearchCatalogLimits {
  keys: number;
  rpm: number;
  daily_bytes: number;
}

export interface ResearchCatalogEntry {
  id: string;
  title: string;
  calculation_version: string;
  refresh_seconds: number;
  /** Same-origin request path of the JSON snapshot, e.g. `/v1/research/market-breadth`. */
  json_url: string;
  /** Same-origin request path of the CSV rows. */
  csv_url: string;
  /** Page key of the public live page, or null. */
  live_page_key: string | null;
}

/** The free catalog object of `GET {base_url}/research/catalog`. */
export interface ResearchCatalog {
  scope: string;
  datasets: ResearchCatalogEntry[];
  limits: ResearchCatalogLimits;
  limitations: string[];
}
