// The rows a time-aware split may use for one label window: DuckDB keeps the point-in-time rows with a
// complete outcome, counts the others by reason, and returns the kept rows' identities in time order.

import { CANDLE_SECONDS, WINDOW_SECONDS, type SampleType, type Window } from '../contract/index.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';
import {
  EmptyStudyError,
  assertReleasesFound,
  studyVersionMix,
  type CalculationVersionShare,
  type AnalysisSource,
  type AnalysisSourceLike,
  rowsFromSql,
  toAnalysisSource,
  MISSING_STATUSES,
  outcome,
  PIT_DROP_REASONS,
  pointInTimeReasonSql,
} from '../analysis/index.js';
import { readColumns } from './read-columns.js';
import { modellingMessages } from './messages.js';

/**
 * Why a row is left out of every split, in the order the rules are checked (first failing rule wins): another
 * sample_type than the one asked for, no row_id or sample_time (no identity, no time), no status (the catalog's schema forbids it; other tables may
 * not), then the window's outcome status (anything but `complete`), then the point-in-time rules (PIT_DROP_REASONS).
 */
export const SPLIT_EXCLUSION_REASONS = ['sample_type_not_selected', 'row_id_missing', 'sample_time_missing', 'status_missing', ...MISSING_STATUSES, ...PIT_DROP_REASONS] as const;
export type SplitExclusionReason = (typeof SPLIT_EXCLUSION_REASONS)[number];

/**
 * The eligible rows, ordered by (sample_time, release_id, row_id); splits hold indices into these arrays.
 * A row is identified by (release_id, row_id) (row_id is unique within a release).
 */
export interface SplitRowTable {
  /** The release IDs of the eligible rows, sorted; `releaseIndex` points into it. */
  readonly releases: readonly string[];
  /** Per row, the index of its release ID in `releases` (one small number per row instead of a 64-character string). */
  readonly releaseIndex: Uint32Array;
  /**
   * Per row, its row_id. Read from DuckDB's result on first access (a getter; the strings cost ~1 s per 500k rows
   * and splits only count rows): count rows with `sampleTime.length`.
   */
  readonly rowId: readonly string[];
  /** UTC Unix seconds. */
  readonly sampleTime: Float64Array;
  /**
   * End of the row's label interval, UTC Unix seconds: reference_start + W, where reference_start =
   * ceil(sample_time / 300) * 300 (spec) — the close of the outcome's last candle, up to 300 s after sample_time + W.
   */
  readonly labelEnd: Float64Array;
  /** Index into `days` of the UTC day of sample_time. */
  readonly dayIndex: Int32Array;
  /** The UTC days holding eligible rows, `YYYY-MM-DD`, ascending. */
  readonly days: readonly string[];
}

/** The rows of one window before any split: what was kept and what was left out, by reason. */
export interface SplitRowSelection {
  readonly window: Window;
  readonly rows: SplitRowTable;
  /** Every row read (kept + left out). */
  readonly total: number;
  readonly leftOut: Readonly<Record<SplitExclusionReason, number>>;
  /** Release IDs of the rows read, sorted. */
  readonly releaseIds: readonly string[];
  /** Eligible rows and releases per calculation_version (one entry unless mixing was allowed). */
  readonly calculationVersionMix: readonly CalculationVersionShare[];
}

/** What readSplitRows keeps beyond the window's rules. */
export interface SplitRowOptions {
  allowMixedCalculationVersions?: boolean;
  sampleType?: SampleType;
}

/** One row's identity: what joins a split back to the catalog. */
export interface SplitRowIdentity {
  release_id: string;
  row_id: string;
}

/** The (release_id, row_id) of each index, in the order given. */
export function splitRowIdentities(rows: SplitRowTable, indices: ArrayLike<number>): SplitRowIdentity[] {
  const out: SplitRowIdentity[] = [];
  for (let position = 0; position < indices.length; position += 1) {
    const index = indices[position]!;
    out.push({ release_id: rows.releases[rows.releaseIndex[index]!]!, row_id: rows.rowId[index]! });
  }
  return out;
}

/** The sorted distinct release IDs of the rows at these indices. */
export function splitReleaseIds(rows: SplitRowTable, indices: ArrayLike<number>): string[] {
  const seen = new Uint8Array(rows.releases.length);
  for (let position = 0; position < indices.length; position += 1) seen[rows.releaseIndex[indices[position]!]!] = 1;
  return rows.releases.filter((_, index) => seen[index] === 1);
}

/** SQL ORDER BY of the eligible rows: time, then identity, so the order is the same on every run. */
export const SPLIT_ROW_ORDER_SQL = 'sample_time, release_id, row_id';

/**
 * A parenthesised subquery of every row of the releases (or the current view) with all its fields plus
 * `label_end` (end of its label interval at `window`) and `reason` (why it is left out, NULL when eligible).
 * readSplitRows keeps `reason IS NULL` in SPLIT_ROW_ORDER_SQL order; so does anything that must line up with it.
 */
