// syncHome: brings a home up to date in one idempotent run: lists the latest releases, pulls every listed
// ID the catalog lacks (new days and new revisions, by exact ID), records the chosen free-scope snapshots
// when due, checks study locks for revisions, and records the run in the catalog (sync_runs).

import {
  catalogDays,
  currentRevisions,
  importedReleaseIds,
  knownRevisions,
  lastSyncRun,
  pullReleases,
  recordSyncRun,
  type Catalog,
  type PullProgress,
} from '../catalog/index.js';
import type { RdwClient } from '../client/index.js';
import { EXIT_CODES, failureOf, RELEASES_QUERY, type ListedRelease } from '../contract/index.js';
import { signalExitCode } from '../base/index.js';
import { checkLockRevisions, type StudyLock } from '../locks/index.js';
import { fallenOffDays } from './fallen-off-days.js';
import { listLatestReleases } from './pull-wanted.js';
import { listingRestatements } from './listing-restatements.js';
import type { SyncBudget, SyncedRelease, SyncFailure, SyncReport } from './sync-report.js';
import { syncSnapshots } from './sync-snapshots.js';
import { WorkbenchOptionError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';

export interface SyncHomeOptions {
  /** Free-scope dataset IDs to keep snapshots of. Default: the last recorded sync's choice (none before the first). */
  snapshots?: readonly string[];
  /** Study locks to check for revised days: each with the file name it is reported under. Default: none. */
  locks?: readonly { file: string; lock: StudyLock }[];
  /** Releases downloaded and checked at a time (pullReleases). Default 4. */
  concurrency?: number;
  /** Progress of the pull. Default: none. */
  onProgress?: (event: PullProgress) => void;
  /**
   * Once aborted (its reason the signal's name, e.g. `SIGINT`), the run stops between releases, skips
   * snapshots and the budget, and is recorded as `interrupted` with exit code 128 + the signal's number.
   * Default: none.
   */
  signal?: AbortSignal;
}

const DATASET_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * One sync of `catalog`'s home through `client`. Never throws for a release or snapshot that fails (see
 * `failed`, `snapshots`, `exitCode`); a listing that fails is recorded as a failed run and thrown. Take the
 * home's sync lock first (`acquireSyncLock`) when other syncs may run. Every run is recorded in sync_runs.
 */
export async function syncHome(catalog: Catalog, client: RdwClient, options: SyncHomeOptions = {}): Promise<SyncReport> {
  const now = () => catalog.now().getTime();
  const startedAt = new Date(now()).toISOString();
  for (const dataset of options.snapshots ?? []) {
    if (!DATASET_ID.test(dataset)) throw new WorkbenchOptionError(workbenchMessages.badSnapshotDataset(dataset), { option: 'snapshots' });
  }
  const last = await lastSyncRun(catalog);
  const snapshotDatasets = [...new Set(options.snapshots ?? last?.snapshotDatasets ?? [])];
  const before = await catalogDays(catalog);
  const base = { startedAt, snapshotDatasets, previousLastDay: before.lastDay };
  try {
    return await run(catalog, client, options, base, last?.details as Partial<SyncReport> | undefined, last, now);
  } catch (error) {
    // The run is recorded even when it could not list: when, and why, in details.
    const failure = failureOf(error);
    const exitCode = failure.exitCode;
    await recordSyncRun(catalog, {
      startedAt,
      finishedAt: new Date(now()).toISOString(),
      outcome: exitCode === EXIT_CODES.limit ? 'limited' : 'failed',
      exitCode,
      listed: 0,
      newReleases: 0,
      revised: 0,
      failed: 0,
      snapshotsRecorded: 0,
      budgetLeftBytes: null,
      snapshotDatasets,
      details: { ...base, error: failure },
    }).catch(() => undefined);
    throw error;
  }
}

