// Shapes of an event study's result: one row per window and group, the coverage cells, and provenance.

import type { Table } from 'apache-arrow';
import type { OutcomeStatus, Window } from '../contract/index.js';
import type { ResolvedEventStudyOptions, StudyGroupKey } from './event-study-options.js';
import type { IntervalGap } from './interval-gap.js';

export type { IntervalGap } from './interval-gap.js';

type MissingStatus = Exclude<OutcomeStatus, 'complete'>;
type MissingCounts<Prefix extends string> = { [K in `${Prefix}missing_${MissingStatus}`]: number };

/**
 * One window × group of an event study, fields in column order (eventStudyColumns: results first, then the
 * detail). Returns are in percentage points; hit_rate is a share (0..1). Every statistic is over `complete`
 * outcomes only; the counts beside it say how many rows were missing and why. A statistic with no complete
 * rows is null, never 0.
 */
export type EventStudyRow = {
  window: Window;
  /** Present when grouped by it. */
  event_kind?: string | null;
  /** Present when grouped by it (absent: both directions pooled). */
  direction?: string | null;
  /** Present when grouped by it. */
  symbol?: string | null;
  /** Event rows in the group. */
  n: number;
  /** Rows with status `complete`. */
  n_complete: number;
  /** mean_return_pct - signed_control_mean_pct, percentage points. */
  difference_pct: number | null;
  /**
   * Interval of difference_pct at the study's confidence (default: the block-jackknife t interval over UTC-day
   * blocks). Null when there is none: metadata.intervalGaps says why.
   */
  ci_low_pct: number | null;
  ci_high_pct: number | null;
  /** Benjamini–Hochberg q-value of p_value over every group of the study (all windows together). */
  q_value: number | null;
  /** q_value <= the study's level (1 - confidence): non-zero after the multiple-comparison adjustment. */
  significant_adjusted: boolean | null;
  /**
   * Two-sided p-value of difference_pct = 0 from the interval's own method (the jackknife's t distribution,
   * or the row bootstrap's draws), so the interval excludes 0 exactly when p_value < 1 - confidence. Null
   * when there is no interval.
   */
  p_value: number | null;
  /** Mean direction-adjusted return of complete rows, percentage points. */
  mean_return_pct: number | null;
  median_return_pct: number | null;
  /** Share of complete rows with a direction-adjusted return > 0. */
  hit_rate: number | null;
  median_mfe_pct: number | null;
  median_mae_pct: number | null;
  /** Control rows of the same window (and symbol when grouped by it) over the same releases. */
  control_n: number;
  control_n_complete: number;
  /**
   * Mean complete control return_pct as measured (controls have no direction), percentage points: the
   * same for every group of a window (and symbol when grouped by it).
   */
  raw_control_mean_pct: number | null;
  /**
   * raw_control_mean_pct signed by the group's direction (up: +raw, down: -raw); for a group pooling both
   * directions, times the group's mean sign over its complete events ((n_up - n_down) / n). What
   * difference_pct subtracts.
   */
  signed_control_mean_pct: number | null;
} & MissingCounts<''> &
  MissingCounts<'control_'>;

/** Rows of one UTC day and symbol. */
export interface CoverageCell {
  day: string;
  symbol: string;
  rows: number;
  events: number;
  controls: number;
  /** Rows whose outcome of the study's first window is complete. */
  complete: number;
}

/** The rows and releases of one calculation_version in a study. */
export interface CalculationVersionShare {
  calculation_version: string | null;
  rows: number;
  releases: number;
}

/** The multiple-comparison adjustment of a study (docs/analysis.md, "Many groups"). */
export interface MultipleComparisons {
  method: 'benjamini-hochberg';
  /** False discovery rate a group is called significant at: 1 - the interval's confidence (default 0.05). */
  level: number;
  /** Groups with a p-value (the m of the adjustment). */
  tested: number;
  /** Groups with q_value <= level. */
  significant: number;
  /** What was done, in words. */
  description: string;
}


/** What the numbers are pinned to. */
export interface EventStudyMetadata {
  /** Release IDs of every row read, sorted. */
  releaseIds: string[];
  /** calculation_version values of those rows, sorted. */
  calculationVersions: string[];
  /**
   * Rows and releases per calculation_version (null: rows without one), sorted. More than one entry only
   * when the study was run with `allowMixedCalculationVersions: true` (otherwise it refuses to pool them).
   */
  calculationVersionMix: CalculationVersionShare[];
  /** `releases` when exact IDs were named, else `current` (the newest revision of each day). */
  selection: 'releases' | 'current';
  /** Rows read (events and controls). */
  rows: number;
  windows: Window[];
  by: StudyGroupKey[];
  /** The interval options as resolved (method, confidence, blockDays, and samples/seed of the row bootstrap). */
  interval: ResolvedEventStudyOptions['interval'];
  /** UTC days per jackknife block, per window (block jackknife; empty for the row bootstrap). */
  intervalBlockDays: Partial<Record<Window, number>>;
  /** Jackknife blocks per window, the most of any group (block jackknife; empty for the row bootstrap). */
  intervalBlocks: Partial<Record<Window, number>>;
  /** Windows whose groups (some or all) have no interval, and why; empty when every group has one. */
  intervalGaps: IntervalGap[];
  /** The interval's method and level in words, e.g. "95% block-jackknife t interval over UTC-day blocks (…)". */
  intervalDescription: string;
  /** How well such intervals covered the truth on simulated markets (block jackknife); null for the row bootstrap, which is not calibrated. */
  intervalCalibration: string | null;
  /** How controls are compared (they have no direction). */
  controlComparison: string;
  /** The adjustment behind q_value and significant_adjusted. */
  multipleComparisons: MultipleComparisons;
}

export interface EventStudyResult {
  /** The rows as an Arrow table (columns in EventStudyRow order). */
  table: Table;
  rows: EventStudyRow[];
  /** Day × symbol row counts, for the coverage heatmap. */
  coverage: CoverageCell[];
  metadata: EventStudyMetadata;
}
