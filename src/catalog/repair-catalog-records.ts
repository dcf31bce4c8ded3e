// repairCatalogRecords (`rdw verify --repair`): each disagreement checkCatalogRecords found, mended from what rdw
// verified: rows of a release the catalog does not hold are removed; a `releases` field is set back to what the
// release's stored manifest says; a missing data-file or manifest record is written again from the manifest's
// digest (or the recorded one), so the store's check that follows finds the file, or fetches it again by ID; the
// view market_events_current is written again as rdw defines it; a macro named like DuckDB's own function dropped;
// a row table's column altered back to rdw's type (or added back, or dropped when rdw does not make it).

import { readFile, stat } from 'node:fs/promises';
import { environmentErrorOf } from '../contract/index.js';
import { quoteIdentifier } from '../base/index.js';
import { manifestFromBytes } from '../client/index.js';
import type { Catalog } from './catalog.js';
import { CatalogRecordError } from './catalog-errors.js';
import type { CatalogRecordProblem, ManifestRecordField } from './check-catalog-records.js';
import { catalogMessages } from './messages.js';
import { DATA_FORMATS } from './release-import.js';
import { MARKET_EVENTS_CURRENT_QUERY } from './catalog-schema.js';
import { MARKET_EVENTS_CURRENT_VIEW } from './market-events-source.js';

/** What the repair of one problem did: `repaired`, or `failed` with nothing changed (see `error`). */
export interface CatalogRecordRepair {
  problem: CatalogRecordProblem;
  outcome: 'repaired' | 'failed';
  error?: Error;
}

/** The SQL type each `releases` field is written back as. */
const FIELD_TYPES: Record<ManifestRecordField, string> = {
  dataset: 'VARCHAR',
  version: 'VARCHAR',
  day: 'DATE',
  generated_at: 'DOUBLE',
  rows: 'BIGINT',
  manifest_sha256: 'VARCHAR',
};


/** Mends each problem in its own transaction; never throws for one problem (see each `outcome`). Needs a read-write catalog. */
export async function repairCatalogRecords(catalog: Catalog, problems: readonly CatalogRecordProblem[]): Promise<CatalogRecordRepair[]> {
  const repairs: CatalogRecordRepair[] = [];
  for (const problem of problems) {
    const repair: CatalogRecordRepair = { problem, outcome: 'failed' };
    try {
      await repairOne(catalog, problem);
      repair.outcome = 'repaired';
    } catch (error) {
      repair.error = environmentErrorOf(error) ?? (error instanceof Error ? error : new Error(String(error)));
    }
    repairs.push(repair);
  }
  return repairs;
}

async function repairOne(catalog: Catalog, problem: CatalogRecordProblem): Promise<void> {
  if (problem.kind === 'shadowing_macro') {
    // `db.schema.name()`: a scalar macro, else a table macro of that name.
    const name = problem.macro.slice(0, -2).split('.').map(quoteIdentifier).join('.');
    await catalog.transaction(async (connection) => {
      await connection.run(`DROP MACRO ${name}`).catch(() => connection.run(`DROP MACRO TABLE ${name}`));
    });
    return;
  }
  if (problem.kind === 'column_differs') {
    // Back to rdw's column: the values cast to its type (what the rows fingerprint hashed), a missing column added
    // (its rows then differ from their fingerprint: the row check that follows re-imports them), an extra one dropped,
    // a computed one (default or generated) dropped and added back plain (re-imported likewise).
    const table = quoteIdentifier(problem.table);
    const column = quoteIdentifier(problem.column);
    const add = `ALTER TABLE ${table} ADD COLUMN ${column} ${problem.expected}`;
    const statements =
      problem.expected === undefined
        ? [`ALTER TABLE ${table} DROP COLUMN ${column}`]
        : problem.computed === true
          ? [`ALTER TABLE ${table} DROP COLUMN ${column}`, add]
          : problem.found === undefined
            ? [add]
            : [`ALTER TABLE ${table} ALTER COLUMN ${column} SET DATA TYPE ${problem.expected}`];
    await catalog.transaction(async (connection) => {
      for (const statement of statements) await connection.run(statement);
    });
    return;
  }
  if (problem.kind === 'view_differs') {
    // rdw's definition, as the migration that made the catalog wrote it.
    await catalog.transaction((connection) => connection.run(`CREATE OR REPLACE VIEW ${MARKET_EVENTS_CURRENT_VIEW} AS\n${MARKET_EVENTS_CURRENT_QUERY}`));
    return;
  }
  const id = problem.releaseId;
  switch (problem.kind) {
    case 'orphan_rows':
      // Only while no release of that ID is recorded (a pull in between would have recorded it with its rows).
      await catalog.transaction((connection) =>
        connection.run('DELETE FROM market_events WHERE release_id = $id AND release_id NOT IN (SELECT id FROM releases)', { id }),
      );
      return;
    case 'record_differs':
      await catalog.transaction((connection) =>
        connection.run(`UPDATE releases SET ${problem.field} = $value::${FIELD_TYPES[problem.field]} WHERE id = $id`, { id, value: problem.manifest }),
      );
      return;
    case 'no_manifest_file': {
      const [row] = await catalog.query('SELECT manifest_sha256 FROM releases WHERE id = $id', { id });
      const sha256 = String(row?.manifest_sha256 ?? '');
      const info = sha256 === '' ? undefined : await stat(catalog.store.pathOf(sha256)).catch(() => undefined);
      if (info === undefined) throw new CatalogRecordError(catalogMessages.recordManifestGone(id), { releaseId: id });
      await insertFile(catalog, id, 'manifest', sha256, info.size);
      return;
    }
    case 'no_data_file': {
      const [row] = await catalog.query(`SELECT sha256 FROM release_files WHERE release_id = $id AND format = 'manifest'`, { id });
      const manifest = row === undefined ? undefined : await readFile(catalog.store.pathOf(String(row.sha256))).catch(() => undefined);
      if (manifest === undefined) throw new CatalogRecordError(catalogMessages.recordManifestGone(id), { releaseId: id });
      const files = manifestFromBytes(id, manifest).release.files as Partial<Record<string, { sha256: string; bytes: number }>>;
      const stated = DATA_FORMATS.flatMap((format) => (files[format] === undefined ? [] : [{ format, ...files[format]! }]));
      if (stated.length === 0) throw new CatalogRecordError(catalogMessages.recordManifestGone(id), { releaseId: id });
      // A format the manifest states whose file the store still holds (parquet first), else the first stated: the
      // store's check then fetches it by ID.
      const held = await Promise.all(stated.map(async (file) => (await stat(catalog.store.pathOf(file.sha256)).catch(() => undefined)) !== undefined));
      const chosen = stated[held.indexOf(true)] ?? stated[0]!;
      await insertFile(catalog, id, chosen.format, chosen.sha256, chosen.bytes);
      return;
    }
  }
}

async function insertFile(catalog: Catalog, releaseId: string, format: string, sha256: string, bytes: number): Promise<void> {
  await catalog.transaction((connection) =>
    connection.run('INSERT INTO release_files (release_id, format, sha256, bytes) VALUES ($releaseId, $format, $sha256, $bytes::BIGINT)', {
      releaseId,
      format,
      sha256,
      bytes,
    }),
  );
}
