// Applies the catalog's versioned migrations in order, each in its own transaction.

import type { DuckDBConnection } from '@duckdb/node-api';
import { MIGRATIONS, CATALOG_SCHEMA_VERSION, type Migration } from './catalog-schema.js';
import { CatalogVersionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';

/** The schema version recorded in `schema_migrations`, or 0 for an empty file. */
export async function catalogSchemaVersion(connection: DuckDBConnection): Promise<number> {
  const exists = await connection.runAndReadAll(
    `SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = 'schema_migrations' AND schema_name = 'main'`,
  );
  if (Number(exists.getRowObjectsJson()[0]?.n ?? 0) === 0) return 0;
  const reader = await connection.runAndReadAll('SELECT coalesce(max(version), 0)::INTEGER AS v FROM schema_migrations');
  return Number(reader.getRowObjectsJson()[0]?.v ?? 0);
}

/** Applies every migration newer than the file's version; returns the versions applied. */
export async function runMigrations(
  connection: DuckDBConnection,
  appliedAt: Date,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  await connection.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  applied_at TIMESTAMP NOT NULL
)`);
  const current = await catalogSchemaVersion(connection);
  const newest = migrations[migrations.length - 1]?.version ?? 0;
  if (current > newest) {
    throw new CatalogVersionError(catalogMessages.newerCatalog(current, CATALOG_SCHEMA_VERSION));
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await connection.run('BEGIN TRANSACTION');
    try {
      for (const statement of migration.statements) await connection.run(statement);
      await connection.run('INSERT INTO schema_migrations VALUES ($version, $name, $at::TIMESTAMP)', {
        version: migration.version,
        name: migration.name,
        at: sqlTimestamp(appliedAt),
      });
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => {});
      throw error;
    }
    applied.push(migration.version);
  }
  return applied;
}

/** A Date as a DuckDB TIMESTAMP literal in UTC: `2026-11-01 00:00:00.000`. */
export function sqlTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
