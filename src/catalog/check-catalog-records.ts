// The catalog's own records held against each other and against the verified manifests they came from: rows whose
// release is not recorded, a release with no data file recorded, and a `releases` row that says other than its
// stored manifest (its rows, day, generation time: the last picks the revision a study reads). Each is what a hand
// edit of catalog.duckdb leaves, and each would let a study or an export read other rows than its lock describes
// (a second independent server's adversary, session 35: `rdw verify` said all was well for all three).

import { readFile } from 'node:fs/promises';
import { manifestFromBytes } from '../client/index.js';
import type { Catalog } from './catalog.js';
import { DATA_FORMATS } from './release-import.js';
import { MARKET_EVENTS_CURRENT_VIEW } from './market-events-source.js';
import { currentViewState, shadowedNames, type CurrentViewState } from './shadowed-names.js';
import { rowTableColumnDifferences } from './row-table-columns.js';

/** The `releases` fields a stored manifest states, as verify compares them. */
export const MANIFEST_RECORD_FIELDS = ['dataset', 'version', 'day', 'generated_at', 'rows', 'manifest_sha256'] as const;
export type ManifestRecordField = (typeof MANIFEST_RECORD_FIELDS)[number];


/** One disagreement between the catalog's records, or with a stored manifest. */
export type CatalogRecordProblem =
  /**
   * The view market_events_current (which revision of each day a study reads) is not rdw's: `replaced` by a
   * query of another's, or `missing`. No release is named: it is the catalog's.
   */
  | { kind: 'view_differs'; view: string; state: Exclude<CurrentViewState, 'rdw'>; releaseId?: undefined }
  /**
   * A macro stored in the catalog named like one of DuckDB's own functions (`database.schema.name()`): DuckDB calls
   * it instead in rdw's SQL, the fingerprints' sha256 and md5 included, so no check could be believed.
   */
  | { kind: 'shadowing_macro'; macro: string; releaseId?: undefined }
  /**
   * A column of market_events or market_event_extras not as rdw made it (row-table-columns.ts): another type, missing
   * (`found` undefined), extra (`expected` undefined), or `computed` by a default or generation expression. The rows
   * fingerprint casts to rdw's types and reads a computed column in its own query, so it cannot see one.
   */
  | { kind: 'column_differs'; table: string; column: string; expected: string | undefined; found: string | undefined; computed?: true; releaseId?: undefined }
  /** `rows` rows of `market_events` name a release the `releases` table does not hold. */
  | { kind: 'orphan_rows'; releaseId: string; rows: number }
  /** A recorded release with no data file in `release_files` (nothing its rows can be checked or re-imported from). */
  | { kind: 'no_data_file'; releaseId: string }
  /** A recorded release with no manifest in `release_files`. */
  | { kind: 'no_manifest_file'; releaseId: string }
  /** `releases.<field>` differs from what the release's verified stored manifest says (`manifest`). */
  | { kind: 'record_differs'; releaseId: string; field: ManifestRecordField; recorded: string; manifest: string };

export interface CheckCatalogRecordsOptions {
  /** SHA-256 of stored files that failed their own check: a manifest among them is not read (verify reports the file). */
  badFiles?: ReadonlySet<string>;
}

/** Every disagreement of the catalog's records (CatalogRecordProblem): macros, the view, row table columns, orphan rows, then by import order. */
export async function checkCatalogRecords(catalog: Catalog, options: CheckCatalogRecordsOptions = {}): Promise<CatalogRecordProblem[]> {
  const problems: CatalogRecordProblem[] = [];
  const { view, macros, columns } = await catalog.read(async (connection) => ({
    view: await currentViewState(connection),
    macros: (await shadowedNames(connection)).filter((name) => name.endsWith('()')),
    columns: await rowTableColumnDifferences(connection),
  }));
  for (const macro of macros) problems.push({ kind: 'shadowing_macro', macro });
  if (view !== 'rdw') problems.push({ kind: 'view_differs', view: MARKET_EVENTS_CURRENT_VIEW, state: view });
  for (const column of columns) problems.push({ kind: 'column_differs', ...column });
  const orphans = await catalog.query(
    `SELECT release_id, count(*)::DOUBLE AS n FROM market_events WHERE release_id NOT IN (SELECT id FROM releases) GROUP BY release_id ORDER BY release_id`,
  );
  for (const row of orphans) problems.push({ kind: 'orphan_rows', releaseId: String(row.release_id), rows: Number(row.n) });

  const formats = DATA_FORMATS.map((format) => `'${format}'`).join(', ');
  const releases = await catalog.query(
    `SELECT r.id, r.dataset, r.version, strftime(r.day, '%Y-%m-%d') AS day, r.generated_at, r.rows::DOUBLE AS rows,
       r.manifest_sha256, m.sha256 AS manifest_file,
       (SELECT count(*) FROM release_files d WHERE d.release_id = r.id AND d.format IN (${formats}))::INTEGER AS data_files
     FROM releases r LEFT JOIN release_files m ON m.release_id = r.id AND m.format = 'manifest'
     ORDER BY r.import_order`,
  );
  for (const row of releases) {
    const releaseId = String(row.id);
    if (Number(row.data_files) === 0) problems.push({ kind: 'no_data_file', releaseId });
    if (row.manifest_file === null || row.manifest_file === undefined) {
      problems.push({ kind: 'no_manifest_file', releaseId });
      continue;
    }
    const manifestFile = String(row.manifest_file);
    const recorded: Record<ManifestRecordField, string> = {
      dataset: String(row.dataset),
      version: String(row.version),
      day: String(row.day),
      generated_at: String(Number(row.generated_at)),
      rows: String(Number(row.rows)),
      manifest_sha256: String(row.manifest_sha256),
    };
    if (recorded.manifest_sha256 !== manifestFile) {
      problems.push({ kind: 'record_differs', releaseId, field: 'manifest_sha256', recorded: recorded.manifest_sha256, manifest: manifestFile });
    }
    if (options.badFiles?.has(manifestFile) === true) continue;
    const bytes = await readFile(catalog.store.pathOf(manifestFile)).catch(() => undefined);
    if (bytes === undefined) continue; // missing: checkStoredFiles reports it
    let release;
    try {
      ({ release } = manifestFromBytes(releaseId, bytes));
    } catch {
      continue; // read and verified at import; bytes that changed since are the file check's to report
    }
    // A field the manifest leaves out (a foreign server's sparse manifest) states nothing to hold the record to.
    const text = (value: unknown, number = false) => (value === undefined || value === null ? undefined : number ? String(Number(value)) : String(value));
    const stated: Record<Exclude<ManifestRecordField, 'manifest_sha256'>, string | undefined> = {
      dataset: text(release.dataset),
      version: text(release.version),
      day: text(release.day),
      generated_at: text(release.generated_at, true),
      rows: text(release.rows, true),
    };
    for (const field of MANIFEST_RECORD_FIELDS) {
      if (field === 'manifest_sha256') continue;
      const manifest = stated[field];
      if (manifest === undefined || recorded[field] === manifest) continue;
      problems.push({ kind: 'record_differs', releaseId, field, recorded: recorded[field], manifest });
    }
  }
  return problems;
}
