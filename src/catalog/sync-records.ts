// The catalog's `sync_runs` table: one row per `rdw sync` run (what it listed, pulled, skipped and recorded),
// written and read only here. The workbench's syncHome decides what goes in; this file only stores it.

import { writeTransaction, type Catalog } from './catalog.js';
import { sqlTimestamp } from './run-migrations.js';

/**
 * How a sync run ended: `ok` (nothing failed), `limited` (a byte budget or rate limit stopped part of it),
 * `failed`, `interrupted` (SIGINT/SIGTERM: it stopped between releases; exit code 130/143).
 */
export type SyncOutcome = 'ok' | 'limited' | 'failed' | 'interrupted';

/** One recorded sync run. Times are ISO UTC (`2026-11-01T00:00:00.000Z`). */
export interface SyncRunRecord {
  /** 1, 2, … in the order the runs were recorded. */
  id: number;
  startedAt: string;
  finishedAt: string;
  outcome: SyncOutcome;
  /** The exit code the run ended with (0 ok, 5 limit, …). */
  exitCode: number;
  /** Releases in the listing the run read. */
  listed: number;
  /** Releases of days the catalog did not hold, imported by this run. */
  newReleases: number;
  /** New revisions (a new ID for a day the catalog held), imported by this run. */
  revised: number;
  /** Releases that could not be pulled. */
  failed: number;
  /** Snapshots recorded as new. */
  snapshotsRecorded: number;
  /** Byte budget left today after the run, in bytes; null when the service did not say. */
  budgetLeftBytes: number | null;
  /** The free-scope datasets chosen for snapshots (what a later plain sync uses). */
  snapshotDatasets: string[];
  /** What the run did, as JSON (the workbench's SyncReport). */
  details: unknown;
}

/** Records a finished run in one transaction; returns its `id`. */
export async function recordSyncRun(catalog: Catalog, run: Omit<SyncRunRecord, 'id'>): Promise<number> {
  return writeTransaction(catalog, async (connection) => {
    const reader = await connection.runAndReadAll('SELECT (coalesce(max(id), 0) + 1)::INTEGER AS id FROM sync_runs');
    const id = Number(reader.getRowObjectsJson()[0]!.id);
    await connection.run(
      `INSERT INTO sync_runs VALUES ($id, $started_at::TIMESTAMP, $finished_at::TIMESTAMP, $outcome, $exit_code, $listed, $new_releases,
        $revised, $failed, $snapshots_recorded, $budget_left_bytes, $snapshot_datasets::JSON, $details::JSON)`,
      {
        id,
        started_at: sqlTimestamp(new Date(run.startedAt)),
        finished_at: sqlTimestamp(new Date(run.finishedAt)),
        outcome: run.outcome,
        exit_code: run.exitCode,
        listed: run.listed,
        new_releases: run.newReleases,
        revised: run.revised,
        failed: run.failed,
        snapshots_recorded: run.snapshotsRecorded,
        budget_left_bytes: run.budgetLeftBytes === null || !Number.isFinite(run.budgetLeftBytes) ? null : run.budgetLeftBytes,
        snapshot_datasets: JSON.stringify(run.snapshotDatasets),
        details: JSON.stringify(run.details ?? null),
      },
    );
    return id;
  });
}

/** The recorded runs, newest first; at most `limit` (default: all). */
export async function readSyncRuns(catalog: Catalog, options: { limit?: number } = {}): Promise<SyncRunRecord[]> {
  const limit = options.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(options.limit))}`;
  const rows = await catalog.query(
    `SELECT id::INTEGER AS id, strftime(started_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS started_at, strftime(finished_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS finished_at,
      outcome, exit_code, listed, new_releases, revised, failed, snapshots_recorded, budget_left_bytes,
      CAST(snapshot_datasets AS VARCHAR) AS snapshot_datasets, CAST(details AS VARCHAR) AS details
     FROM sync_runs ORDER BY id DESC${limit}`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    startedAt: String(row.started_at),
    finishedAt: String(row.finished_at),
    outcome: String(row.outcome) as SyncOutcome,
    exitCode: Number(row.exit_code),
    listed: Number(row.listed),
    newReleases: Number(row.new_releases),
    revised: Number(row.revised),
    failed: Number(row.failed),
    snapshotsRecorded: Number(row.snapshots_recorded),
    budgetLeftBytes: row.budget_left_bytes === null || row.budget_left_bytes === undefined ? null : Number(row.budget_left_bytes),
    snapshotDatasets: JSON.parse(String(row.snapshot_datasets)) as string[],
    details: JSON.parse(String(row.details)) as unknown,
  }));
}

/** The newest recorded run, or undefined before the first. */
export async function lastSyncRun(catalog: Catalog): Promise<SyncRunRecord | undefined> {
  return (await readSyncRuns(catalog, { limit: 1 }))[0];
}
