// The catalog's `snapshots` table (DESIGN.md 2.4): a local history of fetched Research snapshots, one row
// per dataset and generated_at, so re-fetching a snapshot the client served from its cache (or the service
// had not yet refreshed) records nothing new. The API itself has no historical snapshots.

import type { ResearchSnapshot } from '../client/index.js';
import { writeTransaction, type Catalog } from './catalog.js';
import { CatalogOptionError } from './catalog-errors.js';
import { catalogMessages } from './messages.js';
import { sqlTimestamp } from './run-migrations.js';

/** One recorded snapshot. Times are UTC Unix seconds, as in the spec. */
export interface SnapshotHistoryEntry {
  dataset_id: string;
  generated_at: number;
  /** Newest underlying observation time; null when the snapshot gave none. */
  updated: number | null;
  stale: boolean | null;
  calculation_version: string | null;
  /** The whole snapshot as fetched. */
  snapshot: ResearchSnapshot;
}

export interface RecordSnapshotOptions {
  /** When it was fetched (stored as `fetched_at`). Default: the catalog's clock. */
  fetchedAt?: Date;
}

/**
 * Records `snapshot` in the catalog's history; returns true when it was new, false when a snapshot of
 * that dataset with the same `generated_at` is already there (first fetch wins).
 * @throws CatalogOptionError (exit 2) when the snapshot has no `key` or no numeric `generated_at`.
 */
export async function recordSnapshot(catalog: Catalog, snapshot: ResearchSnapshot, options: RecordSnapshotOptions = {}): Promise<boolean> {
  if (typeof snapshot?.key !== 'string' || snapshot.key === '') {
    throw new CatalogOptionError(catalogMessages.badSnapshot('it has no key'), { option: 'snapshot' });
  }
  if (typeof snapshot.generated_at !== 'number' || !Number.isFinite(snapshot.generated_at)) {
    throw new CatalogOptionError(catalogMessages.badSnapshot('it has no numeric generated_at'), { option: 'snapshot' });
  }
  const fetchedAt = sqlTimestamp(options.fetchedAt ?? catalog.now());
  return writeTransaction(catalog, async (connection) => {
    const result = await connection.run(
      `INSERT OR IGNORE INTO snapshots VALUES ($dataset_id, $generated_at, $updated, $stale, $calculation_version, $body::JSON, $fetched_at::TIMESTAMP)`,
      {
        dataset_id: snapshot.key,
        generated_at: snapshot.generated_at,
        updated: typeof snapshot.updated === 'number' ? snapshot.updated : null,
        stale: typeof snapshot.stale === 'boolean' ? snapshot.stale : null,
        calculation_version: typeof snapshot.calculation_version === 'string' ? snapshot.calculation_version : null,
        body: JSON.stringify(snapshot),
        fetched_at: fetchedAt,
      },
    );
    return result.rowsChanged > 0;
  });
}

/** The recorded snapshots of `datasetId`, oldest `generated_at` first (empty when none). */
export async function snapshotHistory(catalog: Catalog, datasetId: string): Promise<SnapshotHistoryEntry[]> {
  const rows = await catalog.query(
    `SELECT dataset_id, generated_at, updated, stale, calculation_version, CAST(body AS VARCHAR) AS body
     FROM snapshots WHERE dataset_id = $dataset_id ORDER BY generated_at`,
    { dataset_id: datasetId },
  );
  return rows.map((row) => ({
    dataset_id: String(row.dataset_id),
    generated_at: Number(row.generated_at),
    updated: row.updated === null || row.updated === undefined ? null : Number(row.updated),
    stale: row.stale === null || row.stale === undefined ? null : Boolean(row.stale),
    calculation_version: row.calculation_version === null || row.calculation_version === undefined ? null : String(row.calculation_version),
    snapshot: JSON.parse(String(row.body)) as ResearchSnapshot,
  }));
}

/** When each of `datasetIds` was last recorded (the newest `fetched_at` of its snapshots); absent: never. */
export async function lastSnapshotFetches(catalog: Catalog, datasetIds: readonly string[]): Promise<Map<string, Date>> {
  const fetched = new Map<string, Date>();
  for (const datasetId of new Set(datasetIds)) {
    const [row] = await catalog.query(
      `SELECT strftime(max(fetched_at), '%Y-%m-%dT%H:%M:%S.%gZ') AS at FROM snapshots WHERE dataset_id = $dataset_id`,
      { dataset_id: datasetId },
    );
    if (typeof row?.at === 'string') fetched.set(datasetId, new Date(row.at));
  }
  return fetched;
}
