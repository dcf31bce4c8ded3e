// A local history of fetched Research snapshots, kept in the catalog's `snapshots` table (DESIGN.md 2.4):
// one row per dataset and generated_at, so re-fetching a snapshot the client served from its cache (or
// the service had not yet refreshed) records nothing new. The API itself has no historical snapshots.

import { sqlTimestamp, type Catalog } from '../catalog/index.js';
import type { ResearchSnapshot } from '../client/index.js';
import { NotebookOptionError } from './notebook-errors.js';
import { notebookMessages } from './messages.js';

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
 * @throws NotebookOptionError when the snapshot has no `key` or no numeric `generated_at`.
 */
export async function recordSnapshot(catalog: Catalog, snapshot: ResearchSnapshot, options: RecordSnapshotOptions = {}): Promise<boolean> {
  if (typeof snapshot?.key !== 'string' || snapshot.key === '') throw new NotebookOptionError(notebookMessages.badSnapshot('it has no key'));
  if (typeof snapshot.generated_at !== 'number' || !Number.isFinite(snapshot.generated_at)) {
    throw new NotebookOptionError(notebookMessages.badSnapshot('it has no numeric generated_at'));
  }
  const fetchedAt = sqlTimestamp(options.fetchedAt ?? catalog.now());
  return catalog.transaction(async (connection) => {
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

/** The recorded snapshots of `datasetId`, oldest `generated_at` first. */
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

/** One point of a snapshot history series: an item's numeric field at a snapshot's generated_at. */
export interface SnapshotHistoryPoint {
  /** generated_at as ISO time (UTC). */
  time: string;
  /** The item's `seriesField` value (e.g. the symbol). */
  series: string;
  /** Null when the item gave no valid observation (missing, never zero). */
  value: number | null;
}

/**
 * Flattens a history into points of one numeric item field (e.g. `change_24h`), one series per value of
 * `seriesField` (default `symbol`). A null or absent value stays null.
 * @throws NotebookOptionError when no item of any snapshot has `field` as a number.
 */
export function snapshotHistoryPoints(
  history: readonly SnapshotHistoryEntry[],
  field: string,
  options: { seriesField?: string } = {},
): SnapshotHistoryPoint[] {
  const seriesField = options.seriesField ?? 'symbol';
  const points = history.flatMap((entry) =>
    (entry.snapshot.items ?? []).map((item) => ({
      time: new Date(entry.generated_at * 1000).toISOString(),
      series: String(item[seriesField] ?? ''),
      value: typeof item[field] === 'number' && Number.isFinite(item[field]) ? (item[field] as number) : null,
    })),
  );
  if (points.length > 0 && points.every((point) => point.value === null)) {
    throw new NotebookOptionError(notebookMessages.badHistoryField(field), { option: 'field' });
  }
  return points;
}
