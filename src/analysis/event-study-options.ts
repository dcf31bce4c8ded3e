// Options of the event study and their one normalizer (defaults documented on each field). The interval
// option was called `bootstrap` before the block jackknife: both spellings are accepted.

import { BOOTSTRAP_METHODS, DEFAULT_WINDOW, INTERVAL_METHODS, WINDOWS, type BootstrapMethod, type IntervalMethod } from '../contract/index.js';
import type { Window } from '../contract/index.js';
import { checkBlockDays, resolveBootstrapDraws } from './bootstrap-options.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { resolveReleaseIds } from './analysis-source.js';
import { analysisMessages } from './messages.js';
import { resolveWindow } from './outcome.js';

/** Keys an event study may group by (at least one). Without `direction`, both directions are pooled. */
export const STUDY_GROUP_KEYS = ['event_kind', 'direction', 'symbol'] as const;
export type StudyGroupKey = (typeof STUDY_GROUP_KEYS)[number];

/**
 * How the event study's interval and p-value are computed. `block-jackknife` (default): the delete-one-block
 * jackknife t interval over blocks of UTC days (src/analysis/block-jackknife.ts), calibrated on simulated
 * markets. `row-bootstrap`: a percentile bootstrap of single rows, which ignores day clustering (too narrow on
 * market data, not calibrated): for comparison only.
 */
export { INTERVAL_METHODS, type IntervalMethod } from '../contract/index.js';

/** The method names of the option's old spelling (`bootstrap.method`), still accepted: `day` is the block jackknife, `row` the row bootstrap. */
export { BOOTSTRAP_METHODS, type BootstrapMethod } from '../contract/index.js';

const METHOD_ALIASES: Readonly<Record<BootstrapMethod, IntervalMethod>> = { day: 'block-jackknife', row: 'row-bootstrap' };

export interface IntervalOptions {
  /** `block-jackknife` (default) or `row-bootstrap` (ignores day clustering; comparison only). `day` and `row` are accepted too. */
  method?: IntervalMethod | BootstrapMethod;
  /**
   * UTC days per jackknife block, an integer >= 1, or `auto` (default): intervalBlockDays(window), at least
   * BLOCK_WINDOW_MULTIPLE outcome windows and one day (1 day at 15m-4h, 2 at 24h, 14 at 7d with the present constant).
   */
  blockDays?: number | 'auto';
  /** Two-sided level of the interval, in (0, 1); the p-value's test level is 1 - confidence. Default 0.95. */
  confidence?: number;
  /** Row bootstrap only: resamples. Default 2000. */
  samples?: number;
  /** Row bootstrap only: base seed; each group derives its own from it and its key. Default 1. */
  seed?: number;
}

/** The option's old spelling, still accepted: `{ bootstrap: { method: 'day' } }` is `{ interval: { method: 'block-jackknife' } }`. */
export type BootstrapOptions = IntervalOptions;

export interface EventStudyOptions {
  /** Outcome window when `windows` is not given. Default `1h`. */
  window?: Window;
  /** Several outcome windows; overrides `window`. */
  windows?: readonly Window[];
  /**
   * Group keys. Default `['event_kind', 'direction']`; add `symbol` for a per-pair study; leave out
   * `direction` to pool both directions (each event is still compared with controls signed by its own direction).
   */
  by?: readonly StudyGroupKey[];
  /** Exact release IDs. Default: the catalog's current view (newest revision of each day). */
  releases?: readonly string[];
  /** How the interval and p-value of each difference are computed. Default: the block jackknife at 95%, auto block length. */
  interval?: IntervalOptions;
  /** The old name of `interval`, still accepted (give one of the two). */
  bootstrap?: BootstrapOptions;
  /**
   * Pool rows of different `calculation_version` (product formula versions; rows without one count as a
   * version of their own) in one study. Default false: such a study throws MixedCalculationVersionsError
   * (exit 2). When true, the mix is reported in `metadata.calculationVersionMix`. CLI: `--allow-mixed-versions`.
   */
  allowMixedCalculationVersions?: boolean;
}

