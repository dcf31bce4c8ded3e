// src/mock/simulator: the deterministic market simulator behind the mock's Market Events releases.

export { MarketSimulator } from './market-simulator.js';
export type { Candle, DayContent, GenerationCounts } from './market-simulator.js';
export { resolveSimulatorOptions, DEFAULT_SIMULATOR_NOW } from './resolve-simulator-options.js';
export type { SimulatorOptions, ResolvedSimulatorOptions } from './resolve-simulator-options.js';
export type { DerivativeObservation } from './derivative-observations.js';
export { DERIVATIVE_BUCKET_SECONDS } from './derivative-observations.js';
export type { RecordedEvent } from './recorded-events.js';
export { EVENT_RULES } from './event-rules.js';
export type { EventRule } from './event-rules.js';
export { PLANTED_EFFECTS } from './planted-effects.js';
export type { PlantedEffect } from './planted-effects.js';
export { MARKET_PROFILES } from './market-profiles.js';
export type { MarketProfile } from './market-profiles.js';
export { SimulatorOptionError, SimulatorArgumentError } from './simulator-errors.js';
