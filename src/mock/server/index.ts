// src/mock/server: the embedded mock of the whole API over node:http.

export { startMockServer } from './start-mock-server.js';
export type { MockServer } from './start-mock-server.js';
export {
  resolveMockServerOptions,
  resolveMockLimits,
  DEFAULT_MOCK_NOW,
  DEFAULT_ROW_QUERY_MAX_ROWS,
} from './mock-server-options.js';
export type {
  MockServerOptions,
  ResolvedMockServerOptions,
  MockLimitsOverrides,
  PlanLimitOverrides,
  ResolvedMockLimits,
  ResolvedPlanLimits,
} from './mock-server-options.js';
export { FAULT_KINDS, FaultSet, resolveFaultRule } from './fault-rule.js';
export type { FaultRule, FaultKind, FaultTarget, ActiveFault } from './fault-rule.js';
export { SEEDED_KEY_NAMES } from './account-store.js';
export type { SeededKeys, SeededKeyName, MockAdmin, AccountUsage } from './account-store.js';
export type { RequestLogEntry } from './request-log.js';
export { MockServerOptionError, MockError, KeySlotsFullError, UnknownAccountError } from './mock-errors.js';
export { messages as serverMessages } from './messages.js';