export interface ResolvedEventStudyOptions {
  windows: Window[];
  by: StudyGroupKey[];
  releases: string[] | undefined;
  interval: ResolvedIntervalOptions;
  allowMixedCalculationVersions: boolean;
}

export interface ResolvedIntervalOptions {
  method: IntervalMethod;
  confidence: number;
  /** `auto` or the days given; the length used per window is in the result's metadata (intervalBlockDays). */
  blockDays: number | 'auto';
  /** Row bootstrap only (kept, unused, for the block jackknife). */
  samples: number;
  seed: number;
}

/** The old name of ResolvedIntervalOptions. */
export type ResolvedBootstrapOptions = ResolvedIntervalOptions;

/** Validates and applies defaults. @throws AnalysisOptionError naming the bad option. */
export function resolveEventStudyOptions(options: EventStudyOptions = {}): ResolvedEventStudyOptions {
  const requested = options.windows ?? [options.window ?? DEFAULT_WINDOW];
  if (requested.length === 0) throw new AnalysisOptionError(analysisMessages.badWindow('(none)', WINDOWS), { option: 'windows' });
  const chosen = new Set(requested.map(resolveWindow));
  const windows = WINDOWS.filter((window) => chosen.has(window));

  const byGiven = options.by ?? ['event_kind', 'direction'];
  for (const key of byGiven) {
    // Checked at run time too: JavaScript callers and the CLI pass strings.
    if (!(STUDY_GROUP_KEYS as readonly string[]).includes(key)) {
      throw new AnalysisOptionError(analysisMessages.badGrouping(key, STUDY_GROUP_KEYS), { option: 'by' });
    }
  }
  if (byGiven.length === 0) throw new AnalysisOptionError(analysisMessages.badGrouping('(none)', STUDY_GROUP_KEYS), { option: 'by' });
  const by = STUDY_GROUP_KEYS.filter((key) => byGiven.includes(key));

  const interval = resolveIntervalOptions(options);
  const allowMixed = options.allowMixedCalculationVersions ?? false;
  if (typeof allowMixed !== 'boolean') {
    throw new AnalysisOptionError(analysisMessages.badFlag('allowMixedCalculationVersions', 'true or false'), { option: 'allowMixedCalculationVersions' });
  }
  return {
    windows,
    by,
    releases: options.releases === undefined ? undefined : resolveReleaseIds(options.releases),
    interval,
    allowMixedCalculationVersions: allowMixed,
  };
}

/** The interval options from `interval` or its old name `bootstrap` (one of them), defaults filled in. @throws AnalysisOptionError */
function resolveIntervalOptions(options: EventStudyOptions): ResolvedIntervalOptions {
  if (options.interval !== undefined && options.bootstrap !== undefined) {
    throw new AnalysisOptionError(analysisMessages.intervalTwice(), { option: 'interval' });
  }
  const given = options.interval ?? options.bootstrap ?? {};
  const name = options.interval === undefined && options.bootstrap !== undefined ? 'bootstrap' : 'interval';
  const { samples, seed, confidence } = resolveBootstrapDraws(given, 2000, name);
  const asked = given.method ?? 'block-jackknife';
  const method = (INTERVAL_METHODS as readonly string[]).includes(asked)
    ? (asked as IntervalMethod)
    : (METHOD_ALIASES as Readonly<Record<string, IntervalMethod>>)[asked];
  if (method === undefined) {
    throw new AnalysisOptionError(analysisMessages.badIntervalMethod(String(asked), [...INTERVAL_METHODS, ...BOOTSTRAP_METHODS]), { option: `${name}.method` });
  }
  const blockDays = given.blockDays ?? 'auto';
  if (blockDays !== 'auto') checkBlockDays(blockDays, true, name);
  return { method, confidence, blockDays, samples, seed };
}
