// Per-group statistics over a frame's columns that skip missing values as SQL's aggregates skip NULL (NaN is
// missing too, unlike SQL, whose count(x) counts a NaN). danfojs 1.2's
// groupby().agg() cannot: its `count` is the group's length and its `mean` is sum / length with null added as 0,
// so a pending or gap outcome (null in rdw's frames) becomes a zero return; NaN or undefined only turn the
// mean into NaN and still count. No representation of "missing" makes its agg right, hence this helper.

import { AnalysisOptionError, UnknownColumnError } from './analysis-errors.js';
import { analysisMessages } from './messages.js';
import { frameColumns, type DataFrameLike, type DataFrameSource } from './to-data-frame.js';

/** The statistics `groupStats` computes, each as its SQL aggregate over the non-missing values of a group. */
export const GROUP_STATS = ['count', 'missing', 'mean', 'sum', 'min', 'max', 'median', 'std'] as const;
/**
 * `count`: non-missing values (SQL `count(x)`, except that NaN is missing here); `missing`: rows whose value is
 * missing (null, undefined or NaN); `mean`, `sum`, `min`, `max`; `median` (the mean of the two middle values for an even count, as
 * DuckDB's `median`); `std`: sample standard deviation (n - 1, SQL `stddev`). All but the counts are null
 * for a group without a value (`std` below two values), never 0.
 */
export type GroupStat = (typeof GROUP_STATS)[number];

export interface GroupStatsOptions {
  /** Group-key columns (none: one group of every row). Missing keys form their own group, as in SQL's GROUP BY. */
  by?: readonly string[];
  /** Numeric columns to summarise. */
  values: readonly string[];
  /** Statistics of each value column (default `['count', 'mean']`). */
  stats?: readonly GroupStat[];
}

/** One group: its keys, then `<value>_<stat>` for each value column and statistic (danfojs's agg names). */
export type GroupStatsRow = Record<string, string | number | boolean | null>;

/**
 * Per-group statistics of `values` over a danfojs frame (e.g. `toDataFrame`'s), a study result or an Arrow
 * table, skipping missing values as SQL skips NULL: `count` is the number of non-missing values, `mean`
 * their mean. null, undefined and NaN are all missing (unlike SQL, whose `count(x)` counts a NaN). Use it instead of danfojs's `groupby().agg()`, which counts a missing outcome as a 0 return.
 * Groups come in key order (as SQL's `ORDER BY` of the keys: ascending, missing last). Plain rows: print them
 * with `notebook.textTable`, or make a frame with `new dfd.DataFrame(rows)`. Needs no danfojs.
 * @throws UnknownColumnError (exit 2) for a column the source lacks; AnalysisOptionError (exit 2) for a
 *   statistic not in GROUP_STATS, no value column, or a value that is neither a number nor missing.
 */
export function groupStats(source: DataFrameLike | DataFrameSource, options: GroupStatsOptions): GroupStatsRow[] {
  const columns = columnsOf(source);
  const by = options.by ?? [];
  const stats = options.stats ?? ['count', 'mean'];
  checkOptions(columns, by, options.values, stats);
  const keyColumns = by.map((key) => ownColumn(columns, key));
  const rowCount = Object.values(columns)[0]?.length ?? 0;
  const groups = new Map<string, { keys: unknown[]; rows: number[] }>();
  for (let row = 0; row < rowCount; row++) {
    const keys = keyColumns.map((column) => missingAsNull(column[row]));
    const id = JSON.stringify(keys);
    const group = groups.get(id) ?? { keys, rows: [] };
    group.rows.push(row);
    groups.set(id, group);
  }
  return [...groups.values()]
    .sort((a, b) => compareKeys(a.keys, b.keys))
    .map(({ keys, rows }) => {
      const out: GroupStatsRow = Object.fromEntries(by.map((key, i) => [key, keys[i] as GroupStatsRow[string]]));
      for (const name of options.values) {
        const present = numbersOf(name, ownColumn(columns, name), rows);
        for (const stat of stats) out[`${name}_${stat}`] = statistic(stat, present, rows.length);
      }
      return out;
    });
}

function columnsOf(source: DataFrameLike | DataFrameSource): Record<string, unknown[]> {
  if ('numRows' in source || 'table' in source) return frameColumns(source);
  const rows = source.values as readonly (readonly unknown[])[];
  return Object.fromEntries(source.columns.map((name, i) => [name, rows.map((row) => row[i])]));
}

function checkOptions(columns: Record<string, unknown[]>, by: readonly string[], values: readonly string[], stats: readonly GroupStat[]): void {
  if (values.length === 0) throw new AnalysisOptionError(analysisMessages.groupStatsNoValues());
  for (const name of [...by, ...values]) ownColumn(columns, name);
  for (const stat of stats) {
    if (!(GROUP_STATS as readonly string[]).includes(stat)) throw new AnalysisOptionError(analysisMessages.groupStatsBadStat(String(stat), GROUP_STATS));
  }
}

/**
 * The column `name` of the source. Own columns only: `in` or a plain lookup would take an inherited name
 * (`toString`, `constructor`) for a column. @throws UnknownColumnError
 */
function ownColumn(columns: Record<string, unknown[]>, name: string): unknown[] {
  if (!Object.hasOwn(columns, name)) throw new UnknownColumnError(analysisMessages.groupStatsUnknownColumn(name, Object.keys(columns)));
  return columns[name]!;
}

const isMissing = (value: unknown): boolean => value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value));
const missingAsNull = (value: unknown): unknown => (isMissing(value) ? null : value);

/** The group's non-missing values of a column, in row order. */
function numbersOf(name: string, column: readonly unknown[], rows: readonly number[]): number[] {
  const out: number[] = [];
  for (const row of rows) {
    const value = column[row];
    if (isMissing(value)) continue;
    if (typeof value !== 'number') throw new AnalysisOptionError(analysisMessages.groupStatsNotNumber(name, row, value));
    out.push(value);
  }
  return out;
}

function statistic(stat: GroupStat, values: readonly number[], rows: number): number | null {
  const n = values.length;
  if (stat === 'count') return n;
  if (stat === 'missing') return rows - n;
  if (n === 0) return null;
  const sum = values.reduce((total, value) => total + value, 0);
  switch (stat) {
    case 'sum':
      return sum;
    case 'mean':
      return sum / n;
    case 'min':
      return values.reduce((low, value) => (value < low ? value : low));
    case 'max':
      return values.reduce((high, value) => (value > high ? value : high));
    case 'median': {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(n / 2);
      return n % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    }
    case 'std': {
      if (n < 2) return null;
      const mean = sum / n;
      return Math.sqrt(values.reduce((total, value) => total + (value - mean) ** 2, 0) / (n - 1));
    }
  }
}

/** Ascending by each key in turn, missing last (SQL's default ORDER BY ... NULLS LAST). */
function compareKeys(a: readonly unknown[], b: readonly unknown[]): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x as number | string) < (y as number | string) ? -1 : 1;
  }
  return 0;
}
