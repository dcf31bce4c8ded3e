// The snapshot part of a sync: fetch and record each chosen free-scope dataset, never sooner than its
// refresh_seconds after the latest fetch the home knows (spec: "Polling"; a recorded snapshot, or a sync's fetch).

import { utcSecondsText } from '../base/index.js';
import { lastSnapshotFetches, type Catalog, type SyncRunRecord } from '../catalog/index.js';
import type { RdwClient } from '../client/index.js';
import { failureOf, researchDataset } from '../contract/index.js';
import { snapshotHistoryMethods } from './snapshot-history.js';
import type { SyncReport, SyncSnapshot } from './sync-report.js';
import { workbenchMessages } from './messages.js';

/** Interval (seconds) of a dataset that declares none and that src/contract does not know. */
const FALLBACK_REFRESH_SECONDS = 60;

const iso = (ms: number): string => new Date(ms).toISOString();

/** What the last sync said of each dataset (its fetch time and interval), to carry forward. */
function previousEntries(last: SyncRunRecord | undefined): Map<string, SyncSnapshot> {
  const details = last?.details as Partial<SyncReport> | null | undefined;
  const entries: SyncSnapshot[] = Array.isArray(details?.snapshots) ? details!.snapshots! : [];
  return new Map(entries.filter((entry) => typeof entry?.dataset === 'string').map((entry) => [entry.dataset, entry]));
}

/**
 * Fetches and records the snapshots of `datasets` that are due at `now` (ms); one entry per dataset, in the
 * order given. A failure of one dataset is its entry (`failed`, with its code), never thrown.
 */
export async function syncSnapshots(
  catalog: Catalog,
  client: RdwClient,
  datasets: readonly string[],
  last: SyncRunRecord | undefined,
  now: () => number,
): Promise<SyncSnapshot[]> {
  const recorded = await lastSnapshotFetches(catalog, datasets);
  const previous = previousEntries(last);
  const history = snapshotHistoryMethods(catalog, client);
  const entries: SyncSnapshot[] = [];
  for (const dataset of datasets) {
    const before = previous.get(dataset);
    const times = [recorded.get(dataset)?.getTime(), before?.fetchedAt ? Date.parse(before.fetchedAt) : undefined].filter(
      (time): time is number => time !== undefined && Number.isFinite(time),
    );
    const lastFetch = times.length === 0 ? undefined : Math.max(...times);
    const refreshSeconds = before?.refreshSeconds ?? researchDataset(dataset)?.refresh_seconds ?? FALLBACK_REFRESH_SECONDS;
    const dueAt = lastFetch === undefined ? undefined : lastFetch + refreshSeconds * 1000;
    if (dueAt !== undefined && now() < dueAt) {
      entries.push({
        dataset,
        status: 'skipped',
        reason: workbenchMessages.snapshotNotDue(refreshSeconds, utcSecondsText(dueAt)),
        fetchedAt: iso(lastFetch!),
        refreshSeconds,
        nextAt: iso(dueAt),
      });
      continue;
    }
    const fetchedAt = now();
    try {
      const { snapshot, recorded: isNew } = await history.fetchSnapshot(dataset);
      const declared = typeof snapshot?.refresh_seconds === 'number' && snapshot.refresh_seconds >= 0 ? snapshot.refresh_seconds : refreshSeconds;
      entries.push({
        dataset,
        status: isNew ? 'recorded' : 'unchanged',
        fetchedAt: iso(fetchedAt),
        refreshSeconds: declared,
        nextAt: iso(fetchedAt + declared * 1000),
        generatedAt: snapshot.generated_at,
        // Recorded all the same (the history keeps what the service served), but said: `rdw research get` says it too.
        ...(snapshot.stale === true ? { stale: true as const } : {}),
      });
    } catch (error) {
      const { code, exitCode, message } = failureOf(error);
      entries.push({
        dataset,
        status: 'failed',
        reason: message,
        code,
        exitCode,
        fetchedAt: lastFetch === undefined ? null : iso(lastFetch),
        refreshSeconds,
        nextAt: null,
      });
    }
  }
  return entries;
}
