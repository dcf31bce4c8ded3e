// checkReleaseRows: the catalog's rows of each release against the fingerprint recorded when they were imported
// (`rdw verify`, and every study-lock check through verifyStudyLock).

import type { Catalog } from './catalog.js';
import { idInListSql } from './release-id-sql.js';
import { catalogSources, rowsFingerprintSql } from './rows-fingerprint.js';

/** One release's rows checked against `releases.rows_fingerprint`. */
export interface ReleaseRowsCheck {
  releaseId: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** The fingerprint recorded at import; null when none was (a release imported before rdw recorded them). */
  recorded: string | null;
  /** The fingerprint of the rows the catalog holds now. */
  actual: string;
  ok: boolean;
  /**
   * `differs` (rows changed since import), `unrecorded` (nothing to compare with), or `differs_from_file` (the rows
   * and the recorded fingerprint agree, but not with the rows the verified stored data file gives: both rewritten
   * outside rdw; verifyStore's check, `fromFile`); undefined when ok.
   */
  problem?: 'differs' | 'unrecorded' | 'differs_from_file';
  /** `differs_from_file`: the fingerprint of the rows the stored data file gives. */
  fromFile?: string;
}

export interface CheckReleaseRowsOptions {
  /** Check only these releases (exact IDs; those not imported are left out). Default: every imported release. */
  releaseIds?: readonly string[];
}

/**
 * Recomputes the fingerprint of the catalog's rows of every imported release (or of `releaseIds`), in
 * import order, and compares it with the recorded one. Reads only (one statement over the rows).
 */
export async function checkReleaseRows(catalog: Catalog, options: CheckReleaseRowsOptions = {}): Promise<ReleaseRowsCheck[]> {
  const where = options.releaseIds === undefined ? '' : `WHERE ${idInListSql('id', options.releaseIds)}`;
  if (options.releaseIds !== undefined && options.releaseIds.length === 0) return [];
  const releases = await catalog.query<{ id: string; day: string; recorded: string | null }>(
    `SELECT id, strftime(day, '%Y-%m-%d') AS day, rows_fingerprint AS recorded FROM releases ${where} ORDER BY import_order`,
  );
  if (releases.length === 0) return [];
  const sources = catalogSources(options.releaseIds === undefined ? undefined : releases);
  const actual = new Map(
    (await catalog.query<{ release_id: string; fingerprint: string }>(rowsFingerprintSql(`SELECT id FROM releases ${where}`, sources))).map((row) => [
      row.release_id,
      row.fingerprint,
    ]),
  );
  return releases.map((release) => {
    const now = actual.get(release.id)!;
    const problem = release.recorded === null ? 'unrecorded' : release.recorded === now ? undefined : 'differs';
    return {
      releaseId: release.id,
      day: release.day,
      recorded: release.recorded,
      actual: now,
      ok: problem === undefined,
      ...(problem === undefined ? {} : { problem }),
    };
  });
}
