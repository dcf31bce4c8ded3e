// The manifest's statements checked against the rows its import transaction just inserted: day, rows, the
// sample_time range, coverage counts, and dataset and product version on every row (one aggregate per batch).

import type { DuckDBConnection } from '@duckdb/node-api';
import { WINDOWS } from '../contract/index.js';
import { ManifestContradictionError } from './catalog-errors.js';
import type { ReleaseImport } from './release-import.js';
import { catalogMessages } from './messages.js';
import { idInListSql } from './release-id-sql.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';

/** What a release's inserted rows say, per release ID (one row of the aggregate). */
export interface ReleaseFacts {
  rows: number;
  /** Smallest and largest non-null sample_time (UTC Unix seconds); null when no row has one. */
  minSampleTime: number | null;
  maxSampleTime: number | null;
  /** Distinct non-null values of `dataset`, `calculation_version`, `symbol`. */
  datasets: string[];
  versions: string[];
  symbols: string[];
  /**
   * Counts by non-null value of `sample_type`, `feature_status`, `taker_status`, each `status_<window>`, and
   * `symbol` (the spec's six pairs are a closed set: a seventh is kept and said, valuesOutsideSets).
   */
  counts: Record<string, Record<string, number>>;
  /** Rows with a non-null row_id, and how many distinct row_ids they hold (equal unless a sample repeats). */
  rowIds: number;
  distinctRowIds: number;
  /** The smallest row_id held by more than one row, and by how many; only when distinctRowIds < rowIds. */
  repeatedRowId?: { rowId: string; rows: number };
}

/** One contradiction: the manifest field and the clause after "its manifest says". */
export interface Contradiction {
  field: string;
  detail: string;
}

/** Coverage count objects of the manifest, with the row column each one counts. */
const COUNTED: readonly { path: string; column: string; stated: (coverage: Record<string, unknown>) => unknown }[] = [
  { path: 'coverage.samples', column: 'sample_type', stated: (coverage) => coverage.samples },
  { path: 'coverage.feature_status', column: 'feature_status', stated: (coverage) => coverage.feature_status },
  { path: 'coverage.taker_status', column: 'taker_status', stated: (coverage) => coverage.taker_status },
  ...WINDOWS.map((window) => ({
    path: `coverage.outcomes.${window}`,
    column: `status_${window}`,
    stated: (coverage: Record<string, unknown>) => (isObject(coverage.outcomes) ? coverage.outcomes[window] : undefined),
  })),
];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `to_json` of a list of the column's distinct non-null values. */
const distinct = (column: string) => `to_json(list(DISTINCT ${quoteIdentifier(column)}) FILTER (WHERE ${quoteIdentifier(column)} IS NOT NULL))::VARCHAR`;

/**
 * The one aggregate statement over the rows of `items` (already inserted in the open transaction), one row
 * per release ID. Filtered by day as well as ID, so a catalog's older row groups are skipped by their zone maps.
 */
export function releaseFactsSql(items: readonly ReleaseImport[]): string {
  const days = [...new Set(items.map((item) => `DATE ${quoteLiteral(item.release.day)}`))].join(', ');
  const counts = COUNTED.map((counted, i) => `to_json(histogram(${quoteIdentifier(counted.column)}))::VARCHAR AS c${i}`).join(',\n  ');
  return `SELECT release_id,
  count(*)::DOUBLE AS rows,
  count(row_id)::DOUBLE AS row_ids,
  count(DISTINCT row_id)::DOUBLE AS distinct_row_ids,
  min(sample_time)::DOUBLE AS min_sample_time,
  max(sample_time)::DOUBLE AS max_sample_time,
  ${distinct('dataset')} AS datasets,
  ${distinct('calculation_version')} AS versions,
  to_json(histogram(symbol))::VARCHAR AS symbol_counts,
  ${counts}
FROM market_events WHERE day IN (${days}) AND ${idInListSql('release_id', items.map((item) => item.release.id))}
GROUP BY release_id`;
}

/** Runs releaseFactsSql inside the transaction: the facts of each release ID (absent: it has no rows). */
export async function readReleaseFacts(connection: DuckDBConnection, items: readonly ReleaseImport[]): Promise<Map<string, ReleaseFacts>> {
  const reader = await connection.runAndReadAll(releaseFactsSql(items));
  const facts = new Map<string, ReleaseFacts>();
  for (const row of reader.getRowObjectsJS()) {
    const list = (value: unknown): string[] => (typeof value === 'string' ? (JSON.parse(value) as string[]) : []);
    const time = (value: unknown): number | null => (typeof value === 'number' ? value : null);
    // histogram() of no non-null value is NULL: no symbols.
    const symbolCounts = typeof row.symbol_counts === 'string' ? (JSON.parse(row.symbol_counts) as Record<string, number>) : {};
    facts.set(String(row.release_id), {
      rows: Number(row.rows),
      minSampleTime: time(row.min_sample_time),
      maxSampleTime: time(row.max_sample_time),
      datasets: list(row.datasets),
      versions: list(row.versions),
      symbols: Object.keys(symbolCounts),
      counts: {
        ...Object.fromEntries(
          COUNTED.map((counted, i) => {
            const value = row[`c${i}`];
            return [counted.column, typeof value === 'string' ? (JSON.parse(value) as Record<string, number>) : {}];
          }),
        ),
        symbol: symbolCounts,
      },
      rowIds: Number(row.row_ids),
      distinctRowIds: Number(row.distinct_row_ids),
    });
  }
  // A repeated sample is rare (a service's defect): only then one more statement finds an example to name.
  for (const [id, fact] of facts) {
    if (fact.distinctRowIds === fact.rowIds) continue;
    const item = items.find((candidate) => candidate.release.id === id)!;
    const repeated = await connection.runAndReadAll(
      `SELECT row_id, count(*)::DOUBLE AS n FROM market_events WHERE day = DATE ${quoteLiteral(item.release.day)} AND release_id = ${quoteLiteral(id)}
       GROUP BY row_id HAVING count(*) > 1 ORDER BY row_id LIMIT 1`,
    );
    const example = repeated.getRowObjectsJS()[0];
    if (example !== undefined) fact.repeatedRowId = { rowId: String(example.row_id), rows: Number(example.n) };
  }
  return facts;
}

