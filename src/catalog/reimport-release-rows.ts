// reimportReleaseRows: replaces the rows of imported releases with the rows of their verified data file, in
// one transaction (`rdw verify --repair`); any failure rolls back and leaves the old rows.

import type { FileDigest, Release, ReleaseCoverage } from '../contract/index.js';
import { writeTransaction, type Catalog } from './catalog.js';
import { checkDataFile, insertReleaseRows } from './import-release.js';
import type { DataFormat, ReleaseImport } from './release-import.js';
import { idInListSql } from './release-id-sql.js';

/** One release whose rows come from the data file, and the format it names that file by. */
export interface DataFileUse {
  releaseId: string;
  format: DataFormat;
}

const parsed = <T>(text: unknown): T | undefined => (typeof text === 'string' ? (JSON.parse(text) as T | null) ?? undefined : undefined);
const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/**
 * The releases of `uses` as the catalog recorded them (the catalog is the authority: day, rows, the
 * sample_time range, coverage, dataset, version), each as a ReleaseImport of the file at `dataPath`.
 */
export async function recordedImports(catalog: Catalog, uses: readonly DataFileUse[], data: FileDigest, dataPath: string): Promise<ReleaseImport[]> {
  const rows = await catalog.query(
    `SELECT id, dataset, version, strftime(day, '%Y-%m-%d') AS day, generated_at, rows::DOUBLE AS rows, min_sample_time, max_sample_time,
       coverage::VARCHAR AS coverage, limitations::VARCHAR AS limitations, manifest_sha256
     FROM releases WHERE ${idInListSql('id', uses.map((use) => use.releaseId))} ORDER BY import_order`,
  );
  const items: ReleaseImport[] = [];
  for (const row of rows) {
    const format = uses.find((use) => use.releaseId === row.id)!.format;
    const release: Release = {
      id: String(row.id),
      dataset: String(row.dataset),
      version: String(row.version),
      day: String(row.day),
      generated_at: Number(row.generated_at),
      rows: Number(row.rows),
      files: { [format]: data } as unknown as Release['files'],
      coverage: parsed<ReleaseCoverage>(row.coverage) as ReleaseCoverage,
      min_sample_time: numberOrNull(row.min_sample_time),
      max_sample_time: numberOrNull(row.max_sample_time),
      limitations: parsed<string[]>(row.limitations) ?? [],
    };
    // The columns as at import (the same bytes passed the bundled schema then): the plan of each column.
    const columns = await checkDataFile(catalog, release.id, format, dataPath, release.rows);
    items.push({ release, manifestSha256: String(row.manifest_sha256), manifestBytes: 0, schema: undefined, format, data, dataPath, columns });
  }
  return items;
}

/**
 * Deletes the rows (and extra fields) of every release in `uses` and inserts them again from the verified
 * data file at `dataPath` (digest `data`, the one `release_files` records), in ONE transaction: the row
 * count and every manifest statement the catalog recorded are checked as at import (`insertReleaseRows`).
 * Any failure rolls back: the old rows stay. Returns the release IDs re-imported.
 */
export async function reimportReleaseRows(catalog: Catalog, uses: readonly DataFileUse[], data: FileDigest, dataPath: string): Promise<string[]> {
  const items = await recordedImports(catalog, uses, data, dataPath);
  if (items.length === 0) return [];
  const ids = items.map((item) => item.release.id);
  await writeTransaction(catalog, async (connection) => {
    await connection.run(`DELETE FROM market_event_extras WHERE ${idInListSql('release_id', ids)}`);
    await connection.run(`DELETE FROM market_events WHERE ${idInListSql('release_id', ids)}`);
    await insertReleaseRows(connection, items);
  });
  return ids;
}
