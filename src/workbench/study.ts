// Study: a lock opened and reproduced in a workbench, and its event study over exactly the locked releases.
// Lives in src/workbench (not src/locks) because it needs src/analysis; src/locks stays catalog/client/spec.

import path from 'node:path';
import { studyCatalog, type EventStudyOptions, type EventStudyResult } from '../analysis/index.js';
import { readLock, reproduceStudy, type ReproduceOptions, type ReproduceReport, type StudyLock } from '../locks/index.js';
import { openWorkbench, type Workbench, type WorkbenchOptions } from './open-workbench.js';
import { WorkbenchOptionError } from './workbench-errors.js';
import { workbenchMessages } from './messages.js';

export interface StudyOpenOptions extends Pick<WorkbenchOptions, 'env' | 'home' | 'mock'> {
  /** A workbench to use (not closed by `Study.close`). Default: one opened from env/home/mock and owned. */
  workbench?: Workbench;
  /** Progress of the reproduction. Default: none. */
  onProgress?: ReproduceOptions['onProgress'];
}

export class Study {
  readonly lock: StudyLock;
  /** The lock file as given, resolved to an absolute path (never written into anything). */
  readonly lockPath: string;
  /** Exact locked release IDs, in lock order (oldest day first). */
  readonly releaseIds: string[];
  readonly workbench: Workbench;
  /** What the reproduction pulled and checked. */
  readonly report: ReproduceReport;
  readonly #owned: boolean;

  private constructor(lock: StudyLock, lockPath: string, workbench: Workbench, report: ReproduceReport, owned: boolean) {
    this.lock = lock;
    this.lockPath = lockPath;
    this.releaseIds = lock.releases.map((release) => release.id);
    this.workbench = workbench;
    this.report = report;
    this.#owned = owned;
  }

  /**
   * Reads the lock at `lockPath`, opens a workbench (or uses `options.workbench`) and reproduces the lock
   * in it: missing releases are pulled by exact ID, every checksum is compared and every stored file re-hashed.
   * @throws the errors of readLock (exit 2), reproduceStudy (exit 3 / 6) and openWorkbench.
   */
  static async open(lockPath: string, options: StudyOpenOptions = {}): Promise<Study> {
    const lock = await readLock(lockPath);
    const owned = options.workbench === undefined;
    const workbench = options.workbench ?? (await openWorkbench({ env: options.env ?? {}, ...pick(options) }));
    try {
      const report = await reproduceStudy(lock, workbench.catalog, workbench.client, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
      return new Study(lock, path.resolve(lockPath), workbench, report, owned);
    } catch (error) {
      if (owned) await workbench.close();
      throw error;
    }
  }

  /**
   * The event-vs-control study (src/analysis `eventStudy`) over exactly the locked release IDs. A lock
   * pinning releases of more than one `calculation_version` (see `lock.calculationVersions`) is studied
   * only with `allowMixedCalculationVersions: true`; the mix is then in `result.metadata.calculationVersionMix`.
   * @throws WorkbenchOptionError (exit 2) when `options.releases` is given; MixedCalculationVersionsError
   *   (exit 2) for mixed versions without the opt-in.
   */
  async eventStudy(options: Omit<EventStudyOptions, 'releases'> = {}): Promise<EventStudyResult> {
    if ((options as EventStudyOptions).releases !== undefined) {
      throw new WorkbenchOptionError(workbenchMessages.studyReleasesFixed(), { option: 'releases' });
    }
    return studyCatalog(this.workbench.catalog, { ...options, releases: this.releaseIds });
  }

  /** Closes the workbench when this study opened it. Idempotent. */
  async close(): Promise<void> {
    if (this.#owned) await this.workbench.close();
  }
}

function pick(options: StudyOpenOptions): Pick<WorkbenchOptions, 'home' | 'mock'> {
  return {
    ...(options.home === undefined ? {} : { home: options.home }),
    ...(options.mock === undefined ? {} : { mock: options.mock }),
  };
}