const NO_ROWS: ReleaseFacts = { rows: 0, minSampleTime: null, maxSampleTime: null, datasets: [], versions: [], symbols: [], counts: {}, rowIds: 0, distinctRowIds: 0 };

/** The UTC day (YYYY-MM-DD) of a time in Unix seconds. */
const utcDayOf = (seconds: number) => new Date(Math.floor(seconds / 86_400) * 86_400_000).toISOString().slice(0, 10);

/**
 * Every statement of the release's manifest that its rows contradict. A statement the manifest leaves out
 * (a foreign server may omit coverage or the sample_time range), one in a shape other than the spec's, and
 * one about a field its data file does not carry (imported as NULL) are not checked; a present one must agree.
 * Counts are by non-null value (a value the manifest does not list counts 0); a null is missing, never counted.
 */
export function releaseContradictions(item: ReleaseImport, facts: ReleaseFacts = NO_ROWS): Contradiction[] {
  const { release } = item;
  const says = catalogMessages.manifestSays;
  // A field the file does not carry, or carries as Parquet's Null type, has no values to check.
  const absent = new Set([...(item.columns?.absent ?? []), ...(item.columns?.nullTyped ?? [])]);
  const found: Contradiction[] = [];
  const add = (field: string, detail: string) => found.push({ field, detail });

  if (!absent.has('sample_time') && facts.minSampleTime !== null && facts.maxSampleTime !== null) {
    const first = utcDayOf(facts.minSampleTime);
    const last = utcDayOf(facts.maxSampleTime);
    if (first !== release.day || last !== release.day) add('day', says.day(release.day, first, last));
  }
  if (facts.rows !== release.rows) add('rows', says.rows(release.rows, facts.rows));
  // Each row is one sample (row_id: the SHA-256 of its event identity or control time): a repeat would count twice.
  else if (!absent.has('row_id') && facts.repeatedRowId !== undefined) {
    add('rows', says.repeatedRows(release.rows, facts.distinctRowIds + (facts.rows - facts.rowIds), facts.repeatedRowId.rowId, facts.repeatedRowId.rows));
  }
  for (const [field, stated, actual, smallest] of [
    ['min_sample_time', release.min_sample_time, facts.minSampleTime, true],
    ['max_sample_time', release.max_sample_time, facts.maxSampleTime, false],
  ] as const) {
    if (stated === undefined || stated === null || absent.has('sample_time')) continue;
    if (stated !== actual) add(field, says.sampleTime(field, stated, actual, smallest));
  }
  if (!absent.has('dataset') && facts.datasets.some((value) => value !== release.dataset)) {
    add('dataset', says.rowValues('dataset', release.dataset, 'dataset', facts.datasets));
  }
  if (!absent.has('calculation_version') && facts.versions.some((value) => value !== release.version)) {
    add('version', says.rowValues('version', release.version, 'calculation_version', facts.versions));
  }

  const coverage = (release as { coverage?: unknown }).coverage;
  if (isObject(coverage)) {
    const symbols = coverage.symbols;
    if (Array.isArray(symbols) && !absent.has('symbol')) {
      // A row of a pair the manifest does not name contradicts it; a named pair without rows that day does
      // not (a service may name the product's pairs rather than the day's: the spec says "array of pair names").
      const stated = new Set(symbols.map(String));
      if (facts.symbols.some((symbol) => !stated.has(symbol))) {
        add('coverage.symbols', says.symbols([...stated], facts.symbols));
      }
    }
    for (const counted of COUNTED) {
      const stated = counted.stated(coverage);
      if (!isObject(stated) || absent.has(counted.column)) continue;
      const actual = facts.counts[counted.column] ?? {};
      const values = [...new Set([...Object.keys(stated), ...Object.keys(actual)])];
      const statedCount = (value: string) => (Object.hasOwn(stated, value) ? stated[value] : undefined);
      const actualCount = (value: string) => (Object.hasOwn(actual, value) ? actual[value]! : 0);
      // A count given as null is missing (not stated, so not checked); a value the object leaves out counts 0.
      const differs = values.find((value) => statedCount(value) !== null && (statedCount(value) ?? 0) !== actualCount(value));
      if (differs !== undefined) add(counted.path, says.count(counted.path, differs, statedCount(differs), actualCount(differs), counted.column));
    }
  }
  return found;
}

/**
 * Throws ManifestContradictionError (exit 3) naming the first contradiction of the release (and the fields of
 * the others) when its rows contradict its manifest. Runs inside the import transaction, so the throw rolls
 * the batch back.
 */
export function checkReleaseFacts(item: ReleaseImport, facts: ReleaseFacts | undefined): void {
  throwContradictions(item.release.id, releaseContradictions(item, facts));
}

/** Throws ManifestContradictionError for the first of `found` (naming the others' fields); nothing when empty. */
export function throwContradictions(id: string, found: readonly Contradiction[]): void {
  const [first, ...more] = found;
  if (first === undefined) return;
  throw new ManifestContradictionError(
    catalogMessages.manifestContradicted(id, first.detail, [...new Set(more.map((other) => other.field).filter((field) => field !== first.field))]),
    { field: first.field },
  );
}
