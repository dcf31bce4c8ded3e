// The typed result of one `syncHome` run (what `rdw sync` prints, `--json` outputs, and sync_runs.details holds).

import type { SyncOutcome } from '../catalog/index.js';
import type { PinnedReleaseCheck } from '../locks/index.js';
import type { ListingRestatement } from './listing-restatements.js';

/** A release a sync imported. */
export interface SyncedRelease {
  id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  version: string;
  rows: number;
  /** Generation (publication) time from the listing, UTC Unix seconds; null when the listing gave none. */
  generatedAt: number | null;
  /** For a revision: the IDs of the same day the catalog held before (they stay imported). */
  replaces?: string[];
  /**
   * For a revision that is not its day's current one after all (an imported revision has a newer generated_at, so
   * `market_events_current`, and every study, still reads that one): its ID.
   */
  currentStays?: string;
}

/** A listed release that could not be pulled (it left nothing imported). */
export interface SyncFailure {
  id: string;
  day: string;
  code: string;
  exitCode: number;
  message: string;
}

/** What a sync did about one chosen free-scope dataset. */
export interface SyncSnapshot {
  dataset: string;
  /** `recorded`: a new snapshot; `unchanged`: fetched, same generated_at as recorded; `skipped`: not due; `failed`. */
  status: 'recorded' | 'unchanged' | 'skipped' | 'failed';
  /** Why (skipped: not due before `nextAt`; failed: the error's sentence). */
  reason?: string;
  /** The latest fetch of this dataset known to the home (this run's when it fetched), ISO UTC. */
  fetchedAt: string | null;
  /** The dataset's refresh interval in force (seconds): declared by the snapshot, else known, else 60. */
  refreshSeconds: number;
  /** Earliest time of the next fetch, ISO UTC. */
  nextAt: string | null;
  /** The snapshot's generated_at (UTC Unix seconds) when fetched now. */
  generatedAt?: number;
  /** True when the snapshot fetched now says it is stale (spec: `stale`); absent otherwise. */
  stale?: true;
  /** A failure's code and exit code (failureOf). */
  code?: string;
  exitCode?: number;
}

/** One study lock checked against revisions. */
export interface SyncLockCheck {
  /** The lock file as given. */
  file: string;
  /** Releases the lock pins, every one checked. */
  pinned: number;
  /** Every pinned release with a newer revision of its day, or no longer listed. */
  releases: PinnedReleaseCheck[];
}

/** The byte budget after the run. */
export interface SyncBudget {
  /** The plan's daily bytes; null when the service did not say. */
  dailyBytes: number | null;
  /** Bytes left today; null when unknown. */
  remainingBytes: number | null;
  /** The UTC day it next clears. */
  clearsOn: string;
}

/** One `syncHome` run. Times are ISO UTC. */
export interface SyncReport {
  startedAt: string;
  finishedAt: string;
  outcome: SyncOutcome;
  /** 0 ok; otherwise the exit code of the first failure (5: a byte budget or rate limit, naming when it clears). */
  exitCode: number;
  /** Items of the listing read (at most 100, newest day first). */
  listed: number;
  newestListedDay: string | null;
  oldestListedDay: string | null;
  /** Releases of days the catalog did not hold, imported now. */
  new: SyncedRelease[];
  /** New revisions of days the catalog held, imported now. */
  revised: SyncedRelease[];
  /** Listed releases already in the catalog (skipped: present). */
  present: number;
  failed: SyncFailure[];
  snapshots: SyncSnapshot[];
  /** The datasets chosen for snapshots (remembered for the next plain sync). */
  snapshotDatasets: string[];
  /** File bytes downloaded by this run. */
  downloadedBytes: number;
  budget: SyncBudget | null;
  /**
   * Days that may have fallen off the 100-item listing since the last sync: from the day after the newest
   * day the home held to the day before the oldest listed day (only when the listing was full). Empty: none.
   */
  mayHaveFallenOff: { from: string; to: string } | null;
  /** The newest day the catalog held before this run (null: empty catalog). */
  previousLastDay: string | null;
  /** Days between the catalog's first and last day with no release in the catalog, after the run. */
  missingDays: string[];
  /** What the listing states otherwise about releases already imported (kept as verified; listingRestatements). */
  restated: ListingRestatement[];
  locks: SyncLockCheck[];
  /**
   * Set when a signal stopped the run between releases (outcome `interrupted`): the signal, and the listed
   * releases it did not start (a rerun pulls them). Snapshots were not fetched and the budget not read.
   */
  interrupted?: { signal: string; notPulled: string[] };
  /**
   * Set when a failure of this machine (a full disk: the first entry of `failed` with its code) stopped the
   * pull: the listed releases not pulled after it (each left nothing; a rerun pulls them).
   */
  stopped?: { notPulled: string[] };
}
