// Every user-facing sentence of the workbench layer.

import { printableText } from '../base/index.js';
import type { SyncLockHolder } from './sync-lock-holder.js';

/** How each way of naming the home folder is shown in an example. */
const HOME_EXAMPLES = { '--home': '--home ./datasets', home: "home: './datasets'", RDW_HOME: 'export RDW_HOME=$HOME/rdw-data' } as const;

export const workbenchMessages = {
  apiKeyMissing: () =>
    'RDW_BASE_URL (or --base-url) points at an API but RDW_API_KEY is not set; set RDW_API_KEY to your key (it is never taken from a flag).',
  badNetworkSetting: (name: string, min: number, max: number) =>
    `${name} must be a number from ${min} to ${max} (${name === 'RDW_REQUEST_DEADLINE' ? 'the seconds one request may take in all' : 'the MiB of one response rdw reads into memory'}); unset it for the default.`,
  lockInterrupted: () => 'The lock was interrupted before every release it pins was pulled: no lock file was written.',
  embeddedMock: (baseUrl: string) => `rdw: RDW_BASE_URL is not set: the embedded mock at ${baseUrl} serves seeded data.`,
  /**
   * The embedded mock building days' files for a listing (a real API answers at once). What it built is kept in the
   * home (`<home>/state/embedded-mock-revisions.json`), so a later command lists those days without building them.
   */
  embeddedMockBuilding: (built: number, total: number, seconds: number) =>
    `The embedded mock is building its releases' files: ${built} of ${total} days after ${seconds.toFixed(0)} s (once per home: later commands list them at once).`,
  emptyHome: (setting: '--home' | 'home' | 'RDW_HOME') =>
    `${setting} is empty; give the folder that holds catalog.duckdb and store/ (e.g. ${HOME_EXAMPLES[setting]}), or leave it out for ./datasets.`,
  syncBusy: (file: string, holder: SyncLockHolder, otherHost: boolean) => {
    const since = holder.startedAt === '' ? '' : ` since ${printableText(holder.startedAt, 40)}`;
    const lock = printableText(file, 200);
    return otherHost
      ? `Another rdw sync holds this home: PID ${holder.pid} on host ${printableText(holder.hostname, 64)}${since} (${lock}); wait for it, or remove ${lock} once that sync is surely gone.`
      : `Another rdw sync is running on this home: PID ${holder.pid}${since} (${lock}); this one stops. Wait for it to finish, ${
          holder.pid > 1 ? `or stop PID ${holder.pid} first` : `or remove ${lock} once that sync is surely gone`
        }.`;
  },
  syncLockRaced: (file: string) => `Another rdw sync took this home's lock (${printableText(file, 200)}) just now; this one stops.`,
  syncLockUnusable: (file: string, kind: 'folder' | 'special') =>
    `${printableText(file, 200)} is ${kind === 'folder' ? 'a folder' : 'a special file (a FIFO, socket or device)'}, not a sync lock rdw wrote, so no sync can take this home; remove it (${
      kind === 'folder' ? 'rmdir' : 'rm'
    } '${printableText(file, 200)}') and run rdw sync again.`,
  syncLockTakenOver: (pid: number, startedAt: string) =>
    `rdw: took over the sync lock of PID ${pid}${startedAt === '' ? '' : ` (started ${printableText(startedAt, 40)})`}, which is no longer running.`,
  syncLockInvalidTakenOver: (file: string, why: string) => `rdw: took over ${printableText(file, 200)}, which held no lock a live sync wrote: ${why}.`,
  syncLockLinkTakenOver: (file: string, target: string) =>
    `rdw: took over ${printableText(file, 200)}, a symbolic link (to ${printableText(target, 80)}) rdw never writes; the link was removed, not its target.`,
  syncLockEmpty: () => 'it was empty',
  syncLockNotJson: () => 'it was not a JSON lock (cut short by a kill, or written by something else)',
  syncLockBadPid: (pid: unknown) =>
    pid === undefined ? 'it names no PID' : `its PID ${printableText(JSON.stringify(pid) ?? String(pid), 40)} is not a process ID of 1 or more`,
  syncLockNoHost: () => 'it names no host or start time',
  snapshotNotDue: (refreshSeconds: number, nextAt: string) => `not due until ${nextAt} (refreshes every ${refreshSeconds} s)`,
  listingRestated: (id: string, field: string, imported: string, listed: string) =>
    `The listing restates imported release ${id.slice(0, 12)}…: ${field} ${listed}, not ${imported} as imported; a release ID is immutable, so rdw keeps what it verified (the service contradicts itself).`,
  snapshotUnrecordable: (dataset: string, why: string) =>
    `The service's snapshot of ${dataset} ${why}, so rdw cannot record it in the snapshot history; nothing was recorded (the service must fix it).`,
  badSnapshotDataset: (dataset: string) =>
    `${JSON.stringify(dataset)} is not a dataset ID; name free-scope datasets as "rdw research catalog" lists them (e.g. market-breadth).`,
  studyReleasesFixed: (method: string) => `Study.${method} runs over exactly the locked release IDs; drop the \`releases\` option (or write a new lock).`,
};
