// src/mock: the embedded API (market simulator -> releases and research snapshots -> HTTP server).
// The mock layer's only door; it imports src/contract and nothing else of ours.

export {
  startMockServer,
  resolveMockServerOptions,
  resolveMockLimits,
  DEFAULT_MOCK_NOW,
  DEFAULT_ROW_QUERY_MAX_ROWS,
  FAULT_KINDS,
  FaultSet,
  resolveFaultRule,
  SEEDED_KEY_NAMES,
  MockServerOptionError,
  MockError,
  KeySlotsFullError,
  UnknownAccountError,
  serverMessages,
} from './server/index.js';
export type {
  MockServer,
  MockServerOptions,
  ResolvedMockServerOptions,
  MockLimitsOverrides,
  PlanLimitOverrides,
  ResolvedMockLimits,
  ResolvedPlanLimits,
  FaultRule,
  FaultKind,
  FaultTarget,
  ActiveFault,
  SeededKeys,
  SeededKeyName,
  MockAdmin,
  AccountUsage,
  RequestLogEntry,
} from './server/index.js';
export {
  MarketSimulator,
  resolveSimulatorOptions,
  DEFAULT_SIMULATOR_NOW,
  SimulatorOptionError,
  SimulatorArgumentError,
  PLANTED_EFFECTS,
  EVENT_RULES,
  MARKET_PROFILES,
} from './simulator/index.js';
export type { SimulatorOptions, ResolvedSimulatorOptions, Candle, PlantedEffect, EventRule, MarketProfile } from './simulator/index.js';
export {
  ReleaseArchive,
  resolveReleaseArchiveOptions,
  ReleaseArchiveOptionError,
  ReleaseNotFoundError,
  ReleaseValueError,
  ReleaseRegenerationError,
} from './releases/index.js';
export type { ReleaseArchiveOptions, ArchiveCoverage, ReleaseSimulator, BuildProgress, KnownRevision, KnownRevisions } from './releases/index.js';
export { researchSnapshots, ResearchSnapshotSet, ResearchOptionError } from './research/index.js';
export type { ResearchSnapshot, ResearchCatalog, ResearchSimulator } from './research/index.js';
