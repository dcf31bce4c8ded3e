// Step 5 of the event study: each group's interval and p-value of its difference against signed controls,
// from one method. Default the delete-one-block jackknife over calendar blocks of UTC days (per-day totals
// from DuckDB, summed per block in JS); opt-in a row bootstrap (return lists from DuckDB, resampled in JS).

import type { DuckDBConnection } from '@duckdb/node-api';
import { WINDOW_SECONDS, type Window } from '../contract/index.js';
import { assignDayBlocks, blockJackknifeInterval, daysForInterval, intervalBlockDays, MIN_INTERVAL_BLOCKS, moreDaysForInterval } from './block-jackknife.js';
import { bootstrapMeans, deriveSeed, percentileInterval } from './bootstrap.js';
import { percentileBootstrapPValue } from './bootstrap-p-value.js';
import type { ResolvedEventStudyOptions, StudyGroupKey } from './event-study-options.js';
import type { EventStudyRow, IntervalGap } from './event-study-result.js';
import {
  controlClusterTotalsSql,
  controlKeys,
  controlReturnListsSql,
  eventClusterTotalsSql,
  eventReturnListsSql,
} from './event-study-sql.js';

/** What the intervals were computed with, for the result's metadata. */
export interface IntervalSummary {
  /** UTC days per jackknife block, per window (block jackknife only). */
  blockDays: Partial<Record<Window, number>>;
  /** Jackknife blocks per window: the most any group of the window has (block jackknife only). */
  blocks: Partial<Record<Window, number>>;
  /** Windows (and how many of their groups) without an interval, and why. */
  gaps: IntervalGap[];
}

/** Days per jackknife block for a window: `blockDays` when given, else intervalBlockDays(window). */
export function blockDaysFor(window: Window, blockDays: number | 'auto'): number {
  return blockDays === 'auto' ? intervalBlockDays(WINDOW_SECONDS[window]) : blockDays;
}

function listKey(row: Readonly<Record<string, unknown>>, keys: readonly string[]): string {
  return JSON.stringify(keys.map((key) => row[key] ?? null));
}

/** What both interval methods work from: the study's rows and options, and the key columns of its groups. */
interface IntervalInput {
  connection: DuckDBConnection;
  /** The study's rows as a FROM clause. */
  from: string;
  rows: EventStudyRow[];
  options: ResolvedEventStudyOptions;
  /** The study's first UTC day (days since 1970-01-01): block 0 starts there. */
  firstDay: number;
  /** Columns that name a group: window, then the `by` keys. */
  groupKeys: readonly string[];
  /** Columns that name a group's controls: window, and symbol when the study groups by it. */
  controlKeys: readonly string[];
}

/**
 * Sets ci_low_pct / ci_high_pct and p_value on every row from one method (all null where there is no
 * interval: too few blocks, or no complete event or control return).
 * @param firstDay the study's first UTC day as days since 1970-01-01
 */
