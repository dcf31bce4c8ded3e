// The free Research catalog object (spec: "Catalog (free scope)").

import { API_VERSION_SEGMENT, RESEARCH_DATASETS, RESEARCH_LIMITATIONS, RESEARCH_SCOPE } from '../../contract/index.js';
import type { ResearchCatalog, ResearchCatalogLimits } from './research-snapshot.js';

/** Same-origin path of a dataset's JSON snapshot, e.g. `/v1/research/market-breadth`. */
export function researchJsonPath(datasetId: string): string {
  return `${API_VERSION_SEGMENT}/research/${datasetId}`;
}

/** Same-origin path of a dataset's CSV rows, e.g. `/v1/research/market-breadth/csv`. */
export function researchCsvPath(datasetId: string): string {
  return `${researchJsonPath(datasetId)}/csv`;
}

/** The catalog: scope, every dataset of `RESEARCH_DATASETS` with its paths, the caller's limits, limitations. */
export function researchCatalog(limits: ResearchCatalogLimits): ResearchCatalog {
  return {
    scope: RESEARCH_SCOPE,
    datasets: RESEARCH_DATASETS.map((dataset) => ({
      id: dataset.id,
      title: dataset.title,
      calculation_version: dataset.calculation_version,
      refresh_seconds: dataset.refresh_seconds,
      json_url: researchJsonPath(dataset.id),
      csv_url: researchCsvPath(dataset.id),
      live_page_key: dataset.live_page_key ?? null,
    })),
    limits: { keys: limits.keys, rpm: limits.rpm, daily_bytes: limits.daily_bytes },
    limitations: [...RESEARCH_LIMITATIONS],
  };
}
