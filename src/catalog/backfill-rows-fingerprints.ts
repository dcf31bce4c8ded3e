// Releases imported before rdw recorded row fingerprints (migration 4) get theirs from their verified stored
// data file, never from the rows the catalog holds now: a row changed before the upgrade is still found.

import { writeTransaction, type Catalog } from './catalog.js';
import type { DataFormat } from './release-import.js';
import { storedFileFingerprintSql } from './stored-rows-fingerprints.js';
import { checkStoredFiles } from './verify-store.js';

/** What the backfill did: release IDs given a fingerprint, and those left without one (their data file is damaged). */
export interface RowsFingerprintBackfill {
  computed: string[];
  left: string[];
}

/**
 * For every release without `rows_fingerprint`: re-hashes its stored data file and, when it matches the
 * catalog's record, computes the fingerprint of the rows that file gives (the import's own SELECT, nothing
 * inserted) and records it. A release whose file is missing or altered keeps NULL: checks report it as
 * unrecorded, and `rdw verify --repair` fetches the file again and re-imports its rows, which records one.
 * Needs a read-write catalog; a read-only one is left as it is. Runs once, in the open that applies migration 4
 * (Catalog.open): a release it leaves is not re-hashed on every later open. One release's failure never fails the open.
 */
export async function backfillRowsFingerprints(catalog: Catalog): Promise<RowsFingerprintBackfill> {
  const done: RowsFingerprintBackfill = { computed: [], left: [] };
  if (catalog.readOnly) return done;
  const missing = await catalog.query<{ id: string; format: DataFormat; sha256: string }>(
    `SELECT r.id, f.format, f.sha256 FROM releases r JOIN release_files f ON f.release_id = r.id AND f.format IN ('parquet', 'csv')
     WHERE r.rows_fingerprint IS NULL ORDER BY r.import_order`,
  );
  if (missing.length === 0) return done;
  const files = new Map((await checkStoredFiles(catalog, { releaseIds: missing.map((row) => row.id) })).map((check) => [check.sha256, check]));
  for (const row of missing) {
    const check = files.get(row.sha256);
    if (check === undefined || !check.ok) {
      done.left.push(row.id);
      continue;
    }
    try {
      const sql = await storedFileFingerprintSql(catalog, row.id, row.format, check);
      await writeTransaction(catalog, async (connection) => {
        await connection.run(
          `UPDATE releases SET rows_fingerprint = f.fingerprint FROM (${sql}) f WHERE releases.id = f.release_id AND releases.rows_fingerprint IS NULL`,
        );
      });
      done.computed.push(row.id);
    } catch {
      // Whatever one release's file gives (an unreadable or unexpected file), the open goes on: the release stays
      // unrecorded, which `rdw verify` reports and `rdw verify --repair` (the remedy) mends by re-importing it.
      done.left.push(row.id);
    }
  }
  return done;
}
