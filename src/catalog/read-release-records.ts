// readReleaseRecords: what the catalog recorded for exact release IDs (the `releases` row and the digests of
// its `release_files`), for pulls (already present?) and for checks that hold the catalog against a study lock.

import type { FileDigest } from '../contract/index.js';
import type { Catalog } from './catalog.js';
import { idInListSql } from './release-id-sql.js';

/** One imported release as the catalog recorded it. */
export interface ReleaseRecord {
  /** Exact release ID, as imported. */
  id: string;
  dataset: string;
  version: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  /** Rows imported (the manifest's `rows`, checked at import). */
  rows: number;
  /** The manifest's generation time, UTC Unix seconds (it orders a day's revisions). */
  generatedAt: number;
  /** SHA-256 of the manifest bytes as downloaded (`releases.manifest_sha256`). */
  manifestSha256: string;
  /** `releases.schema_sha256`; null for a release without a bundled schema. */
  schemaSha256: string | null;
  /**
   * `releases.rows_fingerprint`: the fingerprint of the rows as imported (rows-fingerprint.ts); null for a
   * release imported before rdw recorded them whose stored data file could not give one yet.
   */
  rowsFingerprint: string | null;
  /** Recorded files by format (`manifest`, `schema`, `parquet`, `csv`, …): SHA-256 and size in bytes. */
  files: Map<string, FileDigest>;
}

/**
 * The records of `ids` that the catalog holds, by exact ID (an ID not imported is simply absent from the
 * map; nothing stands in for it). IDs are compared exactly, never case-folded.
 */
export async function readReleaseRecords(catalog: Catalog, ids: readonly string[]): Promise<Map<string, ReleaseRecord>> {
  const records = new Map<string, ReleaseRecord>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return records;
  const releases = await catalog.query(
    `SELECT id, dataset, version, strftime(day, '%Y-%m-%d') AS day, rows::DOUBLE AS rows, generated_at, manifest_sha256, schema_sha256, rows_fingerprint FROM releases WHERE ${idInListSql('id', unique)}`,
  );
  for (const row of releases) {
    records.set(String(row.id), {
      id: String(row.id),
      dataset: String(row.dataset),
      version: String(row.version),
      day: String(row.day),
      rows: Number(row.rows),
      generatedAt: Number(row.generated_at),
      manifestSha256: String(row.manifest_sha256),
      schemaSha256: row.schema_sha256 === null || row.schema_sha256 === undefined ? null : String(row.schema_sha256),
      rowsFingerprint: typeof row.rows_fingerprint === 'string' ? row.rows_fingerprint : null,
      files: new Map(),
    });
  }
  if (records.size === 0) return records;
  const files = await catalog.query(
    `SELECT release_id, format, sha256, bytes::DOUBLE AS bytes FROM release_files WHERE ${idInListSql('release_id', [...records.keys()])} ORDER BY release_id, format`,
  );
  for (const row of files) {
    records.get(String(row.release_id))?.files.set(String(row.format), { sha256: String(row.sha256), bytes: Number(row.bytes) });
  }
  return records;
}