export function classifiedSplitRowsSql(source: Required<AnalysisSource>, window: Window, releases: readonly string[] | undefined, options: SplitRowOptions = {}): string {
  const status = quoteIdentifier(outcome(window).statusField);
  const seconds = WINDOW_SECONDS[window];
  return `(SELECT *,
    greatest(sample_time, coalesce(reference_start, ceil(sample_time / ${CANDLE_SECONDS}) * ${CANDLE_SECONDS})) + ${seconds} AS label_end,
    CASE${options.sampleType === undefined ? '' : `
      WHEN sample_type IS DISTINCT FROM ${quoteLiteral(options.sampleType)} THEN 'sample_type_not_selected'`}
      WHEN row_id IS NULL THEN 'row_id_missing'
      WHEN sample_time IS NULL THEN 'sample_time_missing'
      WHEN ${status} IS NULL THEN 'status_missing'
      WHEN ${status} IS DISTINCT FROM 'complete' THEN ${status}
      ELSE ${pointInTimeReasonSql()}
    END AS reason
  FROM ${rowsFromSql(source, releases)})`;
}

function dayText(dayNumber: number): string {
  return new Date(dayNumber * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Reads the rows of `window` for splitting: point-in-time rows whose outcome at `window` is complete,
 * with their label interval; the others counted by reason. DuckDB filters, classifies and orders.
 * @param releases exact release IDs (already validated), or undefined for the current view
 * @param options.allowMixedCalculationVersions pool eligible rows of more than one calculation_version (default false)
 * @param options.sampleType keep only rows of this sample_type (default: both)
 * @throws ReleaseNotInCatalogError for a named release the catalog does not hold; EmptyStudyError when no row is
 *   eligible; MixedCalculationVersionsError when eligible rows carry several calculation versions, unless allowed
 */
export async function readSplitRows(
  source: AnalysisSourceLike,
  window: Window,
  releases: readonly string[] | undefined,
  options: SplitRowOptions = {},
): Promise<SplitRowSelection> {
  const resolved = toAnalysisSource(source);
  const connection = resolved.connection;
  // 1. every row with its exclusion reason (NULL: eligible) and its label interval's end
  const classified = classifiedSplitRowsSql(resolved, window, releases, options);
  // 2. counts by reason and the release IDs read
  const counts = (
    await connection.runAndReadAll(`SELECT reason, count(*)::INTEGER AS n, list(DISTINCT release_id ORDER BY release_id) AS ids FROM ${classified} GROUP BY reason`)
  ).getRowObjectsJS();
  const leftOut = Object.fromEntries(SPLIT_EXCLUSION_REASONS.map((reason) => [reason, 0])) as Record<SplitExclusionReason, number>;
  const releaseIds = new Set<string>();
  let total = 0;
  let eligibleReleases: string[] = [];
  for (const row of counts) {
    const n = Number(row.n);
    total += n;
    for (const id of (row.ids as string[]) ?? []) releaseIds.add(id);
    if (row.reason === null) eligibleReleases = (row.ids as string[]) ?? [];
    if (row.reason !== null) leftOut[row.reason as SplitExclusionReason] = (leftOut[row.reason as SplitExclusionReason] ?? 0) + n;
  }
  assertReleasesFound(releases, releaseIds);
  // 3. one formula version per split, unless asked (as the event study: rows of two versions measure different things)
  const calculationVersionMix = await studyVersionMix(connection, `(SELECT * FROM ${classified} WHERE reason IS NULL)`, options.allowMixedCalculationVersions === true);
  // 4. the eligible rows in time order; ties broken by identity so the order is the same on every run. The
  //    release ID comes back as its rank among the sorted eligible IDs (converting 500k strings costs ~1 s), from a
  //    join with the distinct IDs (a window over every row sorted them all once more), and sorts as the ID does.
  const ranks = `(SELECT release_id, (row_number() OVER (ORDER BY release_id) - 1)::INTEGER AS release_index
    FROM (SELECT DISTINCT release_id FROM ${classified} WHERE reason IS NULL))`;
  const [releaseColumn, rowColumn, timeColumn, endColumn, dayColumn] = await readColumns(
    connection,
    `SELECT ranks.release_index, eligible.row_id, eligible.sample_time, eligible.label_end, floor(eligible.sample_time / 86400)::INTEGER AS day_number
    FROM ${classified} AS eligible JOIN ${ranks} AS ranks USING (release_id)
    WHERE eligible.reason IS NULL ORDER BY eligible.sample_time, ranks.release_index, eligible.row_id`,
    ['number', 'deferred-text', 'number', 'number', 'number'],
  );
  const count = releaseColumn.length;
  if (count === 0) throw new EmptyStudyError(modellingMessages.noSplitRows(window));
  const days: string[] = [];
  const dayIndex = new Int32Array(count);
  let lastDay = Number.NaN;
  for (let index = 0; index < count; index += 1) {
    const dayNumber = dayColumn[index]!;
    if (dayNumber !== lastDay) {
      days.push(dayText(dayNumber));
      lastDay = dayNumber;
    }
    dayIndex[index] = days.length - 1;
  }
  const rows = {
    releases: eligibleReleases,
    releaseIndex: Uint32Array.from(releaseColumn),
    sampleTime: timeColumn,
    labelEnd: endColumn,
    dayIndex,
    days,
  };
  // Enumerable, so spreading, JSON and deep equality see it as the plain array it was (not null: row_id_missing left those out).
  Object.defineProperty(rows, 'rowId', { get: rowColumn as () => string[], enumerable: true });
  return {
    window,
    rows: rows as unknown as SplitRowTable,
    total,
    leftOut,
    releaseIds: [...releaseIds].sort(),
    calculationVersionMix,
  };
}
