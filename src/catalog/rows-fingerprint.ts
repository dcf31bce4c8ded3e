// Row fingerprints: one SHA-256 per release over every column of its rows in market_events and
// market_event_extras, independent of row order, computed by DuckDB. Recorded at import (releases.rows_fingerprint)
// and pinned by study locks, so a row changed behind rdw's back is found by `rdw verify` and every lock check.

import type { DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENT_FIELDS } from '../contract/index.js';
import { quoteIdentifier, quoteLiteral } from '../base/index.js';
import { DUCKDB_TYPE } from './catalog-schema.js';
import { idInListSql } from './release-id-sql.js';

/**
 * Version 1 of the algorithm, the first text hashed: a different algorithm gets a different tag, so two
 * fingerprints of different algorithms never compare equal by accident.
 */
export const ROWS_FINGERPRINT_TAG = 'rdw rows fingerprint 1';

/** The columns of a table's row, each with the catalog's type (every value is cast to it before hashing). */
type Column = readonly [name: string, type: string];

const EVENT_COLUMNS: readonly Column[] = [
  ['release_id', 'VARCHAR'],
  ['day', 'DATE'],
  ...MARKET_EVENT_FIELDS.map((field): Column => [field.name, DUCKDB_TYPE[field.type]]),
];
const EXTRA_COLUMNS: readonly Column[] = [
  ['release_id', 'VARCHAR'],
  ['row_id', 'VARCHAR'],
  ['extra_fields', 'JSON'],
];

/**
 * One row's hash: the MD5 (32 hex) of the row as a JSON object (DuckDB's `to_json` of a struct of every
 * column, named and cast to the catalog's type, in the table's column order). JSON escapes strings, so no
 * two rows share a text. MD5, not SHA-256, per row: DuckDB's sha256 cost more than building the JSON (7.6 vs
 * 4.6 s of CPU over 541,476 rows); the only collisions MD5 allows at a practical cost (identical prefix and
 * suffix, random middle blocks) cannot turn one row's values into chosen others, and the release's
 * fingerprint over the sorted row hashes is a SHA-256.
 */
function rowHashSql(columns: readonly Column[]): string {
  const fields = columns.map(([name, type]) => `${quoteIdentifier(name)} := CAST(${quoteIdentifier(name)} AS ${type})`).join(', ');
  return `md5(to_json(struct_pack(${fields}))::VARCHAR)`;
}

/** Where the rows come from: a FROM item (a table with a WHERE, or a parenthesized SELECT) of each table's columns. */
export interface FingerprintSources {
  /** e.g. `market_events WHERE …` or `(SELECT … FROM read_parquet(…))`. */
  events: string;
  extras: string;
}

/**
 * The fingerprint of each release of `wanted` (a query of one column `id`), from `sources`: per table, the
 * rows' hashes sorted and concatenated (fixed width, so unambiguous); then the SHA-256 of the tag, each
 * table's name and its hashes. Sorting makes it independent of row order and keeps duplicate rows counted;
 * a release without rows has the fingerprint of no rows.
 */
export function rowsFingerprintSql(wanted: string, sources: FingerprintSources): string {
  const hashes = (columns: readonly Column[], from: string) =>
    `SELECT release_id, string_agg(h, '' ORDER BY h) AS hashes FROM (SELECT release_id, ${rowHashSql(columns)} AS h FROM ${from}) GROUP BY release_id`;
  const text = [
    quoteLiteral(`${ROWS_FINGERPRINT_TAG}\nmarket_events\n`),
    `coalesce(ev.hashes, '')`,
    quoteLiteral('\nmarket_event_extras\n'),
    `coalesce(ex.hashes, '')`,
  ].join(' || ');
  return `WITH wanted AS (${wanted}),
ev AS (${hashes(EVENT_COLUMNS, sources.events)}),
ex AS (${hashes(EXTRA_COLUMNS, sources.extras)})
SELECT w.id AS release_id, sha256(${text}) AS fingerprint
FROM wanted w LEFT JOIN ev ON ev.release_id = w.id LEFT JOIN ex ON ex.release_id = w.id`;
}

/** A release whose rows are fingerprinted: its exact ID (every row naming it counts, whatever its `day`: catalogSources). */
export interface FingerprintedRelease {
  readonly id: string;
}

/**
 * The catalog's tables as sources, filtered to `releases` (undefined: every release) by release ID only: every
 * row that names the release counts, whatever its `day` (a row copied in with another day is read by every study
 * of the release, which filters by ID, so the fingerprint must see it; an adversary's trial, session 39).
 */
export function catalogSources(releases: readonly FingerprintedRelease[] | undefined): FingerprintSources {
  if (releases === undefined) return { events: 'market_events', extras: 'market_event_extras' };
  const ids = idInListSql('release_id', releases.map((release) => release.id));
  return { events: `market_events WHERE ${ids}`, extras: `market_event_extras WHERE ${ids}` };
}

/** The fingerprints of the catalog's rows of `releases`, by release ID, on an open connection. */
export async function readRowsFingerprints(connection: DuckDBConnection, releases: readonly FingerprintedRelease[]): Promise<Map<string, string>> {
  if (releases.length === 0) return new Map();
  const wanted = `SELECT id FROM releases WHERE ${idInListSql('id', releases.map((release) => release.id))}`;
  const reader = await connection.runAndReadAll(rowsFingerprintSql(wanted, catalogSources(releases)));
  return new Map(reader.getRowObjectsJson().map((row) => [String(row.release_id), String(row.fingerprint)]));
}

/**
 * Inside an import (or re-import) transaction: records the fingerprint of the rows just inserted for
 * `releases` in `releases.rows_fingerprint`, in one statement.
 */
export async function recordRowsFingerprints(connection: DuckDBConnection, releases: readonly FingerprintedRelease[]): Promise<void> {
  if (releases.length === 0) return;
  const wanted = `SELECT id FROM releases WHERE ${idInListSql('id', releases.map((release) => release.id))}`;
  await connection.run(
    `UPDATE releases SET rows_fingerprint = f.fingerprint FROM (${rowsFingerprintSql(wanted, catalogSources(releases))}) f WHERE releases.id = f.release_id`,
  );
}
