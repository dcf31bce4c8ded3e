// Options of the embedded mock server, their defaults and the one validator that applies them.

import { PLAN_IDS, PLANS, PUBLIC_LIVE_RPM_PER_IP, type PlanId } from '../../contract/index.js';
import type { BuildProgress } from '../releases/index.js';
import type { FaultRule } from './fault-rule.js';
import { messages } from './messages.js';
import { MockServerOptionError } from './mock-errors.js';

/** Limits of one plan; each overrides the spec value of `PLANS`. */
export interface PlanLimitOverrides {
  /** Requests per minute, account-wide. */
  rpm?: number;
  /** File bytes per UTC day of the data clock, account-wide; 0 = no download allowance. */
  daily_bytes?: number;
  /** Active-key slots. */
  keys?: number;
}

/** Limit overrides (in-process `limits` option, or the JSON of `rdw mock --limits FILE`). */
export interface MockLimitsOverrides {
  free?: PlanLimitOverrides;
  researcher?: PlanLimitOverrides;
  desk?: PlanLimitOverrides;
  /** Requests per minute per IP on the public live endpoints. Default 60 (spec: Limits). */
  publicRpm?: number;
  /** `/rows` answers 413 when the filtered result has more rows than this. Default 10 000. */
  rowQueryMaxRows?: number;
  /** Entries kept in `requestLog` (oldest dropped first). Default 10 000. */
  requestLogSize?: number;
}

export interface ResolvedPlanLimits {
  rpm: number;
  daily_bytes: number;
  keys: number;
  paid: boolean;
}

export interface ResolvedMockLimits {
  plans: Record<PlanId, ResolvedPlanLimits>;
  publicRpm: number;
  rowQueryMaxRows: number;
  requestLogSize: number;
}

export interface MockServerOptions {
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** TCP port; 0 picks a free one. Default 0 (the CLI defaults to 8787). */
  port?: number;
  /** Simulator seed. Default 1. */
  seed?: number;
  /** Data clock start, ISO time or UTC Unix seconds. Default `2026-11-01T00:00:00Z`. */
  now?: string | number;
  /** Covered days. Default 120. */
  days?: number;
  /** First day (`YYYY-MM-DD`) with a bundled schema. Default: the simulator's. */
  schemaSince?: string;
  limits?: MockLimitsOverrides;
  faults?: readonly FaultRule[];
  /** Milliseconds clock of the request-rate windows. Default: real time (`performance.now`). */
  rateClock?: () => number;
  /** Bytes of generated files kept in memory. Default: the archive's (256 MiB). */
  cacheBytes?: number;
  /** Told while a listing builds days' files for over a second (ReleaseArchiveOptions.onSlowBuild). Default: none. */
  onSlowBuild?: (progress: BuildProgress) => void;
  /**
   * A JSON file of the revisions this code and these simulator options published before (read at start, written at
   * close when it grew): the days there are listed without building them (docs/mock-releases.md "Known revisions").
   * Default: none (every run builds what it lists).
   */
  knownRevisionsFile?: string;
}

export interface ResolvedMockServerOptions {
  host: string;
  port: number;
  simulator: { seed: number; now: string | number; days: number; schemaSince?: string };
  limits: ResolvedMockLimits;
  faults: readonly FaultRule[];
  rateClock: () => number;
  cacheBytes: number | undefined;
  knownRevisionsFile: string | undefined;
}

/** Default data clock of the mock (DESIGN.md 2.3). */
export const DEFAULT_MOCK_NOW = '2026-11-01T00:00:00Z';
/** Default `/rows` 413 threshold, in rows. */
export const DEFAULT_ROW_QUERY_MAX_ROWS = 10_000;

const fail = (name: string, value: unknown, expected: string): never => {
  throw new MockServerOptionError(messages.option(name, value, expected), { option: name });
};

const count = (name: string, value: unknown, fallback: number, min = 0): number => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) fail(name, value, `an integer >= ${min}`);
  return value as number;
};

/** Validates limit overrides (from code or a JSON file) and merges them over the spec's limits. */
export function resolveMockLimits(value: unknown = {}): ResolvedMockLimits {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('limits', value, 'an object');
  const overrides = value as Record<string, unknown>;
  const known = [...PLAN_IDS, 'publicRpm', 'rowQueryMaxRows', 'requestLogSize'];
  for (const key of Object.keys(overrides)) if (!known.includes(key)) fail(`limits.${key}`, overrides[key], `one of ${known.join(', ')}`);
  const plans = {} as Record<PlanId, ResolvedPlanLimits>;
  for (const plan of PLAN_IDS) {
    const given = overrides[plan] ?? {};
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return fail(`limits.${plan}`, given, 'an object');
    const fields = given as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      if (!['rpm', 'daily_bytes', 'keys'].includes(key)) fail(`limits.${plan}.${key}`, fields[key], 'one of rpm, daily_bytes, keys');
    }
    const spec = PLANS[plan];
    plans[plan] = {
      rpm: count(`limits.${plan}.rpm`, fields.rpm, spec.rpm, 1),
      daily_bytes: count(`limits.${plan}.daily_bytes`, fields.daily_bytes, spec.daily_bytes),
      keys: count(`limits.${plan}.keys`, fields.keys, spec.keys, 1),
      paid: spec.paid,
    };
  }
  return {
    plans,
    publicRpm: count('limits.publicRpm', overrides.publicRpm, PUBLIC_LIVE_RPM_PER_IP, 1),
    rowQueryMaxRows: count('limits.rowQueryMaxRows', overrides.rowQueryMaxRows, DEFAULT_ROW_QUERY_MAX_ROWS, 1),
    requestLogSize: count('limits.requestLogSize', overrides.requestLogSize, 10_000),
  };
}

/** Validates the server options and applies the defaults documented on `MockServerOptions`. */
export function resolveMockServerOptions(options: MockServerOptions = {}): ResolvedMockServerOptions {
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.length === 0) fail('host', host, 'a host name or address');
  const port = count('port', options.port, 0);
  if (port > 65_535) fail('port', port, 'an integer 0-65535');
  const rateClock = options.rateClock ?? (() => performance.now());
  if (typeof rateClock !== 'function') fail('rateClock', rateClock, 'a function returning milliseconds');
  const faults = options.faults ?? [];
  if (!Array.isArray(faults)) fail('faults', faults, 'an array of fault rules');
  if (options.cacheBytes !== undefined) count('cacheBytes', options.cacheBytes, 0);
  const known = options.knownRevisionsFile;
  if (known !== undefined && (typeof known !== 'string' || known.length === 0)) fail('knownRevisionsFile', known, 'a file path');
  return {
    host,
    port,
    simulator: {
      seed: options.seed ?? 1,
      now: options.now ?? DEFAULT_MOCK_NOW,
      days: options.days ?? 120,
      ...(options.schemaSince === undefined ? {} : { schemaSince: options.schemaSince }),
    },
    limits: resolveMockLimits(options.limits ?? {}),
    faults,
    rateClock,
    cacheBytes: options.cacheBytes,
    knownRevisionsFile: known,
  };
}
