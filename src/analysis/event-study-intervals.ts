// Step 5 of the event study: the bootstrap interval of each group's difference against signed controls,
// by day clusters (default) or by rows. DuckDB supplies per-day totals or return lists; JS only resamples.

import type { DuckDBConnection } from '@duckdb/node-api';
import { WINDOW_SECONDS, type Window } from '../contract/index.js';
import { bootstrapMeans, deriveSeed, percentileInterval } from './bootstrap.js';
import { bootstrapPValue } from './bootstrap-p-value.js';
import { clusterBootstrapDifferences, clustersCanVary, defaultBlockDays } from './cluster-bootstrap.js';
import type { ResolvedEventStudyOptions, StudyGroupKey } from './event-study-options.js';
import type { EventStudyRow } from './event-study-result.js';
import {
  controlClusterTotalsSql,
  controlKeys,
  controlReturnListsSql,
  eventClusterTotalsSql,
  eventReturnListsSql,
} from './event-study-sql.js';

/** What the intervals were computed with, for the result's metadata. */
export interface IntervalSummary {
  /** Days per resampled block, per window (day method only). */
  blockDays: Partial<Record<Window, number>>;
  /** Clusters (days with a complete event or control return) per window, max over symbols (day method only). */
  clusters: Partial<Record<Window, number>>;
}

/** Days per block for a window under the resolved options. */
export function blockDaysFor(window: Window, blockDays: number | 'auto'): number {
  return blockDays === 'auto' ? defaultBlockDays(WINDOW_SECONDS[window]) : blockDays;
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
  /** Columns that name a group: window, then the `by` keys. */
  groupKeys: readonly string[];
  /** Columns that name a group's controls: window, and symbol when the study groups by it. */
  controlKeys: readonly string[];
}

/**
 * Sets ci_low_pct / ci_high_pct on every row, and p_value from the same draws (all null when a side has no
 * complete return).
 */
export async function addIntervals(
  connection: DuckDBConnection,
  from: string,
  rows: EventStudyRow[],
  options: ResolvedEventStudyOptions,
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
    groupKeys: ['window', ...options.by],
    controlKeys: ['window', ...controlKeys(options.by)],
  };
  return options.bootstrap.method === 'row' ? rowIntervals(input) : dayIntervals(input);
}

/** The rows `sql` returns, each with its key: the JSON list of its `keys` columns. */
async function keyedRows(connection: DuckDBConnection, sql: string, keys: readonly string[]): Promise<[string, Record<string, unknown>][]> {
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  return rows.map((row) => [listKey(row, keys), row]);
}

/** Per-day totals: key -> day -> [sum, count, signed count (events only, else 0)]. */
type DayTotals = Map<string, Map<string, [number, number, number]>>;

async function readTotals(connection: DuckDBConnection, sql: string, keys: readonly string[]): Promise<DayTotals> {
  const totals: DayTotals = new Map();
  for (const [key, row] of await keyedRows(connection, sql, keys)) {
    let days = totals.get(key);
    if (!days) totals.set(key, (days = new Map()));
    days.set(String(row.cluster), [Number(row.total), Number(row.n), Number(row.signed ?? 0)]);
  }
  return totals;
}

async function dayIntervals(input: IntervalInput): Promise<IntervalSummary> {
  const { connection, from, rows, options, groupKeys, controlKeys: cKeys } = input;
  const { windows, by } = options;
  const { samples, seed, confidence } = options.bootstrap;
  const eventTotals = await readTotals(connection, eventClusterTotalsSql(from, windows, by), groupKeys);
  const controlTotals = await readTotals(connection, controlClusterTotalsSql(from, windows, by as StudyGroupKey[]), cKeys);

  // The clusters of a window (× symbol): every day with a complete event or control return, in calendar order.
  const universe = new Map<string, Set<string>>();
  const addDays = (key: string, days: Iterable<string>) => {
    let set = universe.get(key);
    if (!set) universe.set(key, (set = new Set()));
    for (const day of days) set.add(day);
  };
  for (const [key, days] of controlTotals) addDays(key, days.keys());
  for (const row of rows) addDays(listKey(row, cKeys), eventTotals.get(listKey(row, groupKeys))?.keys() ?? []);
  const orderedDays = new Map([...universe].map(([key, set]) => [key, [...set].sort()]));

  const summary: IntervalSummary = { blockDays: {}, clusters: {} };
  for (const window of windows) summary.blockDays[window] = blockDaysFor(window, options.bootstrap.blockDays);
  for (const row of rows) {
    const groupKey = listKey(row, groupKeys);
    const controlKey = listKey(row, cKeys);
    const days = orderedDays.get(controlKey) ?? [];
    summary.clusters[row.window] = Math.max(summary.clusters[row.window] ?? 0, days.length);
    const events = eventTotals.get(groupKey);
    const controls = controlTotals.get(controlKey);
    // One day (or one block holding every day): every draw is the sample, so no interval and no p-value.
    if (!events || !controls || !clustersCanVary(days.length, summary.blockDays[row.window]!)) continue;
    const aligned = (source: Map<string, [number, number, number]>) => {
      const sums = new Float64Array(days.length);
      const counts = new Float64Array(days.length);
      const signed = new Float64Array(days.length);
      days.forEach((day, i) => {
        const cell = source.get(day);
        if (cell) [sums[i], counts[i], signed[i]] = cell;
      });
      return { sums, counts, signed };
    };
    const draws = clusterBootstrapDifferences(
      aligned(events),
      aligned(controls),
      samples,
      deriveSeed(seed, `day|${groupKey}`),
      summary.blockDays[row.window],
    );
    const [low, high] = percentileInterval(draws, confidence);
    if (Number.isNaN(low) || Number.isNaN(high)) continue;
    row.ci_low_pct = low;
    row.ci_high_pct = high;
    row.p_value = bootstrapPValue(row.difference_pct, draws);
  }
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

// Row method: events and controls resampled independently; the control draws are made once per window
// (× symbol) and shared by that window's groups (each interval is still a valid two-sample bootstrap).
async function rowIntervals(input: IntervalInput): Promise<IntervalSummary> {
  const { connection, from, rows, options, groupKeys, controlKeys: cKeys } = input;
  const { windows, by } = options;
  const { samples, seed, confidence } = options.bootstrap;
  const eventLists = await readLists(connection, eventReturnListsSql(from, windows, by), groupKeys);
  const controlLists = await readLists(connection, controlReturnListsSql(from, windows, by), cKeys);
  const controlDraws = new Map<string, Float64Array>();
  for (const [key, list] of controlLists) controlDraws.set(key, bootstrapMeans(list.values, samples, deriveSeed(seed, `control|${key}`)));
  for (const row of rows) {
    const eventKey = listKey(row, groupKeys);
    const events = eventLists.get(eventKey);
    const controls = controlDraws.get(listKey(row, cKeys));
    if (!events || events.values.length === 0 || !controls || Number.isNaN(controls[0]!)) continue;
    // The events' mean sign is held fixed (a group of one direction: exactly +1 or -1).
    const eventMeans = bootstrapMeans(events.values, samples, deriveSeed(seed, `event|${eventKey}`));
    const differences = new Float64Array(samples);
    for (let b = 0; b < samples; b += 1) differences[b] = eventMeans[b]! - events.share * controls[b]!;
    [row.ci_low_pct, row.ci_high_pct] = percentileInterval(differences, confidence);
    row.p_value = bootstrapPValue(row.difference_pct, differences);
  }
  return { blockDays: {}, clusters: {} };
}
