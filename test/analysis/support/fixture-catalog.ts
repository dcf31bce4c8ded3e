// A plain DuckDB file with the catalog's `market_events` table and `market_events_current` view
// (DESIGN.md 2.4), built from rows: the analysis is tested without the catalog layer.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MARKET_EVENT_FIELDS } from '../../../src/spec/index.js';
import type { MarketEventRow } from '../../../src/spec/index.js';

const SQL_TYPE = { string: 'VARCHAR', number: 'DOUBLE', integer: 'BIGINT', boolean: 'BOOLEAN' } as const;

/** One release: its ID, UTC day, generation time (newer wins in the current view) and rows. */
export interface FixtureRelease {
  releaseId: string;
  day: string;
  generatedAt?: number;
  rows: readonly MarketEventRow[];
}

export interface FixtureCatalog {
  dir: string;
  file: string;
  instance: DuckDBInstance;
  connection: DuckDBConnection;
  /** Closes the DuckDB handles, keeping the file (to reopen it, e.g. from the CLI). */
  detach(): void;
  /** Closes the handles and removes the folder. */
  close(): Promise<void>;
}

/** `market_events` column definitions, derived from MARKET_EVENT_FIELDS. */
export function marketEventsColumnsSql(): string {
  return [
    'release_id VARCHAR NOT NULL',
    'day VARCHAR NOT NULL',
    ...MARKET_EVENT_FIELDS.map((field) => `"${field.name}" ${SQL_TYPE[field.type]}`),
  ].join(', ');
}

/** Builds `<tmp>/catalog.duckdb` holding the releases; the caller closes it. */
export async function buildFixtureCatalog(releases: readonly FixtureRelease[]): Promise<FixtureCatalog> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rdw-analysis-'));
  const file = path.join(dir, 'catalog.duckdb');
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  await connection.run(`CREATE TABLE market_events (${marketEventsColumnsSql()})`);
  await connection.run('CREATE TABLE releases (id VARCHAR PRIMARY KEY, day VARCHAR, generated_at DOUBLE)');
  await appendReleases(connection, dir, releases);
  await connection.run(`CREATE VIEW market_events_current AS
SELECT m.* FROM market_events m JOIN (
  SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY day ORDER BY generated_at DESC, id) AS k FROM releases) WHERE k = 1
) r ON m.release_id = r.id`);
  let detached = false;
  const detach = () => {
    if (detached) return;
    detached = true;
    connection.closeSync();
    instance.closeSync();
  };
  return {
    dir,
    file,
    instance,
    connection,
    detach,
    async close() {
      detach();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Imports releases through NDJSON + read_json with the spec's column types. */
export async function appendReleases(connection: DuckDBConnection, dir: string, releases: readonly FixtureRelease[]): Promise<void> {
  const columns = MARKET_EVENT_FIELDS.map((field) => `'${field.name}': '${SQL_TYPE[field.type]}'`).join(', ');
  for (const [index, release] of releases.entries()) {
    await connection.run(
      `INSERT INTO releases VALUES ('${release.releaseId}', '${release.day}', ${release.generatedAt ?? index})`,
    );
  }
  const chunk = 200;
  for (let start = 0; start < releases.length; start += chunk) {
    const part = releases.slice(start, start + chunk);
    const file = path.join(dir, `rows-${start}.ndjson`);
    const lines: string[] = [];
    for (const release of part) {
      for (const row of release.rows) lines.push(JSON.stringify({ release_id: release.releaseId, day: release.day, ...row }));
    }
    await writeFile(file, `${lines.join('\n')}\n`);
    await connection.run(`INSERT INTO market_events SELECT * FROM read_json('${file}', format = 'newline_delimited',
      columns = {'release_id': 'VARCHAR', 'day': 'VARCHAR', ${columns}})`);
    await rm(file);
  }
}