async function run(
  catalog: Catalog,
  client: RdwClient,
  options: SyncHomeOptions,
  base: { startedAt: string; snapshotDatasets: string[]; previousLastDay: string | null },
  lastDetails: Partial<SyncReport> | undefined,
  last: Awaited<ReturnType<typeof lastSyncRun>>,
  now: () => number,
): Promise<SyncReport> {
  // 1. The listing: the latest 100 releases, remembered in listed_releases.
  const limit = RELEASES_QUERY.limit.max;
  const listing = await listLatestReleases(catalog, client, limit, options.signal === undefined ? {} : { signal: options.signal });
  const listedIds = [...new Set(listing.map((item) => item.id))];
  const present = await importedReleaseIds(catalog, listedIds);
  const todo = listing.filter((item, index) => !present.has(item.id) && listing.findIndex((other) => other.id === item.id) === index);

  // 2. New days and new revisions, by exact ID: a day the catalog held is a revision.
  const heldBefore = await knownRevisions(catalog, todo.map((item) => item.day));
  const pulled = await pullReleases(catalog, client, todo.map((item) => item.id), {
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const interruptedBy = options.signal?.aborted === true ? String(options.signal.reason ?? 'SIGINT') : undefined;
  const listedById = new Map<string, ListedRelease>(listing.map((item) => [item.id, item]));
  const fresh: SyncedRelease[] = [];
  const revised: SyncedRelease[] = [];
  let downloadedBytes = 0;
  for (const result of pulled.pulled) {
    if (result.status !== 'imported') continue;
    downloadedBytes += result.bytes ?? 0;
    const generated = listedById.get(result.id)?.generated_at;
    const replaces = (heldBefore.get(result.day) ?? []).filter((revision) => revision.imported && revision.id !== result.id).map((revision) => revision.id);
    const release: SyncedRelease = {
      id: result.id,
      day: result.day,
      version: result.version,
      rows: result.rows,
      generatedAt: typeof generated === 'number' ? generated : null,
    };
    if (replaces.length > 0) revised.push({ ...release, replaces });
    else fresh.push(release);
  }
  // A revision the service lists but that is older than one imported (by generated_at) does not become current:
  // said, not "replaces" alone (a second server's adversary, session 35).
  const current = await currentRevisions(catalog, revised.map((release) => release.day));
  for (const release of revised) {
    const stays = current.get(release.day);
    if (stays !== undefined && stays !== release.id) release.currentStays = stays;
  }
  const failed: SyncFailure[] = pulled.failed.map(({ id, error }) => ({
    id,
    day: listedById.get(id)?.day ?? '',
    ...failureOf(error),
  }));

  // 3. Snapshots of the chosen datasets, when due (none once interrupted: the run stops as soon as it can).
  const snapshots = interruptedBy === undefined ? await syncSnapshots(catalog, client, base.snapshotDatasets, last, now) : [];

  // 4. What the home may lack: days fallen off a full listing since the last sync, days without a release.
  const days = listing.map((item) => item.day).sort();
  const oldestListedDay = days[0] ?? null;
  const newestListedDay = days.at(-1) ?? null;
  const knownLast = [lastDetails?.newestListedDay, base.previousLastDay].filter((day): day is string => typeof day === 'string').sort().at(-1);
  const mayHaveFallenOff = fallenOffDays(oldestListedDay, listing.length, limit, knownLast);
  const { missingDays } = await catalogDays(catalog);
  const restated = await listingRestatements(catalog, listing);

  // 5. Study locks against the listing and the catalog; the budget left.
  const locks = [];
  for (const { file, lock } of options.locks ?? []) {
    const checks = await checkLockRevisions(catalog, lock, listing);
    locks.push({ file, pinned: checks.length, releases: checks.filter((check) => check.status !== 'current') });
  }
  const budget = interruptedBy === undefined ? await readBudget(client) : null;

  // 6. The outcome, recorded.
  const firstFailure = failed[0]?.exitCode ?? snapshots.find((entry) => entry.status === 'failed')?.exitCode;
  const failedCode = failed.length > 0 || snapshots.some((entry) => entry.status === 'failed') ? (firstFailure ?? EXIT_CODES.failure) : EXIT_CODES.ok;
  const exitCode = interruptedBy === undefined ? failedCode : signalExitCode(interruptedBy);
  const report: SyncReport = {
    startedAt: base.startedAt,
    finishedAt: new Date(now()).toISOString(),
    outcome: interruptedBy !== undefined ? 'interrupted' : exitCode === EXIT_CODES.ok ? 'ok' : exitCode === EXIT_CODES.limit ? 'limited' : 'failed',
    exitCode,
    listed: listing.length,
    newestListedDay,
    oldestListedDay,
    new: fresh,
    revised,
    present: present.size,
    failed,
    snapshots,
    snapshotDatasets: base.snapshotDatasets,
    downloadedBytes,
    budget,
    mayHaveFallenOff,
    previousLastDay: base.previousLastDay,
    missingDays,
    restated,
    locks,
    ...(interruptedBy === undefined ? {} : { interrupted: { signal: interruptedBy, notPulled: pulled.notStarted } }),
    ...(pulled.stoppedBy === undefined || interruptedBy !== undefined ? {} : { stopped: { notPulled: pulled.notStarted } }),
  };
  await recordSyncRun(catalog, {
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    outcome: report.outcome,
    exitCode,
    listed: report.listed,
    newReleases: fresh.length,
    revised: revised.length,
    failed: failed.length,
    snapshotsRecorded: snapshots.filter((entry) => entry.status === 'recorded').length,
    budgetLeftBytes: budget?.remainingBytes ?? null,
    snapshotDatasets: base.snapshotDatasets,
    details: report,
  });
  return report;
}

/** The byte budget after the run; null when the service's limits could not be read. */
async function readBudget(client: RdwClient): Promise<SyncBudget | null> {
  try {
    const budget = await client.byteBudget();
    return { dailyBytes: budget.dailyBytes ?? null, remainingBytes: budget.remainingBytes ?? null, clearsOn: budget.clearsOn };
  } catch {
    return null;
  }
}
