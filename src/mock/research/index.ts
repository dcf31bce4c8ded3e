// src/mock/research: the free Research snapshots, their CSV, the live pages and the free catalog object.

export { researchSnapshots, ResearchSnapshotSet } from './research-snapshots.js';
export { researchCatalog, researchJsonPath, researchCsvPath } from './research-catalog.js';
export { marketBreadth } from './market-breadth.js';
export { fundingPressure } from './funding-pressure.js';
export { volatilityRegime, REGIME_HISTORY_DAYS } from './volatility-regime.js';
export { listingCalendar, LISTING_LAG_SECONDS } from './listing-calendar.js';
export { ResearchOptionError } from './research-errors.js';
export { messages as researchMessages } from './messages.js';
export type {
  ResearchSnapshot,
  ResearchItem,
  ResearchWindow,
  ResearchCalculation,
  ResearchCatalog,
  ResearchCatalogEntry,
  ResearchCatalogLimits,
} from './research-snapshot.js';
export type { ResearchSimulator, ResearchCandle, ResearchDerivativeObservation } from './research-simulator.js';
