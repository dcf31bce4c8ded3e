// The rows fingerprint a release's verified stored data file gives (the import's own SELECT, nothing inserted):
// the anchor rows are held to where no lock pins one. The catalog's recorded fingerprint is a column anyone with the
// file can rewrite (an adversary's trial, session 39: rows changed and re-recorded with rdw's own SQL passed an
// old-format lock, and `rdw lock` pinned them); the stored file's bytes are held to the manifest's SHA-256.

import { quoteLiteral } from '../base/index.js';
import type { Catalog } from './catalog.js';
import type { DataFormat, ReleaseImport } from './release-import.js';
import { recordedImports } from './reimport-release-rows.js';
import { idInListSql } from './release-id-sql.js';
import { rowGroups, selectExtrasSql, selectRowsSql } from './release-rows-sql.js';
import { rowsFingerprintSql } from './rows-fingerprint.js';

/** A stored file as checkStoredFiles found it (verify-store.ts's StoredFileCheck, the part read here). */
export interface CheckedStoredFile {
  readonly sha256: string;
  readonly bytes: number;
  readonly ok: boolean;
}

/**
 * The SQL of the fingerprint of the rows `release`'s stored data file gives, as a query of (release_id,
 * fingerprint); the file must already be checked (`check.ok`).
 */
export async function storedFileFingerprintSql(catalog: Catalog, releaseId: string, format: DataFormat, check: CheckedStoredFile): Promise<string> {
  const [item] = await recordedImports(catalog, [{ releaseId, format }], { sha256: check.sha256, bytes: check.bytes }, catalog.store.pathOf(check.sha256));
  return rowsFingerprintSql(`SELECT ${quoteLiteral(releaseId)} AS id`, { events: `(${selectRowsSql([item!])})`, extras: `(${selectExtrasSql([item!])})` });
}

/**
 * For each of `releaseIds` the catalog holds: the fingerprint of the rows its stored data file gives (parquet
 * before csv), a file `checks` (checkStoredFiles of those releases, re-hashed) found whole; undefined for a release
 * whose data file is missing or altered (the file checks name it), or that the file cannot give rows for. Reads only; the files of
 * one column plan are read in one scan, as an import reads them (~16 ms a release; one query each took ~40).
 */
export async function storedRowsFingerprints(
  catalog: Catalog,
  releaseIds: readonly string[],
  checks: readonly CheckedStoredFile[],
): Promise<Map<string, string | undefined>> {
  const found = new Map<string, string | undefined>();
  if (releaseIds.length === 0) return found;
  const files = await catalog.query<{ release_id: string; format: DataFormat; sha256: string }>(
    `SELECT release_id, format, sha256 FROM release_files WHERE format IN ('parquet', 'csv') AND ${idInListSql('release_id', releaseIds)}
     ORDER BY release_id, format = 'parquet' DESC`,
  );
  const byDigest = new Map(checks.map((check) => [check.sha256, check]));
  const items: ReleaseImport[] = [];
  for (const file of files) {
    if (found.has(file.release_id)) continue;
    found.set(file.release_id, undefined);
    const check = byDigest.get(file.sha256);
    if (check === undefined || !check.ok) continue;
    // Bytes that match their digest but give no rows as rdw reads them: nothing to hold the rows to (undefined).
    const item = await recordedImports(catalog, [{ releaseId: file.release_id, format: file.format }], { sha256: check.sha256, bytes: check.bytes }, catalog.store.pathOf(check.sha256)).catch(() => []);
    items.push(...item);
  }
  for (const group of rowGroups(items)) {
    const wanted = group.map((item) => `SELECT ${quoteLiteral(item.release.id)} AS id`).join(' UNION ALL ');
    const rows = await catalog
      .query<{ release_id: string; fingerprint: string }>(rowsFingerprintSql(wanted, { events: `(${selectRowsSql(group)})`, extras: `(${selectExtrasSql(group)})` }))
      .catch(() => []);
    for (const row of rows) found.set(row.release_id, row.fingerprint);
  }
  return found;
}
