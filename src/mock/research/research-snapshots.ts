// The current Research snapshots of a simulator at one time: envelopes, CSV and live pages, built lazily.

import { formatCsv } from '../../base/index.js';
import { liveDataset, researchDataset, type ResearchDatasetSpec } from '../../contract/index.js';
import { RELEASE_CSV_OPTIONS } from '../releases/release-csv.js';
import { fundingPressure } from './funding-pressure.js';
import { listingCalendar } from './listing-calendar.js';
import { marketBreadth } from './market-breadth.js';
import { messages } from './messages.js';
import { researchCatalog } from './research-catalog.js';
import { ResearchOptionError } from './research-errors.js';
import type { ResearchCalculation, ResearchCatalog, ResearchCatalogLimits, ResearchSnapshot } from './research-snapshot.js';
import type { ResearchSimulator } from './research-simulator.js';
import { volatilityRegime } from './volatility-regime.js';

type Calculation = (simulator: ResearchSimulator, spec: ResearchDatasetSpec, t: number) => ResearchCalculation;

/** The calculation of each dataset of `RESEARCH_DATASETS`. */
const CALCULATIONS: Readonly<Record<string, Calculation>> = {
  'market-breadth': marketBreadth,
  'funding-pressure': fundingPressure,
  'volatility-regime': volatilityRegime,
  'listing-calendar': listingCalendar,
};

/** The snapshots a request at one time reads; every dataset is calculated on first use and kept. */
export class ResearchSnapshotSet {
  readonly #snapshots = new Map<string, ResearchSnapshot>();

  /**
   * @param simulator the market simulator.
   * @param at request time, UTC Unix seconds.
   */
  constructor(
    readonly simulator: ResearchSimulator,
    readonly at: number,
  ) {}

  /** The free catalog object with the caller's limits. */
  catalog(limits: ResearchCatalogLimits): ResearchCatalog {
    return researchCatalog(limits);
  }

  /**
   * The snapshot of a dataset, or undefined for an unknown ID. It was generated at the latest refresh
   * boundary at or before `at` (a multiple of `refresh_seconds`) from the data archived by then;
   * `stale` is `at - updated > freshness_seconds` (true without any observation).
   */
  snapshot(datasetId: string): ResearchSnapshot | undefined {
    const known = this.#snapshots.get(datasetId);
    if (known) return known;
    const spec = researchDataset(datasetId);
    const calculate = spec && CALCULATIONS[spec.id];
    if (!spec || !calculate) return undefined;
    const generatedAt = Math.floor(this.at / spec.refresh_seconds) * spec.refresh_seconds;
    const result = calculate(this.simulator, spec, generatedAt);
    const snapshot: ResearchSnapshot = {
      key: spec.id,
      generated_at: generatedAt,
      updated: result.updated,
      stale: result.updated === null || this.at - result.updated > spec.freshness_seconds,
      refresh_seconds: spec.refresh_seconds,
      calculation_version: spec.calculation_version,
      source: spec.source,
      source_url: spec.source_url,
      window: result.window,
      summary: result.summary,
      items: result.items,
      limitation: [...spec.limitation],
    };
    this.#snapshots.set(spec.id, snapshot);
    return snapshot;
  }

  /** CSV text of a dataset's items: header = the dataset's columns; undefined for an unknown ID. */
  csv(datasetId: string): string | undefined {
    const snapshot = this.snapshot(datasetId);
    const spec = researchDataset(datasetId);
    if (!snapshot || !spec) return undefined;
    return formatCsv(
      spec.columns.map((column) => column.name),
      snapshot.items,
      RELEASE_CSV_OPTIONS,
    );
  }

  /** The snapshot behind a public live page, or undefined when no dataset has that page key. */
  live(pageKey: string): ResearchSnapshot | undefined {
    const spec = liveDataset(pageKey);
    return spec ? this.snapshot(spec.id) : undefined;
  }

  /** CSV of a public live page, or undefined for an unknown page key. */
  liveCsv(pageKey: string): string | undefined {
    const spec = liveDataset(pageKey);
    return spec ? this.csv(spec.id) : undefined;
  }
}

/**
 * The Research snapshots of `simulator` as a request at `at` (UTC Unix seconds) reads them.
 * Throws `ResearchOptionError` when `at` is not a finite number.
 */
export function researchSnapshots(simulator: ResearchSimulator, at: number): ResearchSnapshotSet {
  if (typeof at !== 'number' || !Number.isFinite(at)) throw new ResearchOptionError(messages.snapshotTime(at), 'at');
  return new ResearchSnapshotSet(simulator, at);
}
