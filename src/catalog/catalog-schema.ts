// The catalog's DuckDB schema, derived from MARKET_EVENT_FIELDS (DESIGN.md 2.4), and its versioned migrations.

import { MARKET_EVENT_FIELDS, type FieldType } from '../contract/index.js';
import { quoteIdentifier } from '../base/index.js';

/** DuckDB column type of each spec field type. */
export const DUCKDB_TYPE: Readonly<Record<FieldType, string>> = {
  string: 'VARCHAR',
  number: 'DOUBLE',
  integer: 'BIGINT',
  boolean: 'BOOLEAN',
};

/** The columns `market_events` holds besides the spec's fields: which release a row came from, and its day. */
export const RELEASE_COLUMNS = ['release_id', 'day'] as const;

/** `market_events` column definitions: RELEASE_COLUMNS, then every spec field typed, NOT NULL per spec. */
export function marketEventsColumnsSql(): string {
  const releaseColumnTypes: Record<(typeof RELEASE_COLUMNS)[number], string> = { release_id: 'VARCHAR', day: 'DATE' };
  return [
    ...RELEASE_COLUMNS.map((column) => `${column} ${releaseColumnTypes[column]} NOT NULL`),
    ...MARKET_EVENT_FIELDS.map(
      (field) => `${quoteIdentifier(field.name)} ${DUCKDB_TYPE[field.type]}${field.nullable ? '' : ' NOT NULL'}`,
    ),
  ].join(',\n  ');
}

/** One schema step; applied once, in order, inside a transaction, and recorded in `schema_migrations`. */
/**
 * The query of the view market_events_current: per UTC day, only the newest imported revision (newest
 * generated_at, ties by import order). Studies compare the catalog's view with it (shadowed-names.ts).
 */
export const MARKET_EVENTS_CURRENT_QUERY = `SELECT m.* FROM market_events m
JOIN (
  SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY day ORDER BY generated_at DESC, import_order DESC) AS revision_rank
    FROM releases
  ) WHERE revision_rank = 1
) current_release ON m.release_id = current_release.id`;

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/**
 * Migrations, oldest first. Never edit a released one: add a new version instead. The catalog holds no
 * key, host or machine path: files are named by their sha256 only.
 */
/** The migration that adds releases.rows_fingerprint; the open that applies it backfills older releases' fingerprints. */
export const ROWS_FINGERPRINT_MIGRATION = 4;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'releases, release_files, market_events, market_events_current, snapshots, listed_releases',
    statements: [
      `CREATE TABLE releases (
  id VARCHAR PRIMARY KEY,
  dataset VARCHAR NOT NULL,
  version VARCHAR NOT NULL,
  day DATE NOT NULL,
  generated_at DOUBLE NOT NULL,
  rows BIGINT NOT NULL,
  min_sample_time DOUBLE,
  max_sample_time DOUBLE,
  manifest_sha256 VARCHAR NOT NULL,
  schema_sha256 VARCHAR,
  coverage JSON,
  limitations JSON,
  imported_at TIMESTAMP NOT NULL,
  import_order BIGINT NOT NULL
)`,
      `CREATE TABLE release_files (
  release_id VARCHAR NOT NULL,
  format VARCHAR NOT NULL,
  sha256 VARCHAR NOT NULL,
  bytes BIGINT NOT NULL,
  PRIMARY KEY (release_id, format)
)`,
      `CREATE TABLE market_events (\n  ${marketEventsColumnsSql()}\n)`,
      `CREATE VIEW market_events_current AS\n${MARKET_EVENTS_CURRENT_QUERY}`,
      `CREATE TABLE snapshots (
  dataset_id VARCHAR NOT NULL,
  generated_at DOUBLE NOT NULL,
  updated DOUBLE,
  stale BOOLEAN,
  calculation_version VARCHAR,
  body JSON,
  fetched_at TIMESTAMP NOT NULL,
  PRIMARY KEY (dataset_id, generated_at)
)`,
      // Each day's release IDs seen in /releases listings: how `rdw ls` knows a newer revision exists.
      `CREATE TABLE listed_releases (
  id VARCHAR PRIMARY KEY,
  day DATE NOT NULL,
  version VARCHAR,
  generated_at DOUBLE,
  first_listed_at TIMESTAMP NOT NULL
)`,
    ],
  },
  {
    version: 2,
    name: 'releases.accepted, market_event_extras',
    statements: [
      // What a release carried beyond the contract and was accepted (AcceptedBeyondContract as JSON; NULL: nothing).
      `ALTER TABLE releases ADD COLUMN accepted JSON`,
      // Values of the fields beyond the spec, one JSON object per row, joined to market_events on
      // (release_id, row_id). A table apart, so no extra column can reach market_events, its views or a predictor.
      `CREATE TABLE market_event_extras (
  release_id VARCHAR NOT NULL,
  row_id VARCHAR,
  extra_fields JSON NOT NULL
)`,
    ],
  },
  {
    version: 3,
    name: 'sync_runs',
    statements: [
      // One row per `rdw sync` run (src/workbench sync-home): when, how it ended, its counts, the snapshot
      // datasets chosen (a later plain sync reuses the last choice) and what it did, as JSON (SyncReport).
      `CREATE TABLE sync_runs (
  id BIGINT PRIMARY KEY,
  started_at TIMESTAMP NOT NULL,
  finished_at TIMESTAMP NOT NULL,
  outcome VARCHAR NOT NULL,
  exit_code INTEGER NOT NULL,
  listed INTEGER NOT NULL,
  new_releases INTEGER NOT NULL,
  revised INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  snapshots_recorded INTEGER NOT NULL,
  budget_left_bytes DOUBLE,
  snapshot_datasets JSON NOT NULL,
  details JSON NOT NULL
)`,
    ],
  },
  {
    version: ROWS_FINGERPRINT_MIGRATION,
    name: 'releases.rows_fingerprint, listed_releases.files and last_listed_at',
    statements: [
      // The fingerprint of the release's rows as imported (rows-fingerprint.ts); NULL for a release imported before
      // this migration until it is computed from its verified stored data file (backfill-rows-fingerprints.ts).
      `ALTER TABLE releases ADD COLUMN rows_fingerprint VARCHAR`,
      // What the last listing that named the release said of its files ({format: {sha256, bytes}}, as listed; NULL
      // when no listing stated files), so a pull by ID in any later process cross-checks its manifest with it.
      `ALTER TABLE listed_releases ADD COLUMN files JSON`,
      `ALTER TABLE listed_releases ADD COLUMN last_listed_at TIMESTAMP`,
    ],
  },
];

/** The newest schema version this rdw knows. */
export const CATALOG_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
