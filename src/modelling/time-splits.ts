// What a time-aware split is (train and test rows of one fold, with what was purged and embargoed), and the
// options both split methods share: the label window and the releases.

import { DEFAULT_WINDOW, SAMPLE_TYPES, WINDOW_SECONDS, type ModelSplitMethod, type SampleType, type Window } from '../contract/index.js';
import { AnalysisOptionError, resolveReleaseIds, resolveWindow } from '../analysis/index.js';
import { splitReleaseIds, type SplitRowOptions, type SplitRowSelection, type SplitRowTable } from './split-rows.js';
import { modellingMessages } from './messages.js';

/** Options every split method takes. */
export interface TimeSplitOptions {
  /** The label window W whose outcome the model predicts; each row's label interval is [sample_time, reference_start + W]. Default `1h`. */
  window?: Window;
  /** Exact release IDs; default: the catalog's current view (newest revision of each day). */
  releases?: readonly string[];
  /** Pool eligible rows of more than one `calculation_version` (as the event study's opt-in). Default false: refused. */
  allowMixedCalculationVersions?: boolean;
  /** Only rows of this sample_type (`event` or `control`); the others are counted as `sample_type_not_selected`. Default: both. */
  sampleType?: SampleType;
}

/** One fold. Indices point into `TimeSplits.rows`, ascending (= time order). */
export interface TimeSplit {
  /** 1-based fold number, in time order of the test blocks. */
  readonly fold: number;
  readonly train: Uint32Array;
  readonly test: Uint32Array;
  /** The UTC days of the test rows, ascending. */
  readonly testDays: readonly string[];
  /** Test span, UTC Unix seconds: first test sample_time .. last test label end. */
  readonly testSpan: { readonly start: number; readonly end: number };
  readonly trainReleaseIds: readonly string[];
  readonly testReleaseIds: readonly string[];
  /** Rows outside the test whose label interval overlaps the test span. */
  readonly purged: number;
  /** Rows whose sample_time is in (testSpan.end, testSpan.end + embargo]. */
  readonly embargoed: number;
  /** Walk-forward only: eligible rows neither train nor test (after the test block, or before a rolling train window). 0 in k-fold. */
  readonly unused: number;
}

/** Splits of one catalog for one window: the rows read (SplitRowSelection: eligible rows in time order, left out by reason, releases, calculation versions) and the folds. */
export interface TimeSplits extends SplitRowSelection {
  /** `row-k-fold` is the naive, leaking comparison (rowKFoldSplits). */
  readonly method: ModelSplitMethod;
  /** W, seconds. */
  readonly windowSeconds: number;
  /** The embargo applied after each test span, seconds (0 for walk-forward: nothing after a test trains). */
  readonly embargoSeconds: number;
  readonly splits: readonly TimeSplit[];
}

/** The TimeSplits of `method` over the rows read: the selection, W, the embargo and the folds. */
export function timeSplits(method: TimeSplits['method'], selection: SplitRowSelection, embargoSeconds: number, splits: readonly TimeSplit[]): TimeSplits {
  return { ...selection, method, windowSeconds: WINDOW_SECONDS[selection.window], embargoSeconds, splits };
}

/** @throws AnalysisOptionError for an unknown window or sample type; the release IDs' errors */
export function resolveTimeSplitOptions(options: TimeSplitOptions): { window: Window; releases: string[] | undefined; rowOptions: SplitRowOptions } {
  const window = resolveWindow((options.window ?? DEFAULT_WINDOW) as string);
  const releases = options.releases === undefined ? undefined : resolveReleaseIds(options.releases);
  const { sampleType } = options;
  if (sampleType !== undefined && !(SAMPLE_TYPES as readonly string[]).includes(sampleType)) {
    throw new AnalysisOptionError(modellingMessages.badSampleType(String(sampleType), SAMPLE_TYPES), { option: 'sampleType' });
  }
  return { window, releases, rowOptions: { allowMixedCalculationVersions: options.allowMixedCalculationVersions, sampleType } };
}

/** A whole number >= `min`, or the default when undefined. @throws AnalysisOptionError naming the option */
export function resolveCount(option: string, value: unknown, fallback: number | undefined, min: number): number | undefined {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new AnalysisOptionError(modellingMessages.badSplitCount(option, String(value), min), { option });
  }
  return value;
}

/**
 * Splits the rows outside one test block [testStart, testEnd) (index range) into train, purged, embargoed and
 * unused. `candidate(i)` says whether row i may train at all (walk-forward: before the test, in the window).
 * Purge: label interval [sampleTime, labelEnd] overlaps the test span [start, end] (closed intervals).
 * Embargo: sampleTime in (end, end + embargoSeconds].
 */
export function buildSplit(
  selection: SplitRowSelection,
  fold: number,
  testStart: number,
  testEnd: number,
  embargoSeconds: number,
  candidate: (index: number) => boolean = () => true,
): TimeSplit {
  const { rows } = selection;
  const count = rows.sampleTime.length;
  const start = rows.sampleTime[testStart]!;
  let end = -Infinity;
  for (let index = testStart; index < testEnd; index += 1) end = Math.max(end, rows.labelEnd[index]!);
  const train = new Uint32Array(count);
  let trained = 0;
  let purged = 0;
  let embargoed = 0;
  let unused = 0;
  for (let index = 0; index < count; index += 1) {
    if (index === testStart) {
      index = testEnd - 1;
      continue;
    }
    if (!candidate(index)) unused += 1;
    else if (rows.sampleTime[index]! <= end && rows.labelEnd[index]! >= start) purged += 1;
    else if (rows.sampleTime[index]! > end && rows.sampleTime[index]! <= end + embargoSeconds) embargoed += 1;
    else train[trained++] = index;
  }
  const test = new Uint32Array(testEnd - testStart);
  for (let index = testStart; index < testEnd; index += 1) test[index - testStart] = index;
  const trainIndices = train.slice(0, trained);
  const testDays = rows.days.slice(rows.dayIndex[testStart]!, rows.dayIndex[testEnd - 1]! + 1);
  return {
    fold,
    train: trainIndices,
    test,
    testDays,
    testSpan: { start, end },
    trainReleaseIds: splitReleaseIds(rows, trainIndices),
    testReleaseIds: splitReleaseIds(rows, test),
    purged,
    embargoed,
    unused,
  };
}

/** The first row index of each day (plus the row count at the end): rows are in time order, so a day is an index range. */
export function dayStarts(rows: SplitRowTable): number[] {
  const starts: number[] = [];
  for (let index = 0; index < rows.dayIndex.length; index += 1) if (index === 0 || rows.dayIndex[index] !== rows.dayIndex[index - 1]) starts.push(index);
  starts.push(rows.dayIndex.length);
  return starts;
}
