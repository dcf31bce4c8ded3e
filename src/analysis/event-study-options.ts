// Options of the event study and their one normalizer (defaults documented on each field).

import { WINDOWS } from '../contract/index.js';
import type { Window } from '../contract/index.js';
import { checkBlockDays, resolveBootstrapDraws } from './bootstrap-options.js';
import { AnalysisOptionError } from './analysis-errors.js';
import { resolveReleaseIds } from './analysis-source.js';
import { analysisMessages } from './messages.js';
import { resolveWindow } from './outcome.js';

/** Keys an event study may group by (at least one). Without `direction`, both directions are pooled. */
export const STUDY_GROUP_KEYS = ['event_kind', 'direction', 'symbol'] as const;
export type StudyGroupKey = (typeof STUDY_GROUP_KEYS)[number];

/** How the bootstrap resamples: whole UTC days (clusters; the default) or single rows. */
export const BOOTSTRAP_METHODS = ['day', 'row'] as const;
export type BootstrapMethod = (typeof BOOTSTRAP_METHODS)[number];

export interface BootstrapOptions {
  /**
   * `day` (default): resample UTC days (blocks of `blockDays` consecutive days), each with all its events
   * and controls, so same-day correlation across pairs and overlapping windows widen the interval as they
   * should. `row`: resample event rows and control rows independently (assumes independent rows:
   * too narrow on market data; kept for comparison).
   */
  method?: BootstrapMethod;
  /**
   * Days per resampled block (`day` method), an integer >= 1, or `auto` (default): 1 + floor(window / 1 day),
   * i.e. 1 for 15m-4h, 2 for 24h, 8 for 7d.
   */
  blockDays?: number | 'auto';
  /** Resamples. Default 2000. */
  samples?: number;
  /** Base seed; each group derives its own from it and its key. Default 1. */
  seed?: number;
  /** Two-sided confidence of the percentile interval, in (0, 1). Default 0.95. */
  confidence?: number;
}

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
  /** Seeded bootstrap of the difference against controls. Default `{ samples: 2000, seed: 1, confidence: 0.95 }`. */
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
  bootstrap: ResolvedBootstrapOptions;
  allowMixedCalculationVersions: boolean;
}

export interface ResolvedBootstrapOptions {
  samples: number;
  seed: number;
  confidence: number;
  method: BootstrapMethod;
  blockDays: number | 'auto';
}

/** Validates and applies defaults. @throws AnalysisOptionError naming the bad option. */
export function resolveEventStudyOptions(options: EventStudyOptions = {}): ResolvedEventStudyOptions {
  const requested = options.windows ?? [options.window ?? '1h'];
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

  const { samples, seed, confidence } = resolveBootstrapDraws(options.bootstrap ?? {}, 2000);
  const method = options.bootstrap?.method ?? 'day';
  if (!(BOOTSTRAP_METHODS as readonly string[]).includes(method)) {
    throw new AnalysisOptionError(analysisMessages.badBootstrap(`method must be one of ${BOOTSTRAP_METHODS.join(', ')}`), { option: 'bootstrap.method' });
  }
  const blockDays = options.bootstrap?.blockDays ?? 'auto';
  if (blockDays !== 'auto') checkBlockDays(blockDays, true);
  const allowMixed = options.allowMixedCalculationVersions ?? false;
  if (typeof allowMixed !== 'boolean') {
    throw new AnalysisOptionError(analysisMessages.badFlag('allowMixedCalculationVersions', 'true or false'), { option: 'allowMixedCalculationVersions' });
  }
  return {
    windows,
    by,
    releases: options.releases === undefined ? undefined : resolveReleaseIds(options.releases),
    bootstrap: { samples, seed, confidence, method, blockDays },
    allowMixedCalculationVersions: allowMixed,
  };
}