export async function addIntervals(
  connection: DuckDBConnection,
  from: string,
  rows: EventStudyRow[],
  options: ResolvedEventStudyOptions,
  firstDay: number,
): Promise<IntervalSummary> {
  for (const row of rows) {
    row.ci_low_pct = null;
    row.ci_high_pct = null;
    row.p_value = null;
  }
  const input: IntervalInput = {
    connection,
    from,
    rows,
    options,
    firstDay,
    groupKeys: ['window', ...options.by],
    controlKeys: ['window', ...controlKeys(options.by)],
  };
  return options.interval.method === 'row-bootstrap' ? rowIntervals(input) : jackknifeIntervals(input);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` UTC day. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
}

/** The rows `sql` returns, each with its key: the JSON list of its `keys` columns. */
async function keyedRows(connection: DuckDBConnection, sql: string, keys: readonly string[]): Promise<[string, Record<string, unknown>][]> {
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  return rows.map((row) => [listKey(row, keys), row]);
}

/** Per-day totals: key -> day number -> [sum, count, signed count (events only, else 0)]. */
type DayTotals = Map<string, Map<number, [number, number, number]>>;

async function readTotals(connection: DuckDBConnection, sql: string, keys: readonly string[]): Promise<DayTotals> {
  const totals: DayTotals = new Map();
  for (const [key, row] of await keyedRows(connection, sql, keys)) {
    let days = totals.get(key);
    if (!days) totals.set(key, (days = new Map()));
    days.set(dayNumber(String(row.cluster)), [Number(row.total), Number(row.n), Number(row.signed ?? 0)]);
  }
  return totals;
}

/** One group's totals summed per block: events (sum, count, signed count) and controls (sum, count). */
interface BlockTotals {
  eSum: Float64Array;
  eCount: Float64Array;
  eSigned: Float64Array;
  cSum: Float64Array;
  cCount: Float64Array;
}

/** The group's days (with an event or a control return) summed into calendar blocks from `firstDay`. */
function blockTotals(
  events: Map<number, [number, number, number]>,
  controls: Map<number, [number, number, number]>,
  blockDays: number,
  firstDay: number,
): { totals: BlockTotals; lastDay: number } {
  const days = [...new Set([...events.keys(), ...controls.keys()])];
  const { block, count } = assignDayBlocks(days, blockDays, firstDay);
  const totals: BlockTotals = {
    eSum: new Float64Array(count),
    eCount: new Float64Array(count),
    eSigned: new Float64Array(count),
    cSum: new Float64Array(count),
    cCount: new Float64Array(count),
  };
  let lastDay = firstDay;
  days.forEach((day, i) => {
    const g = block[i]!;
    lastDay = Math.max(lastDay, day);
    const e = events.get(day);
    if (e) {
      totals.eSum[g] = totals.eSum[g]! + e[0];
      totals.eCount[g] = totals.eCount[g]! + e[1];
      totals.eSigned[g] = totals.eSigned[g]! + e[2];
    }
    const c = controls.get(day);
    if (c) {
      totals.cSum[g] = totals.cSum[g]! + c[0];
      totals.cCount[g] = totals.cCount[g]! + c[1];
    }
  });
  return { totals, lastDay };
}

/**
 * The difference mean(events) - share · mean(controls) without each block in turn, share being the mean
 * direction sign of the events left (exactly +1 or -1 for a one-direction group). NaN where leaving a block
 * out leaves no event or no control return.
 */
export function leaveOneBlockOutDifferences(totals: BlockTotals): Float64Array {
  const g = totals.eSum.length;
  let eSum = 0;
  let eCount = 0;
  let eSigned = 0;
  let cSum = 0;
  let cCount = 0;
  for (let i = 0; i < g; i += 1) {
    eSum += totals.eSum[i]!;
    eCount += totals.eCount[i]!;
    eSigned += totals.eSigned[i]!;
    cSum += totals.cSum[i]!;
    cCount += totals.cCount[i]!;
  }
  const out = new Float64Array(g);
  for (let i = 0; i < g; i += 1) {
    const n = eCount - totals.eCount[i]!;
    const m = cCount - totals.cCount[i]!;
    out[i] = n > 0 && m > 0 ? (eSum - totals.eSum[i]!) / n - ((eSigned - totals.eSigned[i]!) / n) * ((cSum - totals.cSum[i]!) / m) : Number.NaN;
  }
  return out;
}

/** Gaps of one window, collected while the groups are computed. */
class GapCollector {
  readonly gaps = new Map<string, IntervalGap>();
  readonly groupsPerWindow = new Map<Window, number>();

  countGroup(window: Window): void {
    this.groupsPerWindow.set(window, (this.groupsPerWindow.get(window) ?? 0) + 1);
  }

  add(window: Window, reason: IntervalGap['reason'], blocks: number, blockDays: number, days: number): void {
    const key = `${window}|${reason}`;
    const gap = this.gaps.get(key);
    if (gap === undefined) {
      this.gaps.set(key, {
        window,
        reason,
        groups: 1,
        windowGroups: 0,
        days,
        blocks,
        blockDays,
        minBlocks: MIN_INTERVAL_BLOCKS,
        moreDays: moreDaysForInterval(days, blockDays),
        daysNeeded: daysForInterval(blockDays),
      });
      return;
    }
    gap.groups += 1;
    // Of several groups, the one with the most days says how many more the window needs.
    if (days > gap.days) Object.assign(gap, { days, blocks, moreDays: moreDaysForInterval(days, blockDays) });
  }

  list(windows: readonly Window[], reasons: readonly IntervalGap['reason'][]): IntervalGap[] {
    const out: IntervalGap[] = [];
    for (const window of windows) {
      for (const reason of reasons) {
        const gap = this.gaps.get(`${window}|${reason}`);
        if (gap) out.push({ ...gap, windowGroups: this.groupsPerWindow.get(window) ?? gap.groups });
      }
    }
    return out;
  }
}

async function jackknifeIntervals(input: IntervalInput): Promise<IntervalSummary> {
  const { connection, from, rows, options, firstDay, groupKeys, controlKeys: cKeys } = input;
  const { windows, by } = options;
  const { confidence } = options.interval;
  const eventTotals = await readTotals(connection, eventClusterTotalsSql(from, windows, by), groupKeys);
  const controlTotals = await readTotals(connection, controlClusterTotalsSql(from, windows, by as StudyGroupKey[]), cKeys);
  const summary: IntervalSummary = { blockDays: {}, blocks: {}, gaps: [] };
  for (const window of windows) summary.blockDays[window] = blockDaysFor(window, options.interval.blockDays);
  const gaps = new GapCollector();
  for (const row of rows) {
    const events = eventTotals.get(listKey(row, groupKeys));
    const controls = controlTotals.get(listKey(row, cKeys));
    // No complete event or control return: no difference, nothing to say beyond the blank cell.
    if (!events || !controls || row.difference_pct === null) continue;
    gaps.countGroup(row.window);
    const blockDays = summary.blockDays[row.window]!;
    const { totals, lastDay } = blockTotals(events, controls, blockDays, firstDay);
    const leaveOneOut = leaveOneBlockOutDifferences(totals);
    summary.blocks[row.window] = Math.max(summary.blocks[row.window] ?? 0, leaveOneOut.length);
    const interval = blockJackknifeInterval(row.difference_pct, leaveOneOut, { confidence, nullValue: 0 });
    if (interval.kind === 'none') {
      gaps.add(row.window, interval.reason, interval.blocks, blockDays, lastDay - firstDay + 1);
      continue;
    }
    row.ci_low_pct = interval.low;
    row.ci_high_pct = interval.high;
    row.p_value = interval.pValue;
  }
  summary.gaps = gaps.list(windows, ['too_few_blocks', 'not_estimable', 'no_variation']);
  return summary;
}

interface ReturnList {
  values: Float64Array;
  /** Mean direction sign of the listed events (controls: 0). */
  share: number;
}

async function readLists(connection: DuckDBConnection, sql: string, keys: readonly string[]): Promise<Map<string, ReturnList>> {
  const lists = new Map<string, ReturnList>();
  for (const [key, row] of await keyedRows(connection, sql, keys)) {
    lists.set(key, { values: Float64Array.from((row.returns as number[] | null) ?? []), share: Number(row.signed_share ?? 0) });
  }
  return lists;
}

// Row bootstrap (opt-in, ignores day clustering): events and controls resampled independently; the control
// draws are made once per window (× symbol) and shared by that window's groups (each interval is still a
// valid two-sample bootstrap). The p-value comes from the same draws, so it agrees with the interval.
async function rowIntervals(input: IntervalInput): Promise<IntervalSummary> {
  const { connection, from, rows, options, groupKeys, controlKeys: cKeys } = input;
  const { windows, by } = options;
  const { samples, seed, confidence } = options.interval;
  const eventLists = await readLists(connection, eventReturnListsSql(from, windows, by), groupKeys);
  const controlLists = await readLists(connection, controlReturnListsSql(from, windows, by), cKeys);
  const controlDraws = new Map<string, Float64Array>();
  for (const [key, list] of controlLists) controlDraws.set(key, bootstrapMeans(list.values, samples, deriveSeed(seed, `control|${key}`)));
  const gaps = new GapCollector();
  for (const row of rows) {
    const eventKey = listKey(row, groupKeys);
    const events = eventLists.get(eventKey);
    const controls = controlDraws.get(listKey(row, cKeys));
    if (!events || events.values.length === 0 || !controls || Number.isNaN(controls[0]!)) continue;
    gaps.countGroup(row.window);
    // The events' mean sign is held fixed (a group of one direction: exactly +1 or -1).
    const eventMeans = bootstrapMeans(events.values, samples, deriveSeed(seed, `event|${eventKey}`));
    const differences = new Float64Array(samples);
    for (let b = 0; b < samples; b += 1) differences[b] = eventMeans[b]! - events.share * controls[b]!;
    const pValue = percentileBootstrapPValue(differences);
    if (pValue === null) {
      gaps.add(row.window, 'no_variation', 0, 0, 0);
      continue;
    }
    [row.ci_low_pct, row.ci_high_pct] = percentileInterval(differences, confidence);
    row.p_value = pValue;
  }
  return { blockDays: {}, blocks: {}, gaps: gaps.list(windows, ['no_variation']) };
}
