// The foreign Research Data API server of the foreign-server tests (written from the spec alone).

export { startSpecServer, type LoggedRequest, type SpecServer, type SpecServerOptions } from './start-spec-server.js';
export { resolveVariation, type ResolvedVariation, type SpecVariation } from './spec-variation.js';
export { CONTRACT_FIELDS, DATASET_ID, PAIRS, OUTCOME_WINDOWS, type ContractField } from './contract-fields.js';
export type { BuiltRelease, FileFormat } from './build-releases.js';
export type { SpecRow } from './day-rows.js';
