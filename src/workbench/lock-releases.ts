// Locking releases (rdw lock): exact IDs, or the latest N listed, pinned in a study lock written atomically.
// IDs the catalog lacks are pulled by exact ID first; the catalog is opened to write and the API connected only
// when something must be listed or pulled (a lock of present releases reads the catalog alone).

import { importedReleaseIds, pullReleases, type Catalog, type PullProgress, type PullReleasesResult, type PullResult } from '../catalog/index.js';
import { AbortedError, type RdwClient } from '../client/index.js';
import { recordStudyLock, regularFileTarget, writeLockFile, type StudyLock } from '../locks/index.js';
import { checkWantedReleases, listLatestReleases, type WantedReleases } from './pull-wanted.js';
import { workbenchMessages } from './messages.js';
import { resolveReleaseIds } from './resolve-release-ids.js';

export interface LockReleasesOptions {
  /** Opens the home's catalog: 'read' first when only exact IDs are wanted, 'write' to list or pull. */
  openCatalog: (access: 'read' | 'write') => Promise<Catalog>;
  /** The API, asked for only when something must be listed or pulled (the caller closes it). */
  connect: () => Promise<RdwClient>;
  /** Called once the missing IDs are pulled, before the lock is recorded (a command says what it pulled). Default: none. */
  onPulled?: (ids: readonly string[], pulled: readonly PullResult[]) => void;
  /** Called with the IDs about to be pulled (none: not called), before the pull starts. Default: none. */
  onPlanned?: (ids: readonly string[]) => void;
  /** The pull's progress (bytes and releases). Default: none. */
  onProgress?: (event: PullProgress) => void;
  /**
   * Stops the listing and the pull between releases (each release whole or absent); no lock is written then:
   * `onInterrupted` is told what the pull did (none when the listing was cut) and AbortedError is thrown.
   */
  signal?: AbortSignal;
  /** Called when `signal` stopped the listing or the pull, before AbortedError is thrown. Default: none. */
  onInterrupted?: (pulled: PullReleasesResult | undefined) => void;
  /**
   * Runs the recording of the lock: every pinned release's rows checked against its verified stored data file
   * (about 30 ms a release: 3-6 s for 100), then the atomic write; a command wraps it to say a slow one.
   * Default: runs it as is.
   */
  whileRecording?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface LockedReleases {
  lock: StudyLock;
  /** The catalog the lock was recorded from (the caller closes it). */
  catalog: Catalog;
}

/**
 * Pins `wanted` in a study lock at `lockPath` (DESIGN.md 2.5): missing IDs pulled by exact ID first, the
 * latest N listed, pulled and pinned. The first release that fails to pull is thrown; nothing is written then.
 * @throws CatalogOptionError (exit 2) for a malformed ID, before anything opens; the pull's and writeLock's errors.
 */
export async function lockReleases(lockPath: string, wanted: WantedReleases, options: LockReleasesOptions): Promise<LockedReleases> {
  checkWantedReleases(wanted);
  // A target that is not a file (a device, a FIFO, a dangling link) is refused before anything is pulled.
  await regularFileTarget(lockPath);
  let catalog = await options.openCatalog('ids' in wanted ? 'read' : 'write');
  let ids = 'ids' in wanted ? [...new Set(await resolveReleaseIds(catalog, wanted.ids))] : [];
  let missing = await missingIds(catalog, ids);
  let pulled: PullReleasesResult | undefined;
  if ('latest' in wanted || missing.length > 0) {
    if (catalog.readOnly) {
      await catalog.close();
      catalog = await options.openCatalog('write');
      missing = await missingIds(catalog, ids);
    }
    const client = await options.connect();
    const signal = options.signal === undefined ? {} : { signal: options.signal };
    if ('latest' in wanted) {
      // Listed and remembered, then only the listed IDs the catalog lacks are pulled.
      ids = (await listLatestReleases(catalog, client, wanted.latest, signal)).map((release) => release.id);
      if (options.signal?.aborted === true) interrupted(options, undefined);
      missing = await missingIds(catalog, ids);
    }
    if (missing.length > 0) options.onPlanned?.(missing);
    const result = await pullReleases(catalog, client, missing, { ...signal, ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }) });
    pulled = result;
    // A lock pins what was asked for, all of it: an interrupted pull writes none (what it imported stays).
    if (options.signal?.aborted === true) interrupted(options, result);
    const failed = result.failed[0];
    if (failed !== undefined) throw failed.error;
    options.onPulled?.(missing, result.pulled);
  }
  // A signal heard while the pinned rows were checked writes no lock either (session 43: it had written the lock and
  // exited 0 after saying "stopping"): the check ends, then nothing is written.
  const record = async () => {
    const lock = await recordStudyLock(catalog, ids);
    if (options.signal?.aborted === true) interrupted(options, pulled);
    await writeLockFile(lockPath, lock);
    return lock;
  };
  const lock = await (options.whileRecording === undefined ? record() : options.whileRecording(record));
  return { lock, catalog };
}

/** Tells `onInterrupted`, then throws the AbortedError of a lock not written. */
function interrupted(options: LockReleasesOptions, result: PullReleasesResult | undefined): never {
  options.onInterrupted?.(result);
  throw new AbortedError(workbenchMessages.lockInterrupted());
}

/** The IDs among `ids` the catalog has not imported, in the order given. */
async function missingIds(catalog: Catalog, ids: readonly string[]): Promise<string[]> {
  const present = await importedReleaseIds(catalog, ids);
  return ids.filter((id) => !present.has(id));
}
