// Who holds a sync lock: its own file, so the lock (sync-lock.ts) and the sentences about it (messages.ts)
// both import it without a circle.

/** Who holds (or held) a sync lock. */
export interface SyncLockHolder {
  /** A positive process ID. */
  pid: number;
  hostname: string;
  /** When that sync started, ISO UTC (as written in the lock: any text). */
  startedAt: string;
}
