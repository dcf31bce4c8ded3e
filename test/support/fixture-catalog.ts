// A real catalog (openCatalog: the catalog's own schema and `market_events_current` view) filled with
// given rows, e.g. synthetic ones: for tests that need exact control over the rows.

import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DUCKDB_TYPE, openCatalog, type Catalog } from '../../src/catalog/index.js';
import { MARKET_EVENT_FIELDS, MARKET_EVENTS_DATASET, PRODUCT_VERSION } from '../../src/contract/index.js';
import type { MarketEventRow } from '../../src/contract/index.js';
import { MarketSimulator } from '../../src/mock/index.js';
import { asOfTime } from '../../src/mock/releases/index.js';
import { makeTemporaryFolder, removeTree } from '../../src/base/index.js';

/** One release: its ID, UTC day, generation time (newer wins in the current view) and rows. */
export interface FixtureRelease {
  releaseId: string;
  day: string;
  generatedAt?: number;
  rows: readonly MarketEventRow[];
}

export interface FixtureCatalog {
  /** The catalog home (RDW_HOME): holds catalog.duckdb. */
  dir: string;
  file: string;
  catalog: Catalog;
  connection: DuckDBConnection;
  /** Closes the catalog, keeping the files (to reopen it, e.g. from the CLI). */
  detach(): Promise<void>;
  /** Closes the catalog and removes the folder. */
  close(): Promise<void>;
}

/** Builds a catalog in a fresh temp home holding the releases; the caller closes it. */
export async function buildFixtureCatalog(releases: readonly FixtureRelease[]): Promise<FixtureCatalog> {
  const dir = await makeTemporaryFolder('rdw-analysis-');
  const catalog = await openCatalog(dir);
  await appendReleases(catalog.connection, dir, releases);
  return {
    dir,
    file: catalog.file,
    catalog,
    connection: catalog.connection,
    detach: () => catalog.close(),
    async close() {
      await catalog.close();
      await removeTree(dir);
    },
  };
}

/**
 * A catalog of MarketSimulator rows: one release per simulated day holding that day's current content (so the
 * newest days hold pending outcomes), release IDs the SHA-256 of `${label}|${day}`. Built without HTTP (see
 * appendReleases): for tests of the analysis against the simulator's planted ground truth.
 */
export function simulatorCatalog(options: { seed: number; days: number; label: string }): Promise<FixtureCatalog> {
  const simulator = new MarketSimulator({ seed: options.seed, days: options.days });
  return buildFixtureCatalog(
    simulator.days().map((day) => ({
      releaseId: createHash('sha256').update(`${options.label}|${day}`).digest('hex'),
      day,
      rows: simulator.dayRows(day, asOfTime(day, simulator.options.now)!),
    })),
  );
}

/**
 * Inserts releases into the catalog tables (`releases` with placeholder digests, `market_events` through
 * NDJSON + read_json with the catalog's column types). Not the pull path: for synthetic rows only.
 */
export async function appendReleases(connection: DuckDBConnection, dir: string, releases: readonly FixtureRelease[]): Promise<void> {
  const columns = MARKET_EVENT_FIELDS.map((field) => `'${field.name}': '${DUCKDB_TYPE[field.type]}'`).join(', ');
  const order = Number((await connection.runAndReadAll('SELECT coalesce(max(import_order), 0) AS n FROM releases')).getRowObjectsJS()[0]!.n);
  for (const [index, release] of releases.entries()) {
    await connection.run(
      `INSERT INTO releases (id, dataset, version, day, generated_at, rows, manifest_sha256, imported_at, import_order)
       VALUES ($id, $dataset, $version, $day::DATE, $generated_at, $rows, $sha, TIMESTAMP '2026-01-01 00:00:00', $order)`,
      {
        id: release.releaseId,
        dataset: MARKET_EVENTS_DATASET,
        version: PRODUCT_VERSION,
        day: release.day,
        generated_at: release.generatedAt ?? index,
        rows: release.rows.length,
        sha: '0'.repeat(64),
        order: order + index + 1,
      },
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
    if (lines.length === 0) continue;
    await writeFile(file, `${lines.join('\n')}\n`);
    await connection.run(`INSERT INTO market_events SELECT * FROM read_json('${file}', format = 'newline_delimited',
      columns = {'release_id': 'VARCHAR', 'day': 'DATE', ${columns}})`);
    await rm(file);
  }
}
